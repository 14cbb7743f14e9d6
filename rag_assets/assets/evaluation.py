"""Evaluation assets: the golden ablation (one eval run per row, stored in PostgreSQL), its table with intervals, and the threshold sweep."""

from pathlib import Path

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, Output, asset

from rag_assets.evaluation import thresholds
from rag_assets.evaluation.ablation import PAIRED_METRICS, ablate, ablation_rows, shipped_rows
from rag_assets.evaluation.golden import load_golden, require_live
from rag_assets.evaluation.provenance import REPO_ROOT, git_commit
from rag_assets.evaluation.report import markdown, store
from rag_assets.resources import EmbedderResource, PipelineResource, PostgresResource
from rag_assets.samples import SYNONYMS
from rag_serving.wiring import Wiring

GROUP = "evaluation"


class GoldenEvalConfig(Config):
    """Set in the launchpad: the split, the golden folder and which rows; pipeline choices are the `pipeline`
    resource's (the shipped spec unless overridden there)."""

    split: str = "dev"  # dev | heldout | all; held-out cases are for the final benchmark run only
    golden: str = str(REPO_ROOT / "golden")
    rows: str = "all"  # all | shipped (naive, hybrid, the reranker, routing, the full pipeline)


class ThresholdSweepConfig(Config):
    split: str = "dev"
    golden: str = str(REPO_ROOT / "golden")
    max_false_answer_rate: float = thresholds.MAX_FALSE_ANSWER_RATE


def text_plot(rows: list[dict], metric: str = "ndcg@10", width: int = 40) -> str:
    """A bar per configuration, readable in the UI's Markdown view."""
    lines = [f"{metric}"]
    for row in rows:
        value = row.get(metric) or 0.0
        bar = "█" * round(value * width)
        lines.append(f"{row['config'][:28]:<28} {bar} {value:.3f}")
    return "```\n" + "\n".join(lines) + "\n```"


@asset(group_name=GROUP, kinds={"postgres"})
def golden_eval_runs(
    context: AssetExecutionContext, config: GoldenEvalConfig, database: PostgresResource, embedder: EmbedderResource,
    pipeline: PipelineResource,
) -> Output[dict]:
    """Every ablation row on the golden set, as the serving role sees the index; rows go to eval_runs. The last row
    is the pipeline resource's spec: by default exactly what `rag ask` and POST /query serve."""
    cases = load_golden(Path(config.golden), config.split)
    shipped = pipeline.spec()
    serving = database.serving()
    try:
        require_live(serving, cases)
        wiring = Wiring(serving, embedder.get(), api_key=pipeline.api_key or None)
        generative = shipped.helper_url is not None or shipped.generator != "extractive"
        rows = ablation_rows(shipped, synonyms=shipped.synonyms or str(SYNONYMS), helper=generative)
        rows = shipped_rows(rows) if config.rows == "shipped" else rows
        result = ablate(wiring, cases, rows)
    finally:
        serving.close()
    result.update({"commit": git_commit(), "split": config.split, "embedder": wiring.embedder.model,
                   "pipeline": shipped.digest})
    with database.connect() as conn:
        ids = store(conn, result, source="dagster")
    context.log.info(f"stored eval_runs {ids}")
    return Output(
        result,
        metadata={
            "cases": len(cases),
            "split": config.split,
            "pipeline": shipped.digest,
            "pipeline_summary": shipped.summary(),
            "eval_run_ids": MetadataValue.json(ids),
            "scores": MetadataValue.md(text_plot(result["rows"]) + "\n" + text_plot(result["rows"], "false_answer_rate")),
            **{f"{row['config']} ndcg@10": MetadataValue.float(row["ndcg@10"]) for row in result["rows"]},
            **{f"{row['config']} false-answer rate": MetadataValue.float(row["false_answer_rate"])
               for row in result["rows"] if row.get("false_answer_rate") is not None},
        },
    )


@asset(group_name=GROUP)
def ablation_table(golden_eval_runs: dict) -> MaterializeResult:
    """The naive-to-current table with better/worse/same counts and 95% paired bootstrap intervals."""
    intervals = [
        {"config": row["config"], **c}
        for row in golden_eval_runs["rows"]
        for c in row["comparisons"]
        if c["metric"] in PAIRED_METRICS
    ]
    return MaterializeResult(
        metadata={
            "table": MetadataValue.md(markdown(golden_eval_runs)),
            "bootstrap_intervals": MetadataValue.json(intervals),
            "commit": golden_eval_runs["commit"],
        }
    )


@asset(group_name=GROUP, kinds={"postgres"})
def threshold_sweep(
    context: AssetExecutionContext, config: ThresholdSweepConfig, database: PostgresResource,
    embedder: EmbedderResource, pipeline: PipelineResource,
) -> MaterializeResult:
    """The answer threshold from 0.1 to 0.9 for the pipeline's spec: false-answer against over-abstention rate, and
    the threshold chosen."""
    cases = load_golden(Path(config.golden), config.split)
    serving = database.serving()
    try:
        require_live(serving, cases)
        wiring = Wiring(serving, embedder.get(), api_key=pipeline.api_key or None)
        result = thresholds.run_sweep(wiring, cases, pipeline.spec(), max_false_answer_rate=config.max_false_answer_rate)
    finally:
        serving.close()
    table, chosen, auc = result["table"], result["chosen"], result["auc"]
    return MaterializeResult(metadata={
        "table": MetadataValue.md(thresholds.markdown(table, chosen)),
        "chosen_threshold": MetadataValue.float(chosen["threshold"]),
        "confidence_auc": MetadataValue.float(auc if auc is not None else float("nan")),
        "sweep": MetadataValue.json(table),
        "split": config.split,
        "pipeline": pipeline.spec().digest,
        "commit": git_commit(),
    })


evaluation_assets = [golden_eval_runs, ablation_table, threshold_sweep]
