"""Jobs: the ingest graph for one file partition."""

from dagster import AssetSelection, define_asset_job

from .partitions import files_partitions

ingest_job = define_asset_job(
    "ingest_job",
    selection=AssetSelection.groups("ingest"),
    partitions_def=files_partitions,
    description="Ingest one stored file (partition = its SHA-256) into pages, sections and chunks, then publish it.",
)
