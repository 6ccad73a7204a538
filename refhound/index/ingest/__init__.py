"""Dump ingesters: each turns one dump format into a stream of records."""
