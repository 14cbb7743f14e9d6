"""The text steps for one stored file: validate it, extract pages, find sections, chunk; every failure recorded against its documents."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from tokenizers import Tokenizer

from rag_assets.ingest.chunking import ChunkerConfig, chunk_document, section_token_counts, token_offsets
from rag_assets.ingest.doctext import DocText
from rag_assets.ingest.extraction import (
    PDF,
    ExtractedDocument,
    IngestError,
    extract,
    media_type_for,
    open_pdf,
    read_outline,
    read_text_file,
)
from rag_assets.ingest.queries import sql_text
from rag_assets.ingest.registration import content_id, default_title, sha256_hex
from rag_assets.ingest.sections import Section, detect_sections
from rag_assets.ingest.titles import choose_title

# Progress lines for `rag ingest` (the Dagster run log gets its own).
log = logging.getLogger("rag.ingest")

@dataclass
class StepReport:
    documents: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def add(self, key: str, n: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


def load_file(conn: psycopg.Connection, sha: str) -> bytes:
    row = conn.execute(sql_text("select_file"), (sha,)).fetchone()
    if row is None:
        raise LookupError(f"no stored file with sha256 {sha}; register it first (rag ingest)")
    return bytes(row["content"])


def building_documents(conn: psycopg.Connection, sha: str) -> list[dict]:
    return [d for d in conn.execute(sql_text("select_pending_for_file"), (sha,)).fetchall() if d["status"] == "building"]


def record_error(
    conn: psycopg.Connection,
    doc: dict,
    stage: str,
    error_class: str,
    message: str,
    *,
    severity: str = "error",
    page_index: int | None = None,
    run_id: str | None = None,
) -> None:
    conn.execute(
        sql_text("insert_error"),
        {
            "organization_id": doc["organization_id"],
            "rooftop_id": doc["rooftop_id"],
            "document_id": doc["id"],
            "source_path": doc["source_path"],
            "sha256": doc["sha256"],
            "stage": stage,
            "severity": severity,
            "error_class": error_class,
            "message": message,
            "page_index": page_index,
            "run_id": run_id,
        },
    )


def fail_documents(conn: psycopg.Connection, docs: list[dict], stage: str, exc: BaseException, run_id: str | None) -> None:
    with conn.transaction():
        for doc in docs:
            record_error(conn, doc, stage, type(exc).__name__, str(exc), run_id=run_id)
            conn.execute(sql_text("mark_failed"), (str(exc), doc["id"]))


@contextlib.contextmanager
def guarded(conn: psycopg.Connection, sha: str, stage: str, run_id: str | None = None):
    """Record an unexpected crash of a step against the file's documents before re-raising it."""
    try:
        yield
    except IngestError:
        raise  # already recorded with its own message
    except Exception as exc:
        fail_documents(conn, building_documents(conn, sha), stage, exc, run_id)
        raise


def validate_step(conn: psycopg.Connection, sha: str, run_id: str | None = None) -> StepReport:
    """Open the file (its versions marked building by versions.plan_build); a bad file fails them here, named."""
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    if not docs:
        return report
    data = load_file(conn, sha)
    name = docs[0]["file_name"]
    try:
        if media_type_for(name) == PDF:
            reader = open_pdf(name, data)
            page_count = len(reader.pages)
        else:
            page_count = len(read_text_file(name, data, media_type_for(name)).pages)
    except IngestError as exc:
        fail_documents(conn, docs, exc.stage, exc, run_id)
        raise
    with conn.transaction():
        for doc in docs:
            conn.execute(sql_text("update_page_count"), (page_count, doc["id"]))
    report.add("pages", page_count)
    report.add("bytes", len(data))
    report.seconds = time.perf_counter() - started
    return report


def pdf_title(doc: dict, extracted: ExtractedDocument) -> str:
    """A title the registration made up from the file name gives way to one the PDF shows; a user's never does."""
    default = default_title(Path(doc["file_name"]))
    return choose_title(
        default,
        explicit=None if doc["title"] == default else doc["title"],
        metadata=extracted.pdf_title,
        outline=extracted.outline,
        first_page=extracted.cover or (extracted.pages[0].text if extracted.pages else ""),
        typeset=extracted.typeset,
    )


def pages_step(
    conn: psycopg.Connection,
    sha: str,
    *,
    ocr_enabled: bool,
    ocr_jobs: int = 0,
    run_id: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StepReport:
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    if not docs:
        return report
    data = load_file(conn, sha)
    name = docs[0]["file_name"]
    try:
        extracted = extract(name, data, ocr_enabled=ocr_enabled, ocr_jobs=ocr_jobs, progress=progress)
    except IngestError as exc:
        exc.stage = "extract"
        fail_documents(conn, docs, "extract", exc, run_id)
        raise
    except Exception as exc:  # an extractor crash on one file must not look like success
        fail_documents(conn, docs, "extract", exc, run_id)
        raise
    for doc in docs:
        with conn.transaction():
            conn.execute(sql_text("delete_pages"), (doc["id"],))
            with conn.cursor() as cur:
                cur.executemany(
                    sql_text("insert_page"),
                    [
                        (doc["id"], doc["organization_id"], doc["rooftop_id"], p.index, p.label, p.text,
                         p.has_text_layer, p.ocr, p.unreadable)
                        for p in extracted.pages
                    ],
                )
            for p in extracted.pages:
                if p.unreadable:
                    record_error(conn, doc, "pages", "UnreadablePage",
                                 next((w for w in extracted.warnings if f"page {p.index} " in w), f"{name}: page {p.index} is unreadable"),
                                 severity="warning", page_index=p.index, run_id=run_id)
            if extracted.media_type == PDF:
                title = pdf_title(doc, extracted)
                if title != doc["title"]:
                    conn.execute(sql_text("update_title"), (title, doc["id"]))
    report.warnings = extracted.warnings
    report.add("pages", len(extracted.pages))
    report.add("ocr_pages", sum(p.ocr for p in extracted.pages))
    report.add("unreadable_pages", sum(p.unreadable for p in extracted.pages))
    report.add("respaced_pages", sum(p.respaced for p in extracted.pages))
    report.add("characters", sum(len(p.text) for p in extracted.pages))
    report.seconds = time.perf_counter() - started
    return report


def _doctext(conn: psycopg.Connection, document_id: str) -> DocText:
    rows = conn.execute(sql_text("select_pages"), (document_id,)).fetchall()
    return DocText([r["text"] for r in rows], [r["page_label"] for r in rows])


def _outline_for(conn: psycopg.Connection, doc: dict):
    if doc["media_type"] != PDF:
        return []
    return read_outline(open_pdf(doc["file_name"], load_file(conn, doc["sha256"])))


def section_id(document_id: str, section: Section) -> str:
    return content_id(document_id, "section", section.heading_path, section.start)


def sections_step(conn: psycopg.Connection, sha: str, tokenizer: Tokenizer, run_id: str | None = None) -> StepReport:
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        text = _doctext(conn, doc["id"])
        sections = detect_sections(text, _outline_for(conn, doc), doc["media_type"])
        counts = section_token_counts(token_offsets(tokenizer, text), sections)
        ids = [section_id(doc["id"], s) for s in sections]
        with conn.transaction():
            conn.execute(sql_text("delete_chunks"), (doc["id"],))
            conn.execute(sql_text("delete_sections"), (doc["id"],))
            with conn.cursor() as cur:
                rows = []
                for s, sid, n in zip(sections, ids, counts):
                    begin, finish = text.position(s.start), text.end_position(s.end)
                    rows.append((sid, doc["id"], doc["organization_id"], doc["rooftop_id"],
                                 ids[s.parent] if s.parent is not None else None, s.ordinal, s.level, s.title,
                                 s.heading_path, s.source, begin.page_index, max(finish.page_index, begin.page_index),
                                 begin.offset, finish.offset, n))
                cur.executemany(sql_text("insert_section"), rows)
        report.add("sections", len(sections))
        report.add("top_level_sections", sum(s.parent is None for s in sections))
        report.add("from_outline", sum(s.source == "outline" for s in sections))
    report.seconds = time.perf_counter() - started
    return report


def _load_sections(conn: psycopg.Connection, document_id: str, text: DocText) -> tuple[list[Section], list[str]]:
    rows = conn.execute(sql_text("select_sections"), (document_id,)).fetchall()
    ordinal_of = {r["id"]: r["ordinal"] for r in rows}
    sections = [
        Section(
            ordinal=r["ordinal"],
            title=r["title"],
            level=r["level"],
            heading_path=r["heading_path"],
            parent=ordinal_of.get(r["parent_id"]),
            start=text.global_offset(r["page_start"], r["char_start"]),
            end=text.global_offset(r["page_end"], r["char_end"]),
            source=r["source"],
        )
        for r in rows
    ]
    return sections, [r["id"] for r in rows]


def chunks_step(
    conn: psycopg.Connection, sha: str, tokenizer: Tokenizer, config: ChunkerConfig, run_id: str | None = None
) -> StepReport:
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        text = _doctext(conn, doc["id"])
        sections, section_ids = _load_sections(conn, doc["id"], text)
        spans = chunk_document(text, tokenizer, config, sections)
        with conn.transaction():
            conn.execute(sql_text("delete_chunks"), (doc["id"],))
            with conn.cursor() as cur:
                cur.executemany(
                    sql_text("insert_chunk"),
                    [
                        (content_id(doc["id"], c.start, c.end, sha256_hex(c.body)), doc["organization_id"],
                         doc["rooftop_id"], doc["id"], section_ids[c.section] if c.section is not None else None,
                         c.ordinal, c.page_start, c.page_end, text.page_labels[c.page_start - 1],
                         text.page_labels[c.page_end - 1], doc["kind"], doc["published_on"], c.body, c.token_count,
                         c.char_start, c.char_end, doc["sha256"], sha256_hex(c.body))
                        for c in spans
                    ],
                )
            if not spans:
                # It goes live (a retry would find nothing either), but a search can never return it: say so.
                record_error(conn, doc, "chunks", "NoText",
                             f"{doc['file_name']}: no text on any of its {len(text.page_texts)} pages (blank, or images "
                             "OCR could not read); it is live but nothing in it can be found", severity="warning",
                             run_id=run_id)
        report.add("chunks", len(spans))
        report.add("tokens", sum(c.token_count for c in spans))
        report.add("multi_page_chunks", sum(c.page_end > c.page_start for c in spans))
        if spans:
            report.counts["max_chunk_tokens"] = max(report.counts.get("max_chunk_tokens", 0), max(c.token_count for c in spans))
    report.seconds = time.perf_counter() - started
    return report
