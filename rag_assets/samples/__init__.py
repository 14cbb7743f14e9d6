"""Generates the deterministic sample corpus the demo, golden set and tests use."""

from __future__ import annotations

import argparse
import datetime as _dt
import pathlib
from collections.abc import Sequence
from typing import Any

import yaml
from reportlab import rl_config

from rag_assets.samples import data
from rag_assets.samples.memo import build_memo
from rag_assets.samples.pdf import build_pdf

__all__ = ["DOCUMENTS", "FACTS", "INJECTION_SENTENCE", "SYNONYMS", "generate", "main"]

# Sidecar metadata per document (relative POSIX path -> title/kind/published_on).
DOCUMENTS: dict[str, dict[str, str]] = data.documents()

# Facts that differ between documents (used by tests and golden questions).
FACTS: dict[str, dict[str, str]] = data.facts()

# Synonym and acronym groups for the sample corpus's vocabulary (the synonyms expansion's ablation row).
SYNONYMS = pathlib.Path(__file__).with_name("synonyms.yaml")

# The supplier FAQ hides this sentence inside an answer, to test prompt-injection handling.
INJECTION_SENTENCE: str = FACTS["acme/hq/supplier-faq.md"]["prompt_injection_sentence"]


def _write_sidecar(path: pathlib.Path, title: str, kind: str, published_on: str) -> None:
    """Write ``<file>.meta.yaml`` next to ``path`` (keys in fixed order)."""
    meta = {"title": title, "kind": kind, "published_on": _dt.date.fromisoformat(published_on)}
    text = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    (path.parent / f"{path.name}.meta.yaml").write_text(text, encoding="utf-8", newline="\n")


def _build(path: pathlib.Path, entry: dict[str, Any]) -> None:
    source = entry["source"]
    if not source.endswith(".yaml"):  # Markdown and plain text are copied as they are
        path.write_text(data.read_text(source), encoding="utf-8", newline="\n")
        return
    doc = data.pdf_document(source, entry.get("edition"))
    if "pages" in doc:
        build_memo(path, doc)
    else:
        build_pdf(path, doc["blocks"], **{k: doc[k] for k in data.PDF_OPTIONS if k in doc})


def generate(out_dir: pathlib.Path) -> list[pathlib.Path]:
    """Write the corpus under out_dir and return the document paths (not sidecars), sorted."""
    out_dir = pathlib.Path(out_dir)
    previous = rl_config.invariant
    rl_config.invariant = 1
    try:
        paths: list[pathlib.Path] = []
        for entry in data.index():
            rel = entry["path"]
            path = out_dir.joinpath(*rel.split("/"))
            path.parent.mkdir(parents=True, exist_ok=True)
            _build(path, entry)
            meta = DOCUMENTS[rel]
            _write_sidecar(path, meta["title"], meta["kind"], meta["published_on"])
            paths.append(path)
    finally:
        rl_config.invariant = previous
    return sorted(paths)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rag_assets.samples",
        description="Generate the deterministic sample corpus.",
    )
    parser.add_argument("out_dir", type=pathlib.Path, help="directory to write the corpus into")
    args = parser.parse_args(argv)
    for path in generate(args.out_dir):
        print(path)
    return 0
