"""The one Dagster Definitions object: assets, jobs, sensors and resources; the only place the environment is read."""

from __future__ import annotations

from dagster import Definitions

from rag_assets.assets.evaluation import evaluation_assets
from rag_assets.assets.evaluation_checks import evaluation_checks
from rag_assets.assets.ingest import ingest_assets
from rag_assets.assets.ingest_checks import ingest_checks
from rag_assets.assets.sweep import chunk_sweep
from rag_assets.jobs import chunk_sweep_job, eval_job, ingest_job, nightly_golden
from rag_assets.resources import (
    ChunkerResource,
    EmbedderResource,
    InboxResource,
    OcrResource,
    PipelineResource,
    PostgresResource,
    TokenizerResource,
)
from rag_assets.sensors import inbox_sensor
from rag_assets.settings import Settings, load_settings


def build_resources(settings: Settings) -> dict:
    return {
        "database": PostgresResource(url=settings.database_url or "", pgdata=str(settings.pgdata),
                                     app_url=settings.app_database_url or ""),
        "tokenizer": TokenizerResource(),
        "chunker": ChunkerResource(size=settings.chunk_size, overlap=settings.chunk_overlap, snap=settings.chunk_snap),
        "ocr": OcrResource(enabled=settings.ocr, jobs=settings.ocr_jobs),
        "embedder": EmbedderResource(name=settings.embedder, tei_url=settings.tei_url or "",
                                     threads=settings.embed_threads),
        "pipeline": PipelineResource.of(settings.pipeline(), api_key=settings.generator_api_key),
        "inbox": InboxResource(folder=str(settings.inbox_dir)),
    }


defs = Definitions(
    assets=[*ingest_assets, *evaluation_assets, chunk_sweep],
    asset_checks=[*ingest_checks, *evaluation_checks],
    jobs=[ingest_job, eval_job, chunk_sweep_job],
    schedules=[nightly_golden],
    sensors=[inbox_sensor],
    resources=build_resources(load_settings()),
)
