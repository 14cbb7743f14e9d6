"""Every environment variable the system reads, in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    home: Path
    database_url: str | None  # None: the embedded PostgreSQL under home/pgdata
    dagster_database_url: str | None
    chunk_size: int
    chunk_overlap: int
    chunk_snap: int
    ocr_enabled: bool
    inbox: Path

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def blob_dir(self) -> Path:
        return self.home / "blobs"

    @property
    def dagster_home(self) -> Path:
        return self.home / "dagster"


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def load_settings(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    home = Path(env.get("RAG_HOME") or ".rag").expanduser().resolve()
    return Settings(
        home=home,
        database_url=env.get("RAG_DATABASE_URL") or None,
        dagster_database_url=env.get("DAGSTER_PG_URL") or None,
        chunk_size=int(env.get("RAG_CHUNK_SIZE", "500")),
        chunk_overlap=int(env.get("RAG_CHUNK_OVERLAP", "50")),
        chunk_snap=int(env.get("RAG_CHUNK_SNAP", "50")),
        ocr_enabled=_flag(env.get("RAG_OCR"), True),
        inbox=Path(env.get("RAG_INBOX") or home / "inbox").expanduser().resolve(),
    )
