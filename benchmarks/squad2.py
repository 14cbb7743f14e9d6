"""SQuAD 2.0 subset through the harness: paragraphs ingested as documents, retrieval scored on answerable questions."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from dagster import DagsterInstance
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import EvalConfig, run_case, searcher_for
from rag_assets.public_sets import load_squad2
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_assets.runner import Target, ingest_targets
from rag_assets.provenance import git_commit
from rag_serving import db
from rag_serving.database import APP_ROLE, Database
from rag_serving.embedders import get_embedder
from rag_serving.retrieval import Retriever

from .common import BENCH_DATA, bench_database


def main() -> None:
    documents, cases = load_squad2(BENCH_DATA / "squad2-subset" / "dev-v2.0.subset.json")
    url = bench_database("bench_squad2", fresh=False)
    with db.connect(url) as conn:
        live = conn.execute("SELECT count(*) AS n FROM documents WHERE status = 'live'").fetchone()["n"]
    if live < len(documents):
        folder = Path(tempfile.mkdtemp(prefix="rag-squad-"))
        for d in documents:
            (folder / d["source_path"]).write_text(d["text"], encoding="utf-8")
        resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(), "chunker": ChunkerResource(),
                     "ocr": OcrResource(enabled=False), "embedder": EmbedderResource(name="minilm")}
        targets = [Target(folder / d["source_path"], "bench", "squad2", d["source_path"]) for d in documents]
        ingest_targets(targets, url=url, resources=resources, instance=DagsterInstance.ephemeral())
    database = Database(make_conninfo(url, user=APP_ROLE), max_size=1)
    retriever = Retriever(database, get_embedder("minilm"))
    answerable = [c for c in cases if c.answerable]
    report = {"commit": git_commit(), "paragraphs": len(documents), "questions": len(cases),
              "answerable": len(answerable), "impossible": len(cases) - len(answerable), "runs": {}}
    for mode in ("dense", "sparse", "hybrid"):
        config = EvalConfig(name=mode, mode=mode)
        searcher = searcher_for(retriever, config)
        rows = [run_case(searcher, c, config) for c in answerable]
        report["runs"][mode] = {m: round(float(np.mean([r[m] for r in rows])), 3) for m in ("hit@1", "hit@5", "hit@10", "mrr@10")}
    database.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
