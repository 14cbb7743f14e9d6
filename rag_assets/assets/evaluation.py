"""Evaluation assets: the golden ablation (one eval run per configuration, stored in PostgreSQL) and its table with intervals."""

from pathlib import Path

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, Output, asset

from rag_serving.config import DEFAULT_ANSWER_THRESHOLD, load_settings
from rag_serving.database import Database, app_url
from rag_serving.retrieval import Retriever

from .. import thresholds
from ..ablation import (PAIRED_METRICS, ablate, golden_ablation_configs, golden_components, markdown, shipped_rows,
                        store)
from ..golden import load_golden
from ..provenance import REPO_ROOT, git_commit
from ..resources import EmbedderResource, GeneratorResource, PostgresResource

GROUP = "evaluation"


class GoldenEvalConfig(Config):
    """Set in the launchpad to sweep: the split, the chunks given to the generator, candidates per leg, the threshold."""

    split: str = "dev"  # dev | heldout | all; held-out cases are for the final benchmark run only
    golden: str = str(REPO_ROOT / "golden")
    k: int = 5
    candidates: int = 50
    threshold: float = DEFAULT_ANSWER_THRESHOLD
    rows: str = "all"  # all | shipped (naive, hybrid, the reranker, routing, the full pipeline)


class ThresholdSweepConfig(Config):
    split: str = "dev"
    golden: str = str(REPO_ROOT / "golden")
    k: int = 5
    candidates: int = 50
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
    generator: GeneratorResource,
) -> Output[dict]:
    """Every ablation configuration on the golden set, as the serving role sees the index; rows go to eval_runs."""
    cases = load_golden(Path(config.golden), config.split)
    serving = Database(app_url(load_settings(), database.resolved_url()), max_size=1)
    try:
        model = embedder.get()
        writer = generator.get(model)
        settings = load_settings()
        components = golden_components(settings, writer)
        configs = golden_ablation_configs(settings, components, k=config.k, candidates=config.candidates,
                                          threshold=config.threshold)
        if config.rows == "shipped":
            configs = shipped_rows(configs)
        result = ablate(Retriever(serving, model, candidates=config.candidates), cases, configs, writer, components)
    finally:
        serving.close()
    result.update({"commit": git_commit(), "split": config.split, "embedder": model.model, "generator": writer.model})
    with database.connect() as conn:
        ids = store(conn, result, source="dagster")
    context.log.info(f"stored eval_runs {ids}")
    return Output(
        result,
        metadata={
            "cases": len(cases),
            "split": config.split,
            "k": config.k,
            "candidates": config.candidates,
            "threshold": config.threshold,
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
    embedder: EmbedderResource, generator: GeneratorResource,
) -> MaterializeResult:
    """The answer threshold from 0.1 to 0.9: false-answer against over-abstention rate, and the threshold chosen."""
    cases = load_golden(Path(config.golden), config.split)
    serving = Database(app_url(load_settings(), database.resolved_url()), max_size=1)
    try:
        model = embedder.get()
        result = thresholds.run_sweep(Retriever(serving, model, candidates=config.candidates), cases, k=config.k,
                                      candidates=config.candidates, generator=generator.get(model),
                                      max_false_answer_rate=config.max_false_answer_rate)
    finally:
        serving.close()
    table, chosen, auc = result["table"], result["chosen"], result["auc"]
    return MaterializeResult(metadata={
        "table": MetadataValue.md(thresholds.markdown(table, chosen)),
        "chosen_threshold": MetadataValue.float(chosen["threshold"]),
        "confidence_auc": MetadataValue.float(auc if auc is not None else float("nan")),
        "sweep": MetadataValue.json(table),
        "split": config.split,
        "commit": git_commit(),
    })


evaluation_assets = [golden_eval_runs, ablation_table, threshold_sweep]
