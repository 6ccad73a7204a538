"""`refhound serve`: the local web app and the HTTP API, on the same runtime as the CLI."""
