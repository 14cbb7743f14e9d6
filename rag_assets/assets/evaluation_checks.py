"""Quality gates on the golden evaluation: the full pipeline's false-answer and over-abstention rates within limits."""

from dagster import AssetCheckResult, AssetCheckSeverity, asset_check

from rag_assets.assets.evaluation import golden_eval_runs
from rag_assets.evaluation.ablation import FULL


def within_limit(result: dict, metric: str) -> AssetCheckResult:
    """The full pipeline row's rate against the limit the run was given (golden_eval_runs' config)."""
    row = next(r for r in result["rows"] if r["config"] == FULL)
    value, limit = row.get(metric), result["limits"][metric]
    meta = {"limit": limit, "split": result["split"], "commit": result["commit"], "pipeline": result["pipeline"]}
    if value is None:  # the split has no question this rate is measured on: not a pass
        return AssetCheckResult(passed=False, severity=AssetCheckSeverity.WARN, metadata=meta,
                                description=f"{metric} is undefined on this split")
    return AssetCheckResult(passed=value <= limit, metadata={**meta, metric: float(value),
                                                             "95% CI": str(row.get(f"{metric}_ci"))})


@asset_check(asset=golden_eval_runs, description="The full pipeline's false-answer rate is at most the limit.")
def false_answer_rate_within_limit(golden_eval_runs: dict) -> AssetCheckResult:
    return within_limit(golden_eval_runs, "false_answer_rate")


@asset_check(asset=golden_eval_runs, description="The full pipeline's over-abstention rate is at most the limit.")
def over_abstention_rate_within_limit(golden_eval_runs: dict) -> AssetCheckResult:
    return within_limit(golden_eval_runs, "over_abstention_rate")


evaluation_checks = [false_answer_rate_within_limit, over_abstention_rate_within_limit]
