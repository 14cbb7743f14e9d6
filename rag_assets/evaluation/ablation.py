"""Ablation: rows that add one component at a time, each a variant of the shipped spec, compared per question with paired bootstrap intervals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.runs import Row, RowRun, run_row
from rag_assets.evaluation.scoring import bootstrap_interval
from rag_serving.spec import PipelineSpec
from rag_serving.wiring import Wiring

NAIVE = "naive: dense top-{k}"
HYBRID = "+ BM25 hybrid (RRF)"
LEARNED = "+ learned reranker (50 candidates)"
ROUTING = "learned + grounding check, {answerability} routing ≥ {threshold:g}"
# The hand-set evidence score's threshold (chosen by `rag sweep` on golden dev when it was the shipped confidence).
FORMULA_THRESHOLD = 0.8
FULL = "full pipeline as configured"
EDITIONS = "learned + current editions first"
CONTENTS = "learned + contents pages last"
SELECTION = "learned routing + learned answer selection"
GENERATIVE = "learned routing + generative answer ({model}, OpenAI-compatible)"
# Per-question paired metrics and whether higher is better.
PAIRED_METRICS = {"ndcg@10": True, "hit@10": True, "mrr@10": True, "false_answer": False, "over_abstention": False}


def naive(shipped: PipelineSpec) -> PipelineSpec:
    """Naive RAG as a variant of the shipped spec: dense top k, every draft shown, nothing else."""
    return shipped.replace(mode="dense", reranker="none", expand=(), synonyms=None, mmr_lambda=None, editions=False,
                           contents_last=False,
                           selection="formula",
                           rewrite=False,
                           parents=False, routing=False, web_search="off", searxng_url=None)


def ablation_rows(shipped: PipelineSpec, *, answer: bool = True, synonyms: str | None = None,
                  helper: bool = False, llm: str | None = None, llm_model: str | None = None) -> list[Row]:
    """Naive RAG first, then one component per row, then the shipped pipeline (measured against naive). Every row is
    a variant of `shipped`: the same k, candidates, BM25 parameters and generator. Alternatives (late interaction vs
    the learned reranker, MMR, each expansion) are measured against the pipeline without them, not stacked.
    answer=False scores retrieval only (public sets); synonyms is a synonyms file for the synonyms row; helper=True
    adds the rows that need a generative helper model (multi-query, HyDE, rewriting); llm, an OpenAI-compatible
    endpoint, adds a row where that model writes the answer behind the same routing and grounding check."""
    base = naive(shipped)
    hybrid = base.replace(mode="hybrid")
    learned = hybrid.replace(reranker="learned", rerank_depth=50)
    rows = [
        Row(NAIVE.format(k=shipped.k), base, answer=answer),
        Row(HYBRID, hybrid, answer=answer),
        Row("+ late interaction MaxSim (100 candidates)", hybrid.replace(reranker="maxsim", rerank_depth=100),
            compare_to=HYBRID, answer=answer),
        Row(LEARNED, learned, compare_to=HYBRID, answer=answer),
        Row("learned + MMR λ 0.7", learned.replace(mmr_lambda=0.7), compare_to=LEARNED, answer=answer),
        Row(EDITIONS, learned.replace(editions=True), compare_to=LEARNED, answer=answer),
        Row(CONTENTS, learned.replace(contents_last=True), compare_to=LEARNED, answer=answer),
    ]
    if synonyms:
        rows.append(Row("learned + synonyms (YAML)", learned.replace(expand=("synonyms",), synonyms=synonyms),
                        compare_to=LEARNED, answer=answer))
    if helper:
        rows += [Row("learned + multi-query", learned.replace(expand=("multi-query",)), compare_to=LEARNED,
                     answer=answer),
                 Row("learned + HyDE", learned.replace(expand=("hyde",)), compare_to=LEARNED, answer=answer),
                 Row("learned + query rewriting", learned.replace(rewrite=True), compare_to=LEARNED, answer=answer)]
    if answer:
        rows += [Row("learned + parent sections", learned.replace(parents=True), compare_to=LEARNED),
                 Row(routing_row(shipped), learned.replace(routing=True), compare_to=LEARNED)]
        if shipped.answerability == "learned":
            formula = learned.replace(routing=True, answerability="formula", threshold=FORMULA_THRESHOLD)
            rows.append(Row(routing_row(formula), formula, compare_to=LEARNED))
        if shipped.generator == "extractive":
            rows.append(Row(SELECTION, learned.replace(routing=True, selection="learned"),
                            compare_to=routing_row(learned.replace(routing=True))))
        if llm:
            rows.append(Row(GENERATIVE.format(model=llm_model or "local"),
                            learned.replace(routing=True, generator="openai", generator_url=llm, model=llm_model),
                            compare_to=routing_row(learned.replace(routing=True))))
    rows.append(Row(FULL, shipped, compare_to=rows[0].name, answer=answer))
    return rows


def routing_row(spec: PipelineSpec) -> str:
    return ROUTING.format(answerability=spec.answerability, threshold=spec.threshold)


def shipped_rows(rows: Sequence[Row]) -> list[Row]:
    """The rows on the way to the shipped pipeline (naive, hybrid, the reranker, routing, the full pipeline); each
    is re-pointed at the row before it, since the alternatives in between are left out."""
    full = next(r for r in rows if r.name == FULL)
    path = [rows[0].name, HYBRID, LEARNED, routing_row(full.spec), *([SELECTION] if full.spec.selection == "learned"
                                                                      else []), FULL]
    keep = [r for r in rows if r.name in path]
    return [keep[0], *(Row(r.name, r.spec, keep[i].name, r.answer) if r.name != FULL else r
                       for i, r in enumerate(keep[1:]))]


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


def _paired(new: RowRun, old: RowRun, metric: str) -> list[tuple[float, float]]:
    """Per-question values of metric in both runs, on the questions the metric is defined for."""
    if metric == "false_answer":
        return [(a["shown"], b["shown"]) for a, b in zip(new.cases, old.cases) if a["expect"] == "abstain"]
    if metric == "over_abstention":
        return [(a["abstained"], b["abstained"]) for a, b in zip(new.cases, old.cases) if a["expect"] == "answer"]
    return [(a[metric], b[metric]) for a, b in zip(new.cases, old.cases) if a["expect"] == "answer"]


def compare(new: RowRun, old: RowRun, metric: str) -> Comparison:
    """Per-question differences (new − old); 95% percentile bootstrap of their mean (fixed seed).
    better/worse follow the metric's direction: fewer false answers is better."""
    diff = np.array([float(a) - float(b) for a, b in _paired(new, old, metric)], dtype=float)
    low, high = bootstrap_interval(diff)
    up, down = int((diff > 0).sum()), int((diff < 0).sum())
    better, worse = (up, down) if PAIRED_METRICS[metric] else (down, up)
    return Comparison(metric, old.row.name, better, worse, int((diff == 0).sum()),
                      float(diff.mean()) if len(diff) else 0.0, low, high)


def table(runs: Sequence[RowRun]) -> dict:
    """The ablation result: per row its summary, spec and comparisons against its named row and naive."""
    out = []
    by_name = {run.row.name: run for run in runs}
    for i, run in enumerate(runs):
        row = {"config": run.row.name, "digest": run.row.digest, "spec": run.row.spec.as_dict(),
               "summary_line": run.row.spec.summary(), **run.summary, "comparisons": [], "cases": run.cases}
        against = [by_name[run.row.compare_to]] if run.row.compare_to else [runs[i - 1]] if i else []
        if i and runs[0] not in against:
            against.append(runs[0])
        for old in against:
            for metric in PAIRED_METRICS:
                if metric in ("false_answer", "over_abstention") and not run.row.answer:
                    continue
                c = compare(run, old, metric)
                row["comparisons"].append({**c.__dict__, "significant": c.significant})
        out.append(row)
    return {"rows": out, "cases": len(runs[0].cases) if runs else 0}


def ablate(wiring: Wiring, cases: Sequence[GoldenCase], rows: Sequence[Row], *, progress=None) -> dict:
    return table([run_row(wiring, cases, row, progress=progress) for row in rows])
