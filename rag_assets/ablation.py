"""Ablation: configurations that add one component at a time, compared per question with paired bootstrap intervals."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from rag_serving.retrieval import Retriever

from .evaluation import EvalConfig, run_case, summarize
from .golden import GoldenCase

def ablation_configs(k: int = 5, candidates: int = 50) -> list[EvalConfig]:
    """Naive RAG first; each later row adds one component, all at the same k. Later issues append their stages."""
    return [
        EvalConfig(name=f"naive: dense top-{k}", mode="dense", k=k, candidates=candidates),
        EvalConfig(name="+ BM25 hybrid (RRF)", mode="hybrid", k=k, candidates=candidates),
    ]


ABLATION = ablation_configs()
PAIRED_METRICS = ("ndcg@10", "hit@10", "mrr@10")
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20261202


@dataclass
class ConfigRun:
    config: EvalConfig
    rows: list[dict]
    latencies_ms: list[float]
    summary: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    metric: str
    against: str
    better: int
    worse: int
    same: int
    mean_diff: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def run_config(retriever: Retriever, cases: Sequence[GoldenCase], config: EvalConfig) -> ConfigRun:
    rows, latencies = [], []
    for case in cases:
        started = time.perf_counter()
        rows.append(run_case(retriever, case, config))
        latencies.append((time.perf_counter() - started) * 1000)
    run = ConfigRun(config, rows, latencies)
    run.summary = {**summarize(rows), "p50_ms": round(float(np.percentile(latencies, 50)), 1),
                   "p95_ms": round(float(np.percentile(latencies, 95)), 1)}
    return run


def compare(new: ConfigRun, old: ConfigRun, metric: str) -> Comparison:
    """Per-question differences on answerable cases; 95% percentile bootstrap of their mean (fixed seed)."""
    pairs = [(a[metric], b[metric]) for a, b in zip(new.rows, old.rows) if a["expect"] != "abstain"]
    diff = np.array([a - b for a, b in pairs], dtype=float)
    if len(diff) < 2 or np.all(diff == diff[0]):
        low = high = float(diff.mean()) if len(diff) else 0.0
    else:
        result = stats.bootstrap((diff,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=0.95,
                                 method="percentile", rng=np.random.default_rng(BOOTSTRAP_SEED))
        low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    return Comparison(metric, old.config.name, int((diff > 0).sum()), int((diff < 0).sum()), int((diff == 0).sum()),
                      float(diff.mean()) if len(diff) else 0.0, low, high)


def ablate(retriever: Retriever, cases: Sequence[GoldenCase], configs: Sequence[EvalConfig] = ABLATION) -> dict:
    runs = [run_config(retriever, cases, c) for c in configs]
    table = []
    for i, run in enumerate(runs):
        row = {"config": run.config.name, "digest": run.config.digest(), **run.summary, "comparisons": [], "cases": run.rows}
        for against in ([runs[i - 1]] if i else []) + ([runs[0]] if i > 1 else []):
            for metric in PAIRED_METRICS:
                c = compare(run, against, metric)
                row["comparisons"].append({**c.__dict__, "significant": c.significant})
        table.append(row)
    return {"rows": table, "cases": len(cases)}


def markdown(result: dict) -> str:
    lines = [
        "| configuration | hit@10 | MRR@10 | NDCG@10 | p50 ms | p95 ms | false-answer rate | over-abstention rate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        lines.append(f"| {row['config']} | {row['hit@10']:.3f} | {row['mrr@10']:.3f} | {row['ndcg@10']:.3f} | "
                     f"{row['p50_ms']} | {row['p95_ms']} | n/a (#5) | n/a (#5) |")
    lines.append("")
    lines.append("| configuration | vs | metric | better / worse / same | mean Δ | 95% CI | |")
    lines.append("|---|---|---|---|---|---|---|")
    for row in result["rows"]:
        for c in row["comparisons"]:
            verdict = "significant" if c["significant"] else "not significant"
            lines.append(f"| {row['config']} | {c['against']} | {c['metric']} | {c['better']} / {c['worse']} / {c['same']} | "
                         f"{c['mean_diff']:+.3f} | [{c['low']:+.3f}, {c['high']:+.3f}] | {verdict} |")
    return "\n".join(lines)


def store(conn, result: dict, source: str) -> list[int]:
    """One eval_runs row per configuration of an ablation result."""
    from psycopg.types.json import Jsonb

    from .queries import INSERT_EVAL_RUN

    ids = []
    for row in result["rows"]:
        summary = {k: v for k, v in row.items() if k not in ("cases", "comparisons")}
        summary.update({"embedder": result.get("embedder"), "chunking": result.get("chunking")})
        ids.append(conn.execute(INSERT_EVAL_RUN, (result.get("commit", "unknown"), source, result.get("split", "dev"),
                                                  row["config"], row["digest"], Jsonb(summary), Jsonb(row["cases"]),
                                                  Jsonb(row["comparisons"]))).fetchone()["id"])
    return ids
