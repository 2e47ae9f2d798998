"""Ingest: files to evidence units in the library."""
