"""Memory and WAL settings for the embedded server, sized to the machine: PostgreSQL's defaults suit a tiny VM."""

from __future__ import annotations

from pathlib import Path

import psutil

CONF = "rag.conf"
INCLUDE = f"include_if_exists = '{CONF}'"


def sized(total_bytes: int) -> dict[str, str]:
    """The settings for a machine with total_bytes of memory.

    shared_buffers: an eighth of memory, between PostgreSQL's 128 MB and 2 GB. At 100k chunks the HNSW index alone is
    ~200 MB; with 128 MB of buffers every query reads it back from the OS (pgvector's docs: the index should fit).
    The server shares the machine with the models and Dagster, hence an eighth, not the usual quarter.
    effective_cache_size: half of memory (a planner estimate, nothing is allocated).
    max_wal_size: 2 GB, so a large ingest does not checkpoint every few seconds."""
    mb = total_bytes // 2**20
    return {"shared_buffers": f"{min(2048, max(128, mb // 8))}MB",
            "effective_cache_size": f"{max(512, mb // 2)}MB",
            "max_wal_size": "2GB"}


def write(pgdata: Path, total_bytes: int | None = None) -> bool:
    """Write rag.conf into pgdata and include it from postgresql.conf; True if anything changed (the server reads it
    when it next starts)."""
    conf = pgdata / "postgresql.conf"
    if not conf.exists():
        return False
    values = sized(total_bytes or psutil.virtual_memory().total)
    text = "# Written by rag_serving.store.server_config; edit there, not here.\n" + "".join(
        f"{name} = '{value}'\n" for name, value in values.items())
    changed = False
    target = pgdata / CONF
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
        target.chmod(0o644)
        changed = True
    if INCLUDE not in conf.read_text():
        with conf.open("a") as out:
            out.write(f"\n{INCLUDE}\n")
        changed = True
    return changed
