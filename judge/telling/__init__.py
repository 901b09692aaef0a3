"""Telling: the report and its JSON, hints, text made safe to show, the files the judge
writes, replays, and a rejection shrunk to its smallest case."""
