"""Evaluation runs: a row is a named variant of the shipped spec; each golden case goes through the pipeline the row's spec wires, in one tenant session."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.scoring import KS, answer_metrics, case_metrics, summarize
from rag_serving.search.hits import Filters
from rag_serving.spec import PipelineSpec
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Pipeline, Wiring


@dataclass(frozen=True)
class Row:
    """One configuration of an evaluation: the spec it runs (a variant of the shipped one) and the row it is
    measured against in an ablation (None: the row before it)."""

    name: str
    spec: PipelineSpec
    compare_to: str | None = None
    answer: bool = True  # also generate, check and route, and score the answer

    @property
    def digest(self) -> str:
        return self.spec.digest


@dataclass
class RowRun:
    row: Row
    cases: list[dict]
    latencies_ms: list[float]
    summary: dict = field(default_factory=dict)


def run_case(pipeline: Pipeline, case: GoldenCase, *, answer: bool = True) -> dict:
    """One case as the served pipeline handles it: prepare (rewrite), search and answer in one tenant session.
    Retrieval is scored on the top 10 hits; the answer reads as many as it does in serving (`Answerer.depth`)."""
    tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
    filters = Filters(documents=case.documents) if case.documents else None
    depth = pipeline.answerer.depth(case.question)
    query, rewrite = pipeline.answerer.prepare(case.question, case.history)
    with pipeline.database.session(tenant) as session:
        hits = [] if rewrite and rewrite.clarify else pipeline.answerer.retrieve(
            session, case.question, query, filters=filters, history=case.history, k=max(KS))
        row = {"id": case.id, "split": case.split, "tags": case.tags, "expect": case.expect, "hits": len(hits),
               "top": [f"{h.source_path}#page={h.page_start}" for h in hits[:3]]}
        if rewrite:
            row["rewrite"] = {"question": rewrite.question, "clarify": rewrite.clarify, "error": rewrite.error}
        if case.answerable:
            row.update(case_metrics(hits, case))
        if answer:
            response = pipeline.answerer.respond(session, case.question, query, hits[:depth], history=case.history,
                                                 rewrite=rewrite)
            row.update(answer_metrics(response, case))
    return row


def run_row(wiring: Wiring, cases: Sequence[GoldenCase], row: Row, *, progress=None) -> RowRun:
    pipeline = wiring.pipeline(row.spec)
    rows, latencies = [], []
    for i, case in enumerate(cases, start=1):
        started = time.perf_counter()
        rows.append(run_case(pipeline, case, answer=row.answer))
        latencies.append((time.perf_counter() - started) * 1000)
        if progress is not None:
            progress(row, i, len(cases))
    run = RowRun(row, rows, latencies)
    run.summary = {**summarize(rows), "p50_ms": round(float(np.percentile(latencies, 50)), 1) if latencies else None,
                   "p95_ms": round(float(np.percentile(latencies, 95)), 1) if latencies else None}
    return run
