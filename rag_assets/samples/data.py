"""Reads the document data files (YAML, Markdown, text) that hold the sample corpus content."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import yaml

from rag_assets.samples.blocks import Block

# Every data file lives in one folder, registered as package data in pyproject.toml.
_DOCUMENTS = resources.files(__package__).joinpath("documents")

# Keys of a PDF data file that are passed straight to the PDF builder.
PDF_OPTIONS = (
    "title", "author", "subject", "header_left", "header_right",
    "outline", "chapter_new_page", "front_matter_pages",
)


def read_text(name: str) -> str:
    return _DOCUMENTS.joinpath(name).read_text(encoding="utf-8")


@functools.cache
def _read_yaml(name: str) -> Any:
    # Cached because FACTS and generate() both read the larger files; callers must not mutate.
    return yaml.safe_load(read_text(name))


def index() -> list[dict[str, Any]]:
    """The corpus manifest: output path, source file, edition and sidecar of each document, in build order."""
    return _read_yaml("index.yaml")


def _fields(doc: dict[str, Any], edition: int | None) -> dict[str, Any]:
    """Placeholder values of one edition of a templated document (none for a plain document)."""
    if edition is None:
        return {}
    return {"year": str(edition), **doc["editions"][edition]}


def _fill(value: Any, fields: dict[str, Any]) -> Any:
    """Fill str.format placeholders in every string of value; plain documents are left untouched."""
    if not fields:
        return value
    if isinstance(value, str):
        return value.format(**fields)
    if isinstance(value, list):
        return [_fill(v, fields) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, fields) for k, v in value.items()}
    return value


def _block(item: str | dict[str, Any], fields: dict[str, Any]) -> Block:
    """One data-file block as the tuple the renderer takes."""
    if isinstance(item, str):  # "break", "toc"
        return (item,)
    ((kind, value),) = ((k, v) for k, v in item.items() if k != "only")
    value = _fill(value, fields)
    if kind in ("h1", "h2"):  # "2.5 Four-Day Week Pilot": number, then title
        num, title = value.split(" ", 1)
        return (kind, num, title)
    if kind == "table":
        # rows_from names an edition field, for tables whose rows differ between editions.
        rows = fields[value["rows_from"]] if "rows_from" in value else value["rows"]
        return ("table", value["header"], rows, value["widths"])
    return (kind, value)


def blocks(items: list[str | dict[str, Any]], doc: dict[str, Any], edition: int | None) -> list[Block]:
    """Blocks of one edition: those marked ``only: <year>`` appear in that edition alone."""
    fields = _fields(doc, edition)
    return [_block(item, fields) for item in items
            if not isinstance(item, dict) or item.get("only", edition) == edition]


def pdf_document(source: str, edition: int | None = None) -> dict[str, Any]:
    """A PDF's options and content: "blocks" for a flowing document, "pages" for the memo."""
    doc = _read_yaml(source)
    fields = _fields(doc, edition)
    out = {key: _fill(doc[key], fields) for key in PDF_OPTIONS if key in doc}
    if "pages" in doc:
        out["pages"] = [
            {"blocks": blocks(page["blocks"], doc, edition)} if "blocks" in page else page
            for page in doc["pages"]
        ]
    else:
        out["blocks"] = blocks(doc["blocks"], doc, edition)
    return out


def _table_facts(sources: dict[str, list[str]]) -> dict[str, str]:
    """First column -> second column of the tables named by the header of their first column."""
    facts: dict[str, str] = {}
    for source, first_headers in sources.items():
        tables = {item["table"]["header"][0]: item["table"]["rows"]
                  for item in _read_yaml(source)["blocks"] if isinstance(item, dict) and "table" in item}
        for header in first_headers:
            facts.update((row[0], row[1]) for row in tables[header])
    return facts


def documents() -> dict[str, dict[str, str]]:
    """Sidecar metadata (title, kind, published_on) per document path."""
    return {entry["path"]: dict(entry["sidecar"]) for entry in index()}


def facts() -> dict[str, dict[str, str]]:
    """Facts per document path, for tests and golden questions."""
    listed = _read_yaml("facts.yaml")
    out: dict[str, dict[str, str]] = {}
    for entry in index():
        path, edition = entry["path"], entry.get("edition")
        if edition is not None:  # a templated document keeps its facts next to its editions
            doc = _read_yaml(entry["source"])
            out[path] = _fill(doc["facts"], _fields(doc, edition))
            continue
        out[path] = {}
        for key, value in listed[path].items():
            if key == "table_facts":  # facts that repeat a document's tables, expanded in place
                out[path].update(_table_facts(value))
            else:
                out[path][key] = value
    return out
