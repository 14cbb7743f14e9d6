"""Scores on golden cases: chunk ranks judged by the graded (document, page) pairs their page spans overlap; answers by their route and required strings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.metrics import dcg
from rag_serving.answer.responses import Response
from rag_serving.answer.sentences import squish
from rag_serving.search.hits import Hit

KS = (1, 5, 10)
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20261202
UNIT_NOTE = (
    "unit: ranked chunks; a chunk counts as relevant with the highest grade of the golden (document, physical page) "
    "pairs its page span overlaps, each page credited once (for NDCG and recall); ideal DCG from the graded pages; "
    "recall counts relevant pages covered; no-answer and clarify cases are left out of retrieval averages"
)


def judge(hits: Sequence[Hit], case: GoldenCase) -> tuple[list[int], list[int], int]:
    """Per-rank (grade, novel gain) and how many relevant pages the hits cover."""
    pages = {(r.document, r.page): r.grade for r in case.relevant}
    credited: set[tuple[str, int]] = set()
    grades, gains = [], []
    for h in hits:
        covered = [(h.source_path, p) for p in range(h.page_start, h.page_end + 1) if (h.source_path, p) in pages]
        grades.append(max((pages[c] for c in covered), default=0))
        novel = [c for c in covered if c not in credited]
        gains.append(max((pages[c] for c in novel), default=0))
        credited.update(covered)
    return grades, gains, len(credited)


def case_metrics(hits: Sequence[Hit], case: GoldenCase) -> dict[str, float]:
    grades, gains, _ = judge(hits, case)
    ideal_gains = sorted((r.grade for r in case.relevant), reverse=True)
    out: dict[str, float] = {}
    for k in KS:
        out[f"hit@{k}"] = 1.0 if any(g > 0 for g in grades[:k]) else 0.0
        ideal = dcg(ideal_gains[:k])
        out[f"ndcg@{k}"] = dcg(gains[:k]) / ideal if ideal else 0.0
        _, _, covered = judge(hits[:k], case)
        out[f"recall@{k}"] = covered / len(case.relevant) if case.relevant else 0.0
    first = next((i for i, g in enumerate(grades[: max(KS)], start=1) if g > 0), None)
    out["mrr@10"] = 1.0 / first if first else 0.0
    return out


def contains_all(text: str, required: Sequence[str]) -> bool:
    """Every required string appears in text, ignoring case and runs of whitespace."""
    have = squish(text).lower()
    return all(squish(r).lower() in have for r in required)


def answer_metrics(response: Response, case: GoldenCase) -> dict:
    """correct: shown and holds every answer_must_include string (None when the case names none); on a clarify case,
    a clarifying question came back. wrong: shown on a no-answer or clarify case, or shown without the strings.
    abstained: nothing shown (abstain, clarify, unverified)."""
    shown = response.shown
    correct = (shown and contains_all(response.text, case.answer_must_include)) if case.answer_must_include else None
    if case.expect == "clarify":
        correct = response.route == "clarify"
    return {
        "route": response.route,
        "confidence": response.confidence,
        "shown": shown,
        "abstained": not shown,
        "correct": correct if case.expect != "abstain" else None,
        "wrong": shown and (not case.answerable or correct is False),
        "grounded": response.grounding.passed if response.grounding else None,
        "failed_check": response.grounding.failed_check if response.grounding else None,
        "answer": response.text[:300],
    }


def bootstrap_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% percentile bootstrap interval of a mean over questions (1,000 resamples, fixed seed): of a rate, or of the
    per-question differences between two rows."""
    data = np.asarray(values, dtype=float)
    if len(data) < 2 or np.all(data == data[0]):
        value = float(data.mean()) if len(data) else 0.0
        return value, value
    from scipy import stats  # here, not at the top: scipy.stats takes ~0.7 s to import and every `rag` command loads this

    result = stats.bootstrap((data,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=0.95,
                             method="percentile", rng=np.random.default_rng(BOOTSTRAP_SEED))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def summarize(rows: list[dict]) -> dict:
    scored = [r for r in rows if r["expect"] == "answer"]
    keys = [k for k in scored[0] if "@" in k] if scored else []
    summary: dict = {k: round(sum(r[k] for r in scored) / len(scored), 4) for k in keys}
    summary["answerable_cases"] = len(scored)
    summary["no_answer_cases"] = sum(r["expect"] == "abstain" for r in rows)
    summary["clarify_cases"] = sum(r["expect"] == "clarify" for r in rows)
    if rows and "route" in rows[0]:
        no_answer = [r for r in rows if r["expect"] == "abstain"]
        gradable = [r for r in scored if r["correct"] is not None]
        clarify = [r for r in rows if r["expect"] == "clarify"]
        shown = [r for r in rows if r["shown"]]
        drafted = [r for r in rows if r["route"] == "answer" and r["grounded"] is not None]
        for name, flags in [("false_answer_rate", [r["shown"] for r in no_answer]),
                            ("over_abstention_rate", [r["abstained"] for r in scored]),
                            ("correct_rate", [bool(r["correct"]) for r in gradable]),
                            ("wrong_rate", [r["wrong"] for r in rows]),
                            ("grounded_rate", [bool(r["grounded"]) for r in shown]),
                            # Drafts the grounding check stopped: what it catches (and, for a weak model, costs).
                            ("grounding_failed_rate", [not r["grounded"] for r in drafted]),
                            ("clarified_rate", [r["route"] == "clarify" for r in clarify])]:
            summary[name] = round(float(np.mean(flags)), 4) if flags else None
            summary[f"{name}_ci"] = [round(v, 4) for v in bootstrap_interval(flags)] if flags else None
        summary["gradable_cases"] = len(gradable)
        summary["routes"] = {route: sum(r["route"] == route for r in rows) for route in ("answer", "abstain", "clarify", "web")}
    return summary

