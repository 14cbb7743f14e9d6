"""The chunk sweep asset: several chunk settings built beside the live index and compared on the golden cases."""

from pathlib import Path

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, asset
from pydantic import Field

from rag_assets.assets import tables
from rag_assets.assets.evaluation import progress_log
from rag_assets.evaluation.chunk_sweep import SCRATCH, sweep
from rag_assets.evaluation.golden import load_golden
from rag_assets.evaluation.provenance import REPO_ROOT, git_commit
from rag_assets.evaluation.report import store
from rag_assets.resources import (
    ChunkerResource,
    EmbedderResource,
    OcrResource,
    PipelineResource,
    PostgresResource,
    TokenizerResource,
)

GROUP = "sweeps"


class ChunkSetting(Config):
    size: int
    overlap: int
    snap: int = 50


class ChunkSweepConfig(Config):
    """Set in the launchpad: the settings to try (the first is the baseline the others are compared with), which live
    files (source paths; empty: all) and the golden cases scored."""

    # validate_default: Dagster hands over a value equal to the default as the raw default, dicts, not ChunkSettings.
    settings: list[ChunkSetting] = Field(default=[{"size": 500, "overlap": 50, "snap": 50},
                                                  {"size": 256, "overlap": 25, "snap": 50},
                                                  {"size": 1000, "overlap": 100, "snap": 50}], validate_default=True)
    sources: list[str] = []
    split: str = "dev"
    golden: str = str(REPO_ROOT / "golden")


@asset(group_name=GROUP, kinds={"postgres"})
def chunk_sweep(
    context: AssetExecutionContext, config: ChunkSweepConfig, database: PostgresResource,
    tokenizer: TokenizerResource, chunker: ChunkerResource, ocr: OcrResource, embedder: EmbedderResource,
    pipeline: PipelineResource,
) -> MaterializeResult:
    """Each setting's build of the live files in the `<database>_sweep` scratch database (the live index is never
    touched) and its scores with the pipeline spec; the comparison table, also stored in eval_runs."""
    settings = [ChunkerResource(size=s.size, overlap=s.overlap, snap=s.snap, oversize=chunker.oversize)
                for s in config.settings]
    result = sweep(database, settings, load_golden(Path(config.golden), config.split), pipeline.spec(),
                   resources={"tokenizer": tokenizer, "ocr": ocr, "embedder": embedder}, sources=config.sources,
                   say=context.log.info, progress=progress_log(context))
    result.update({"commit": git_commit(), "split": config.split, "embedder": embedder.get().model,
                   "pipeline": pipeline.spec().digest})
    with database.connect() as conn:
        ids = store(conn, result, source="dagster-sweep")
    return MaterializeResult(metadata={
        "settings": tables.sweep_rows(result),
        "comparisons": tables.comparisons(result),
        **tables.series(result),
        "cases": result["cases"],
        "scratch_database": f"<application database>_{SCRATCH}",
        "eval_run_ids": MetadataValue.json(ids),
        "pipeline": pipeline.spec().digest,
        "commit": result["commit"],
    })
