"""Partitions: one per stored file, keyed by its name beside its SHA-256 so the UI's partition list reads as files."""

import re

from dagster import DynamicPartitionsDefinition

files_partitions = DynamicPartitionsDefinition(name="files")

SHA256_HEX = 64
NAME_CHARS = 80  # long names would push the hash off the UI's partition list


def file_partition_key(file_name: str, sha256: str) -> str:
    """'handbook.pdf 3f2a…' (the full hash last): Dagster refuses control characters and '...' in keys."""
    name = re.sub(r"[\x00-\x1f\x7f]", "?", file_name).replace("...", "…")[:NAME_CHARS]
    return f"{name} {sha256}"


def partition_sha256(partition_key: str) -> str:
    """The file's SHA-256 from its partition key (a bare hash, the keys before file names were added, reads too)."""
    sha = partition_key[-SHA256_HEX:]
    if not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise ValueError(f"partition {partition_key!r} does not end in a file's SHA-256")
    return sha
