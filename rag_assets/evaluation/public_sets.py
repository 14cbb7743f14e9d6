"""Loaders for public evaluation sets in ../shared/bench: BEIR folders, MMLongBench-Doc and SQuAD 2.0, as golden cases."""

from __future__ import annotations

import ast
import csv
import json
from collections import defaultdict
from pathlib import Path

from rag_assets.evaluation.golden import GoldenCase

VISUAL_ONLY = {"chart", "figure"}


def load_beir(folder: Path, split: str = "test") -> tuple[dict[str, dict], dict[str, str], dict[str, dict[str, int]]]:
    """(corpus by id, queries by id, graded qrels by query id) from a BEIR folder."""
    folder = Path(folder)
    with open(folder / "corpus.jsonl", encoding="utf-8") as f:
        corpus = {d["_id"]: d for d in map(json.loads, f)}
    with open(folder / "queries.jsonl", encoding="utf-8") as f:
        queries = {q["_id"]: q["text"] for q in map(json.loads, f)}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    with open(folder / "qrels" / f"{split}.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            qrels[row["query-id"]][row["corpus-id"]] = int(row["score"])
    return corpus, queries, dict(qrels)


def _sources(raw: str) -> list[str]:
    names = ast.literal_eval(raw) if raw else []
    out = []
    for name in names:
        low = name.lower()
        out.append("text" if "text" in low else "table" if "table" in low else "layout" if "layout" in low
                   else "chart" if "chart" in low else "figure" if "figure" in low else low)
    return out


def load_mmlongbench(folder: Path, organization: str = "bench", rooftop: str = "mmlongbench") -> list[GoldenCase]:
    """MMLongBench-Doc questions, each scoped to its PDF; evidence pages are physical and 1-based.

    "Not answerable" becomes expect: abstain. Questions whose evidence is only a chart or a figure
    are tagged `visual-only` so reports can keep them apart from text retrieval.
    """
    samples = json.loads((Path(folder) / "samples.json").read_text(encoding="utf-8"))
    cases = []
    for i, s in enumerate(samples):
        listed = ast.literal_eval(s["evidence_pages"]) if s["evidence_pages"] else []
        # A few samples list page 0, which a 1-based index cannot have; drop it and say so in a tag.
        pages = [p for p in listed if p >= 1]
        sources = _sources(s["evidence_sources"])
        abstain = str(s["answer"]).strip().lower() == "not answerable"
        tags = ["mmlongbench", *sorted(set(sources))]
        if sources and set(sources) <= VISUAL_ONLY:
            tags.append("visual-only")
        if len(pages) < len(listed):
            tags.append("invalid-evidence-page")
        cases.append(GoldenCase(
            id=f"mmlb-{i:03d}",
            tenant={"organization": organization, "rooftops": [rooftop]},
            question=s["question"],
            relevant=[] if abstain else [{"document": s["doc_id"], "page": p, "grade": 2} for p in pages],
            answer_must_include=[] if abstain else [str(s["answer"])],
            expect="abstain" if abstain else "answer",
            tags=tags + (["no-answer"] if abstain else []),
            documents=[s["doc_id"]],
        ))
    return cases


def load_squad2(path: Path, organization: str = "bench", rooftop: str = "squad2") -> tuple[list[dict], list[GoldenCase]]:
    """(paragraph documents, question cases): `is_impossible` becomes expect: abstain.

    Each paragraph is one document named `<title>-<n>.txt`; a question's relevant page is its paragraph.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))["data"]
    documents, cases = [], []
    for article in data:
        for n, paragraph in enumerate(article["paragraphs"]):
            name = f"{article['title']}-{n:03d}.txt"
            documents.append({"source_path": name, "text": paragraph["context"]})
            for qa in paragraph["qas"]:
                impossible = bool(qa.get("is_impossible"))
                answers = sorted({a["text"] for a in qa.get("answers", [])})
                cases.append(GoldenCase(
                    id=f"squad-{qa['id']}",
                    tenant={"organization": organization, "rooftops": [rooftop]},
                    question=qa["question"],
                    relevant=[] if impossible else [{"document": name, "page": 1, "grade": 2}],
                    answer_must_include=[] if impossible else answers[:1],
                    expect="abstain" if impossible else "answer",
                    tags=["squad2"] + (["no-answer"] if impossible else []),
                ))
    return documents, cases


def beir_cases(folder: Path, split: str, organization: str = "bench", rooftop: str = "scifact") -> list[GoldenCase]:
    """A BEIR split's queries as cases: each judged document is a one-page document named by its corpus id."""
    _, queries, qrels = load_beir(folder, split)
    return [GoldenCase(
        id=f"{Path(folder).name}-{split}-{qid}",
        tenant={"organization": organization, "rooftops": [rooftop]},
        question=queries[qid],
        relevant=[{"document": doc, "page": 1, "grade": min(grade, 2)} for doc, grade in sorted(rel.items()) if grade > 0],
        tags=[Path(folder).name, split],
    ) for qid, rel in sorted(qrels.items())]
