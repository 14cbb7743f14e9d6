"""The serving settings plus what ingest and Dagster read: chunking, OCR, the inbox, Dagster's own storage."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import field_validator, model_validator

from rag_serving.settings import Settings as ServingSettings
from rag_serving.settings import env_field, validate_env


class Settings(ServingSettings):
    chunk_size: int = env_field(500, "RAG_CHUNK_SIZE", "chunk window in tokens of the embedder's tokenizer",
                                ge=16, le=8192)
    chunk_overlap: int = env_field(50, "RAG_CHUNK_OVERLAP", "tokens shared by consecutive windows", ge=0, le=4096)
    chunk_snap: int = env_field(50, "RAG_CHUNK_SNAP", "how far a window edge may move to a sentence or heading",
                                ge=0, le=1024)
    ocr: bool = env_field(True, "RAG_OCR", "OCR pages without a text layer (ocrmypdf + tesseract)")
    ocr_jobs: int = env_field(0, "RAG_OCR_JOBS", "pages of one file OCRed at once; 0: one per CPU (ocrmypdf's "
                              "default)", ge=0, le=256)
    inbox: Path | None = env_field(None, "RAG_INBOX", "folder the inbox sensor watches; unset: RAG_HOME/inbox")
    dagster_database_url: str | None = env_field(None, "DAGSTER_PG_URL",
                                                 "Dagster's run storage (postgresql+psycopg2://…); unset: the "
                                                 "`dagster` database on the application's server")
    dagster_artifacts: Path | None = env_field(None, "RAG_DAGSTER_ARTIFACTS",
                                               "Dagster's local artifact folder; unset: RAG_HOME/dagster/storage")

    @field_validator("inbox", "dagster_artifacts", mode="after")
    @classmethod
    def _absolute_paths(cls, value: Path | None) -> Path | None:
        return value.expanduser().resolve() if value is not None else None

    @model_validator(mode="after")
    def _overlap_below_size(self) -> "Settings":
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(f"RAG_CHUNK_OVERLAP ({self.chunk_overlap}) must be smaller than RAG_CHUNK_SIZE "
                             f"({self.chunk_size})")
        return self

    @property
    def inbox_dir(self) -> Path:
        return self.inbox or self.home / "inbox"

    @property
    def dagster_home(self) -> Path:
        return self.home / "dagster"


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    return validate_env(Settings, env)
