"""The answer-threshold sweep: one run at threshold 0 gives every question's confidence; each threshold is then exact."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.runs import Row, run_row
from rag_serving.spec import PipelineSpec
from rag_serving.wiring import Wiring

THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(1, 10))
# "Near zero" on the golden dev split: at most one no-answer case in twenty answered.
MAX_FALSE_ANSWER_RATE = 0.05


def shown_at(row: dict, threshold: float) -> bool:
    """Whether a row from a threshold-0 run shows an answer at threshold: routing is the only step that reads it."""
    return bool(row["shown"]) and row["confidence"] >= threshold


def sweep(rows: Sequence[dict], thresholds: Sequence[float] = THRESHOLDS) -> list[dict]:
    """False-answer rate, over-abstention rate and correct share per threshold, from a run at threshold 0."""
    no_answer = [r for r in rows if r["expect"] == "abstain"]
    answerable = [r for r in rows if r["expect"] == "answer"]
    gradable = [r for r in answerable if r["correct"] is not None]
    out = []
    for t in thresholds:
        out.append({
            "threshold": t,
            "false_answer_rate": round(float(np.mean([shown_at(r, t) for r in no_answer])), 4) if no_answer else None,
            "over_abstention_rate": round(float(np.mean([not shown_at(r, t) for r in answerable])), 4) if answerable else None,
            "correct_rate": round(float(np.mean([shown_at(r, t) and r["correct"] for r in gradable])), 4) if gradable else None,
            "answered": sum(shown_at(r, t) for r in rows),
        })
    return out


def choose(table: Sequence[dict], max_false_answer_rate: float = MAX_FALSE_ANSWER_RATE) -> dict:
    """The lowest threshold whose false-answer rate is at most the limit (it answers the most); else the safest."""
    ok = [r for r in table if r["false_answer_rate"] is not None and r["false_answer_rate"] <= max_false_answer_rate]
    if ok:
        return min(ok, key=lambda r: r["threshold"])
    return min(table, key=lambda r: (r["false_answer_rate"], r["over_abstention_rate"]))


def confidence_auc(rows: Sequence[dict]) -> float | None:
    """ROC AUC of the confidence for telling answerable (positive) from no-answer questions."""
    rows = [r for r in rows if r["expect"] in ("answer", "abstain")]
    labels = [r["expect"] == "answer" for r in rows]
    if len(set(labels)) < 2:
        return None
    from sklearn.metrics import roc_auc_score  # here: the Dagster definitions load this module for every ingest

    return float(roc_auc_score(labels, [r["confidence"] for r in rows]))


def run_sweep(wiring: Wiring, cases: Sequence[GoldenCase], shipped: PipelineSpec, *,
              max_false_answer_rate: float = MAX_FALSE_ANSWER_RATE, progress=None) -> dict:
    """Every case once through the shipped pipeline at threshold 0; the table, the choice and the AUC."""
    rows = run_row(wiring, cases, Row("shipped, threshold 0", shipped.replace(threshold=0.0)), progress=progress).cases
    table = sweep(rows)
    return {"table": table, "chosen": choose(table, max_false_answer_rate), "auc": confidence_auc(rows)}


def markdown(table: Sequence[dict], chosen: dict | None = None) -> str:
    lines = ["| threshold | false-answer rate | over-abstention rate | correct | answered |", "|---|---|---|---|---|"]
    for r in table:
        mark = " ← chosen" if chosen and r["threshold"] == chosen["threshold"] else ""
        lines.append(f"| {r['threshold']:.1f}{mark} | {r['false_answer_rate']:.3f} | {r['over_abstention_rate']:.3f} | "
                     f"{r['correct_rate']:.3f} | {r['answered']} |")
    return "\n".join(lines)
