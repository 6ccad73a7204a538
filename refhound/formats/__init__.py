"""Bibliographic formats → `Record`: one mapping per format, shared by the index's ingesters (dumps) and
the online sources (API answers), so a record reads the same whichever way it came.

    fields     names, years, DOIs and arXiv ids as the formats write them
    crossref   Crossref's `work` objects
    openalex   OpenAlex's `work` objects
"""
