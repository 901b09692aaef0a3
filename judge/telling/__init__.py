"""Telling: the report and its JSON, the files the judge writes, and a rejection shrunk to its
smallest case."""
