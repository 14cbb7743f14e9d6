"""Ablation: configurations that add one component at a time, compared per question with paired bootstrap intervals."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
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


FULL = "full pipeline as configured"
SHIPPED = {"+ BM25 hybrid (RRF)", "+ learned reranker (50 candidates)", FULL}


def ablation_configs(k: int = 5, candidates: int = 50, threshold: float = DEFAULT_ANSWER_THRESHOLD, *,
                     answer: bool = True, synonyms: bool = True, helper: bool = False,
                     full: EvalConfig | None = None) -> list[EvalConfig]:
    """Naive RAG first (dense, top k, every draft shown), then one component per row, all at the same k and with the
    same generator. Each row names the row it is measured against: alternatives (late interaction vs the learned
    reranker, MMR, each expansion) are measured against the pipeline without them, not stacked on each other.
    answer=False scores retrieval only (public sets); helper=True adds the rows that need a generative model
    (multi-query, HyDE, rewriting); full is the shipped pipeline, measured against naive."""
    hybrid = "+ BM25 hybrid (RRF)"
    learned = "+ learned reranker (50 candidates)"
    base = {"k": k, "candidates": candidates, "abstain": False, "answer": answer, "mode": "hybrid"}
    rows = [
        EvalConfig(name=f"naive: dense top-{k}", **{**base, "mode": "dense"}),
        EvalConfig(name=hybrid, **base),
        EvalConfig(name="+ late interaction MaxSim (100 candidates)", rerank="maxsim", depth=100, compare_to=hybrid,
                   **base),
        EvalConfig(name=learned, rerank="learned", depth=50, compare_to=hybrid, **base),
        EvalConfig(name="learned + MMR λ 0.7", rerank="learned", mmr=0.7, compare_to=learned, **base),
    ]
    if synonyms:
        rows.append(EvalConfig(name="learned + synonyms (YAML)", rerank="learned", expand=("synonyms",),
                               compare_to=learned, **base))
    if helper:
        rows += [EvalConfig(name="learned + multi-query", rerank="learned", expand=("multi-query",),
                            compare_to=learned, **base),
                 EvalConfig(name="learned + HyDE", rerank="learned", expand=("hyde",), compare_to=learned, **base),
                 EvalConfig(name="learned + query rewriting", rerank="learned", rewrite=True, compare_to=learned,
                            **base)]
    if answer:
        rows += [EvalConfig(name="learned + parent sections", rerank="learned", parents=True, compare_to=learned,
                            **base),
                 EvalConfig(name=f"learned + grounding check, confidence routing ≥ {threshold:g}", rerank="learned",
                            compare_to=learned, **{**base, "abstain": True}, threshold=threshold)]
    if full is not None:
        rows.append(dataclasses.replace(full, compare_to=rows[0].name))
    return rows


def shipped_config(settings, *, k: int, candidates: int, synonyms: bool, helper: bool) -> EvalConfig:
    """The pipeline the settings describe, as one configuration (the ablation's last row)."""
    expand = tuple(e for e in settings.expand if (e == "synonyms" and synonyms) or (e != "synonyms" and helper))
    return EvalConfig(name=FULL, mode="hybrid", k=k, candidates=candidates, abstain=True,
                      threshold=settings.answer_threshold, rerank=settings.reranker, depth=settings.rerank_depth,
                      expand=expand, rewrite=settings.rewrite and helper, parents=settings.parents,
                      mmr=settings.mmr_lambda)


def golden_components(settings, generator: Generator | None) -> Components:
    """Shared parts for a golden-set ablation: the sample corpus's synonyms, the helper model when configured."""
    from importlib import resources

    from rag_serving.answering import helper_from_settings
    from rag_serving.expansion import Synonyms

    synonyms = Synonyms.load(settings.synonyms or Path(str(resources.files("rag_assets") / "sample_synonyms.yaml")))
    helper = helper_from_settings(settings, generator) if generator is not None else None
    return Components(synonyms=synonyms, helper=helper)


def golden_ablation_configs(settings, components: Components, *, k: int, candidates: int,
                            threshold: float) -> list[EvalConfig]:
    helper = components.helper is not None
    full = shipped_config(settings, k=k, candidates=candidates, synonyms=True, helper=helper)
    return ablation_configs(k, candidates, threshold, helper=helper, full=dataclasses.replace(full, threshold=threshold))


def shipped_rows(configs: Sequence[EvalConfig]) -> list[EvalConfig]:
    """The rows on the way to the shipped pipeline (naive, hybrid, the reranker, routing, the full pipeline);
    each is re-pointed at the row before it, since the alternatives in between are left out."""
    keep = [c for c in configs if c.mode == "dense" or c.name in SHIPPED
            or c.name.startswith("learned + grounding check")]
    return [keep[0], *(dataclasses.replace(c, compare_to=keep[i].name) if c.name != FULL else c
                       for i, c in enumerate(keep[1:]))]


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
    by_name = {run.config.name: run for run in runs}
    for i, run in enumerate(runs):
        row = {"config": run.config.name, "digest": run.config.digest(), **run.summary, "comparisons": [], "cases": run.rows}
        against_runs = [by_name[run.config.compare_to]] if run.config.compare_to else [runs[i - 1]] if i else []
        if i and runs[0] not in against_runs:
            against_runs.append(runs[0])
        for against in against_runs:
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
