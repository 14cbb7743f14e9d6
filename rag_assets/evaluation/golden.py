"""The golden set: YAML cases with tenant, question, history, graded (document, physical page) relevance and expectations; and the check that their documents are live."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from rag_assets.evaluation.queries import sql_text
from rag_serving.store.sessions import Database, Tenant


class GoldenTenant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    organization: str
    rooftops: list[str]


class RelevantPage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    document: str  # source path relative to the rooftop folder
    page: int = Field(ge=1)  # physical, 1-based
    grade: int = Field(ge=1, le=2)


class GoldenCase(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    tenant: GoldenTenant
    question: str
    history: list[str] = []
    relevant: list[RelevantPage] = []
    answer_must_include: list[str] = []
    answer_elsewhere: list[str] = []
    expect: Literal["answer", "abstain", "clarify"] = "answer"
    tags: list[str] = []
    split: Literal["dev", "heldout"] = "dev"
    documents: list[str] = []  # restrict retrieval to these source paths (public sets ask within one document)

    @property
    def answerable(self) -> bool:
        return self.expect == "answer"


class GoldenError(ValueError):
    pass


def load_golden(folder: Path, split: str = "dev") -> list[GoldenCase]:
    """Every case in folder/*.yaml of the split ("dev", "heldout" or "all"); errors name the file and case."""
    cases: list[GoldenCase] = []
    for path in sorted(Path(folder).glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(raw, list):
            raise GoldenError(f"{path}: expected a YAML list of cases")
        for i, item in enumerate(raw):
            try:
                cases.append(GoldenCase.model_validate(item))
            except Exception as exc:
                ident = item.get("id", f"#{i}") if isinstance(item, dict) else f"#{i}"
                raise GoldenError(f"{path}: case {ident}: {exc}") from exc
    ids = [c.id for c in cases]
    if len(ids) != len(set(ids)):
        raise GoldenError(f"{folder}: duplicate case ids {sorted({i for i in ids if ids.count(i) > 1})}")
    return [c for c in cases if split == "all" or c.split == split]


def require_live(database: Database, cases: list[GoldenCase]) -> None:
    """Every document a case names as relevant is live for the case's tenant: scored against a corpus that was never
    ingested, every question would be an abstention and the run a row of zeros."""
    wanted: dict[Tenant, set[str]] = {}
    for case in cases:
        tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
        wanted.setdefault(tenant, set()).update(r.document for r in case.relevant)
    missing = []
    for tenant, documents in wanted.items():
        with database.session(tenant) as session:
            live = {row["source_path"] for row in session.execute(sql_text("live_sources")).fetchall()}
        missing += [f"{tenant.organization_id}/{','.join(tenant.rooftop_ids)} {d}" for d in sorted(documents - live)]
    if missing:
        shown = "; ".join(missing[:5]) + (f"; and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise GoldenError(f"{len(missing)} document(s) the golden cases name are not live: {shown}. Ingest them first "
                          "(`rag demo` ingests the sample corpus; `rag ingest PATH --org ORG --rooftop ROOFTOP` yours)")
