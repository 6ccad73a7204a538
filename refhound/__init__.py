"""refhound: catch hallucinated and wrong references in scientific writing."""

__version__ = "0.1.0"
