"""The one Dagster Definitions object: assets, jobs, sensors and resources configured from the environment."""

from __future__ import annotations

from dagster import Definitions

from rag_serving.config import load_settings

from .assets.evaluation import evaluation_assets
from .assets.ingest import ingest_assets
from .jobs import eval_job, ingest_job, nightly_golden
from .resources import (ChunkerResource, EmbedderResource, GeneratorResource, OcrResource, PostgresResource,
                        TokenizerResource)
from .sensors import inbox_sensor


def build_resources() -> dict:
    settings = load_settings()
    return {
        "database": PostgresResource(url=settings.database_url or ""),
        "tokenizer": TokenizerResource(),
        "chunker": ChunkerResource(size=settings.chunk_size, overlap=settings.chunk_overlap, snap=settings.chunk_snap),
        "ocr": OcrResource(enabled=settings.ocr_enabled),
        "embedder": EmbedderResource(name=settings.embedder, tei_url=settings.tei_url or "", threads=settings.embed_threads),
        "generator": GeneratorResource(name=settings.generator, model=settings.model or "",
                                       base_url=settings.generator_url or "", api_key=settings.generator_api_key or "",
                                       max_tokens=settings.max_answer_tokens),
    }


defs = Definitions(
    assets=[*ingest_assets, *evaluation_assets],
    jobs=[ingest_job, eval_job],
    schedules=[nightly_golden],
    sensors=[inbox_sensor],
    resources=build_resources(),
)
