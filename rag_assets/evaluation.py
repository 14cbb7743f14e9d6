"""Scores retrieval on golden cases: chunk ranks judged by the graded (document, page) pairs their page spans overlap."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rag_serving.database import Tenant
from rag_serving.retrieval import Filters, Hit, Retriever

from .golden import GoldenCase
from .metrics import dcg

KS = (1, 5, 10)
UNIT_NOTE = (
    "unit: ranked chunks; a chunk counts as relevant with the highest grade of the golden (document, physical page) "
    "pairs its page span overlaps, each page credited once (for NDCG and recall); ideal DCG from the graded pages; "
    "recall counts relevant pages covered; no-answer cases are left out of retrieval averages"
)


@dataclass(frozen=True)
class EvalConfig:
    name: str = "hybrid"
    mode: str = "hybrid"
    sparse: str = "bm25"
    k: int = 10
    candidates: int = 50

    def digest(self, extra: dict | None = None) -> str:
        payload = json.dumps({**asdict(self), **(extra or {})}, sort_keys=True, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


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


def retrieval_question(case: GoldenCase) -> str:
    """Until query rewriting exists, a follow-up is searched with its history prepended."""
    return " ".join([*case.history, case.question]) if case.history else case.question


def run_case(retriever: Retriever, case: GoldenCase, config: EvalConfig) -> dict:
    tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
    filters = Filters(documents=case.documents) if case.documents else None
    hits = retriever.search(tenant, retrieval_question(case), k=max(config.k, max(KS)), mode=config.mode,
                            sparse=config.sparse, filters=filters)
    row = {"id": case.id, "split": case.split, "tags": case.tags, "expect": case.expect, "hits": len(hits),
           "top": [f"{h.source_path}#page={h.page_start}" for h in hits[:3]]}
    if case.answerable:
        row.update(case_metrics(hits, case))
    return row


def summarize(rows: list[dict]) -> dict[str, float]:
    scored = [r for r in rows if r["expect"] != "abstain"]
    keys = [k for k in scored[0] if "@" in k] if scored else []
    summary = {k: round(sum(r[k] for r in scored) / len(scored), 4) for k in keys}
    summary["answerable_cases"] = len(scored)
    summary["no_answer_cases"] = len(rows) - len(scored)
    return summary

