"""Ablation: configurations that add one component at a time, compared per question with paired bootstrap intervals."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from rag_serving.config import DEFAULT_ANSWER_THRESHOLD
from rag_serving.answering import Answerer
from rag_serving.generators import ExtractiveGenerator, Generator
from rag_serving.parents import ParentPlan
from rag_serving.retrieval import Retriever

from .evaluation import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, Components, EvalConfig, run_case, searcher_for, summarize
from .golden import GoldenCase


def ablation_configs(k: int = 5, candidates: int = 50,
                     threshold: float = DEFAULT_ANSWER_THRESHOLD) -> list[EvalConfig]:
    """Naive RAG first (dense, top k, every draft shown); each later row adds one component, all at the same k and
    with the same generator. Later issues append their stages."""
    return [
        EvalConfig(name=f"naive: dense top-{k}", mode="dense", k=k, candidates=candidates, abstain=False),
        EvalConfig(name="+ BM25 hybrid (RRF)", mode="hybrid", k=k, candidates=candidates, abstain=False),
        EvalConfig(name=f"+ grounding check, confidence routing ≥ {threshold:g}", mode="hybrid", k=k,
                   candidates=candidates, abstain=True, threshold=threshold),
    ]


ABLATION = ablation_configs()
# Per-question paired metrics and whether higher is better.
PAIRED_METRICS = {"ndcg@10": True, "hit@10": True, "mrr@10": True, "false_answer": False, "over_abstention": False}


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


def answerer_for(retriever: Retriever, config: EvalConfig, generator: Generator | None = None) -> Answerer | None:
    if not config.answer:
        return None
    generator = generator or ExtractiveGenerator(retriever.embedder)
    return Answerer(retriever, generator, retriever.embedder, threshold=config.threshold, context_chunks=config.k,
                    mode=config.mode, abstain=config.abstain, parent_plan=ParentPlan() if config.parents else None)


def run_config(retriever: Retriever, cases: Sequence[GoldenCase], config: EvalConfig,
               generator: Generator | None = None, components: Components | None = None) -> ConfigRun:
    rows, latencies = [], []
    components = components or Components()
    answerer = answerer_for(retriever, config, generator)
    searcher = searcher_for(retriever, config, components)
    rewriter = components.rewriter() if config.rewrite else None
    for case in cases:
        started = time.perf_counter()
        rows.append(run_case(searcher, case, config, answerer, rewriter))
        latencies.append((time.perf_counter() - started) * 1000)
    run = ConfigRun(config, rows, latencies)
    run.summary = {**summarize(rows), "p50_ms": round(float(np.percentile(latencies, 50)), 1),
                   "p95_ms": round(float(np.percentile(latencies, 95)), 1)}
    return run


def _paired(new: ConfigRun, old: ConfigRun, metric: str) -> list[tuple[float, float]]:
    """Per-question values of metric in both runs, on the questions the metric is defined for."""
    if metric == "false_answer":
        return [(a["shown"], b["shown"]) for a, b in zip(new.rows, old.rows) if a["expect"] == "abstain"]
    if metric == "over_abstention":
        return [(a["abstained"], b["abstained"]) for a, b in zip(new.rows, old.rows) if a["expect"] == "answer"]
    return [(a[metric], b[metric]) for a, b in zip(new.rows, old.rows) if a["expect"] == "answer"]


def compare(new: ConfigRun, old: ConfigRun, metric: str) -> Comparison:
    """Per-question differences (new − old); 95% percentile bootstrap of their mean (fixed seed).
    better/worse follow the metric's direction: fewer false answers is better."""
    diff = np.array([float(a) - float(b) for a, b in _paired(new, old, metric)], dtype=float)
    if len(diff) < 2 or np.all(diff == diff[0]):
        low = high = float(diff.mean()) if len(diff) else 0.0
    else:
        result = stats.bootstrap((diff,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=0.95,
                                 method="percentile", rng=np.random.default_rng(BOOTSTRAP_SEED))
        low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    up, down = int((diff > 0).sum()), int((diff < 0).sum())
    better, worse = (up, down) if PAIRED_METRICS[metric] else (down, up)
    return Comparison(metric, old.config.name, better, worse, int((diff == 0).sum()),
                      float(diff.mean()) if len(diff) else 0.0, low, high)


def ablate(retriever: Retriever, cases: Sequence[GoldenCase], configs: Sequence[EvalConfig] = ABLATION,
           generator: Generator | None = None, components: Components | None = None) -> dict:
    components = components or Components()
    runs = [run_config(retriever, cases, c, generator, components) for c in configs]
    table = []
    for i, run in enumerate(runs):
        row = {"config": run.config.name, "digest": run.config.digest(), **run.summary, "comparisons": [], "cases": run.rows}
        for against in ([runs[i - 1]] if i else []) + ([runs[0]] if i > 1 else []):
            for metric in PAIRED_METRICS:
                if metric in ("false_answer", "over_abstention") and not run.config.answer:
                    continue
                c = compare(run, against, metric)
                row["comparisons"].append({**c.__dict__, "significant": c.significant})
        table.append(row)
    return {"rows": table, "cases": len(cases)}


def rate_cell(row: dict, name: str) -> str:
    """A rate with its 95% interval, e.g. "0.077 [0.000, 0.231]"."""
    value, ci = row.get(name), row.get(f"{name}_ci")
    if value is None:
        return "n/a"
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


def markdown(result: dict) -> str:
    lines = [
        "| configuration | hit@10 | MRR@10 | NDCG@10 | false-answer rate | over-abstention rate | correct | clarified | "
        "p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        lines.append(f"| {row['config']} | {row['hit@10']:.3f} | {row['mrr@10']:.3f} | {row['ndcg@10']:.3f} | "
                     f"{rate_cell(row, 'false_answer_rate')} | {rate_cell(row, 'over_abstention_rate')} | "
                     f"{rate_cell(row, 'correct_rate')} | {rate_cell(row, 'clarified_rate')} | {row['p50_ms']} | "
                     f"{row['p95_ms']} |")
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
