"""`refhound serve`: the local web app and the HTTP API, on the same runtime as the CLI.

app        the FastAPI app: the page at /, the API under /api/v1, the API reference at /docs
requests   a request read into a check or a quote check (multipart uploads or JSON, the options)
uploads    uploads on disk: a private directory per request, generated file names, removed after
jobs       the worker pool behind a bounded queue; job state, progress, time limit, expiry
checks     a check job: read the inputs, check on the shared runtime, build refhound.report/1
runtime    the index opened once and the SOP runner shared by every check
quotes     a quote-check job, reading local files only among its uploads
marks      where a wrong field is printed in the cited string, for the page
guards     the request-size cap (413) and the bearer token
config     the server's limits
"""
