"""Query-time package: database access, model adapters, retrieval and answering (no Dagster)."""
