"""Dagster definitions for the data work: ingest, and later embeddings, indexes and evaluation."""
