"""Ingest steps for one stored file: register, validate, extract pages, find sections, chunk, publish atomically."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import yaml
from tokenizers import Tokenizer

from . import queries as q
from .chunking import ChunkerConfig, chunk_document, section_token_counts, token_offsets
from .doctext import DocText
from .extraction import PDF, IngestError, extract, media_type_for, open_pdf, read_outline, read_text_file
from .sections import Section, detect_sections

log = logging.getLogger("rag.ingest")

# Bump when extraction, sectioning or chunking changes what they produce for the same input.
PIPELINE_VERSION = "5"  # 5: word-boundary moves bounded (long unspaced runs no longer duplicate)
TENANT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
SIDECAR_SUFFIX = ".meta.yaml"
SIDECAR_KEYS = {"title", "kind", "published_on"}


class RegistrationError(ValueError):
    pass


def sha256_hex(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def content_id(*parts: object) -> str:
    """Stable id from content: the unit separator keeps ("a", "bc") and ("ab", "c") apart."""
    return sha256_hex("\x1f".join(str(p) for p in parts))[:32]


def pipeline_digest(config: ChunkerConfig, tokenizer_digest: str) -> str:
    return content_id(PIPELINE_VERSION, config.size, config.overlap, config.snap, tokenizer_digest)[:16]


def validate_tenant_id(field_name: str, value: str) -> str:
    if not isinstance(value, str) or not TENANT_ID.match(value):
        raise RegistrationError(f"{field_name} {value!r} is invalid: use 1-63 lowercase letters, digits, '-' or '_'")
    return value


@dataclass(frozen=True)
class Registration:
    document_id: str
    sha256: str
    path: Path
    source_path: str
    organization_id: str
    rooftop_id: str
    state: str  # "new" | "changed" | "unchanged" | "retry"
    title: str


def read_sidecar(path: Path) -> dict:
    sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
    if not sidecar.exists():
        return {}
    try:
        data = yaml.safe_load(sidecar.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise RegistrationError(f"{sidecar}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise RegistrationError(f"{sidecar}: expected a mapping with keys {sorted(SIDECAR_KEYS)}")
    unknown = set(data) - SIDECAR_KEYS
    if unknown:
        raise RegistrationError(f"{sidecar}: unknown keys {sorted(unknown)}; allowed {sorted(SIDECAR_KEYS)}")
    return data


def parse_date(value, where: str) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise RegistrationError(f"{where}: published_on {value!r} is not an ISO date (YYYY-MM-DD)") from exc


def default_title(path: Path) -> str:
    return re.sub(r"[-_]+", " ", path.stem).strip().title() or path.name


def register_file(
    conn: psycopg.Connection,
    path: Path,
    *,
    organization_id: str,
    rooftop_id: str,
    source_path: str,
    digest: str,
    kind: str | None = None,
    published_on: str | dt.date | None = None,
    title: str | None = None,
) -> Registration:
    """Store the file's bytes and a 'building' document version, unless this exact version is already live."""
    validate_tenant_id("organization_id", organization_id)
    validate_tenant_id("rooftop_id", rooftop_id)
    media_type = media_type_for(path.name)
    meta = read_sidecar(path)
    data = path.read_bytes()
    sha = sha256_hex(data)
    doc_id = content_id(organization_id, rooftop_id, source_path, sha, digest)
    resolved_title = title or meta.get("title") or default_title(path)
    existing = conn.execute(q.SELECT_DOCUMENT, (doc_id,)).fetchone()
    if existing and existing["status"] == "live":
        return Registration(doc_id, sha, path, source_path, organization_id, rooftop_id, "unchanged", existing["title"])
    live = conn.execute(q.SELECT_LIVE_FOR_SOURCE, (organization_id, rooftop_id, source_path)).fetchone()
    state = "retry" if existing and existing["status"] in ("building", "failed") else ("changed" if live else "new")
    with conn.transaction():
        conn.execute(q.INSERT_FILE, (sha, len(data), data))
        conn.execute(
            q.INSERT_DOCUMENT,
            {
                "id": doc_id,
                "organization_id": organization_id,
                "rooftop_id": rooftop_id,
                "source_path": source_path,
                "sha256": sha,
                "file_name": path.name,
                "media_type": media_type,
                "title": resolved_title,
                "kind": kind or meta.get("kind"),
                "published_on": parse_date(published_on or meta.get("published_on"), str(path)),
                "pipeline_digest": digest,
            },
        )
    return Registration(doc_id, sha, path, source_path, organization_id, rooftop_id, state, resolved_title)


# ---------------------------------------------------------------- steps run by the assets


@dataclass
class StepReport:
    documents: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def add(self, key: str, n: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


def load_file(conn: psycopg.Connection, sha: str) -> bytes:
    row = conn.execute(q.SELECT_FILE, (sha,)).fetchone()
    if row is None:
        raise LookupError(f"no stored file with sha256 {sha}; register it first (rag ingest)")
    return bytes(row["content"])


def building_documents(conn: psycopg.Connection, sha: str) -> list[dict]:
    return [d for d in conn.execute(q.SELECT_PENDING_FOR_FILE, (sha,)).fetchall() if d["status"] == "building"]


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
        q.INSERT_ERROR,
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
            conn.execute(q.MARK_FAILED, (str(exc), doc["id"]))


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
    """Open the file; a bad file fails its documents here with a message naming it."""
    started = time.perf_counter()
    docs = conn.execute(q.SELECT_PENDING_FOR_FILE, (sha,)).fetchall()
    report = StepReport(documents=len(docs))
    if not docs:
        return report
    with conn.transaction():
        for doc in docs:
            conn.execute(q.MARK_BUILDING, (doc["id"],))
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
            conn.execute(q.UPDATE_PAGE_COUNT, (page_count, doc["id"]))
    report.add("pages", page_count)
    report.add("bytes", len(data))
    report.seconds = time.perf_counter() - started
    return report


def pages_step(
    conn: psycopg.Connection,
    sha: str,
    *,
    ocr_enabled: bool,
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
        extracted = extract(name, data, ocr_enabled=ocr_enabled, progress=progress)
    except IngestError as exc:
        exc.stage = "extract"
        fail_documents(conn, docs, "extract", exc, run_id)
        raise
    except Exception as exc:  # an extractor crash on one file must not look like success
        fail_documents(conn, docs, "extract", exc, run_id)
        raise
    for doc in docs:
        with conn.transaction():
            conn.execute(q.DELETE_PAGES, (doc["id"],))
            with conn.cursor() as cur:
                cur.executemany(
                    q.INSERT_PAGE,
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
            if extracted.pdf_title and doc["title"] == default_title(Path(doc["file_name"])):
                conn.execute(q.UPDATE_TITLE, (extracted.pdf_title, doc["id"]))
    report.warnings = extracted.warnings
    report.add("pages", len(extracted.pages))
    report.add("ocr_pages", sum(p.ocr for p in extracted.pages))
    report.add("unreadable_pages", sum(p.unreadable for p in extracted.pages))
    report.add("characters", sum(len(p.text) for p in extracted.pages))
    report.seconds = time.perf_counter() - started
    return report


def _doctext(conn: psycopg.Connection, document_id: str) -> DocText:
    rows = conn.execute(q.SELECT_PAGES, (document_id,)).fetchall()
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
            conn.execute(q.DELETE_CHUNKS, (doc["id"],))
            conn.execute(q.DELETE_SECTIONS, (doc["id"],))
            with conn.cursor() as cur:
                rows = []
                for s, sid, n in zip(sections, ids, counts):
                    begin, finish = text.position(s.start), text.end_position(s.end)
                    rows.append((sid, doc["id"], doc["organization_id"], doc["rooftop_id"],
                                 ids[s.parent] if s.parent is not None else None, s.ordinal, s.level, s.title,
                                 s.heading_path, s.source, begin.page_index, max(finish.page_index, begin.page_index),
                                 begin.offset, finish.offset, n))
                cur.executemany(q.INSERT_SECTION, rows)
        report.add("sections", len(sections))
        report.add("top_level_sections", sum(s.parent is None for s in sections))
        report.add("from_outline", sum(s.source == "outline" for s in sections))
    report.seconds = time.perf_counter() - started
    return report


def _load_sections(conn: psycopg.Connection, document_id: str, text: DocText) -> tuple[list[Section], list[str]]:
    rows = conn.execute(q.SELECT_SECTIONS, (document_id,)).fetchall()
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
            conn.execute(q.DELETE_CHUNKS, (doc["id"],))
            with conn.cursor() as cur:
                cur.executemany(
                    q.INSERT_CHUNK,
                    [
                        (content_id(doc["id"], c.start, c.end, sha256_hex(c.body)), doc["organization_id"],
                         doc["rooftop_id"], doc["id"], section_ids[c.section] if c.section is not None else None,
                         c.ordinal, c.page_start, c.page_end, text.page_labels[c.page_start - 1],
                         text.page_labels[c.page_end - 1], doc["kind"], doc["published_on"], c.body, c.token_count,
                         c.char_start, c.char_end, doc["sha256"], sha256_hex(c.body))
                        for c in spans
                    ],
                )
        report.add("chunks", len(spans))
        report.add("tokens", sum(c.token_count for c in spans))
        report.add("multi_page_chunks", sum(c.page_end > c.page_start for c in spans))
        if spans:
            report.counts["max_chunk_tokens"] = max(report.counts.get("max_chunk_tokens", 0), max(c.token_count for c in spans))
    report.seconds = time.perf_counter() - started
    return report


def embeddings_step(conn: psycopg.Connection, sha: str, embedder, run_id: str | None = None) -> StepReport:
    """Vectors for every chunk of the built documents, through the cache."""
    from pgvector.psycopg import register_vector

    from .embedding_cache import embed_cached

    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    register_vector(conn)
    for doc in docs:
        rows = conn.execute(q.SELECT_CHUNK_BODIES, (doc["id"],)).fetchall()
        vectors, stats = embed_cached(conn, embedder, [r["body"] for r in rows])
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(q.SET_CHUNK_EMBEDDING, [(v, embedder.model, r["id"]) for r, v in zip(rows, vectors)])
            cur.execute(q.SET_DOCUMENT_EMBEDDING_MODEL, (embedder.model, doc["id"]))
        report.add("vectors", len(rows))
        report.add("cache_hits", stats.hits)
        report.add("cache_misses", stats.misses)
        report.counts["embed_ms"] = report.counts.get("embed_ms", 0) + int(stats.embed_seconds * 1000)
    report.seconds = time.perf_counter() - started
    return report


def store_token_vectors(conn: psycopg.Connection, encoder, rows: list[dict], report: StepReport, batch: int = 64) -> None:
    """Encode and store the token vectors of chunk rows (id, body, body_sha256, organization_id, rooftop_id)."""
    from rag_serving.late_interaction import pack

    for offset in range(0, len(rows), batch):
        part = rows[offset : offset + batch]
        encoded = [pack(v) for v in encoder.token_vectors([r["body"] for r in part])]
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(q.INSERT_TOKEN_VECTORS, [
                (r["id"], encoder.model, r["organization_id"], r["rooftop_id"], r["body_sha256"], p.tokens, p.dim,
                 p.vectors, p.scales) for r, p in zip(part, encoded)])
        report.add("encoded", len(part))
        report.add("tokens", sum(p.tokens for p in encoded))
        report.add("bytes", sum(p.nbytes for p in encoded))


def token_vectors_step(conn: psycopg.Connection, sha: str, encoder, run_id: str | None = None) -> StepReport:
    """Per-token vectors for late interaction, int8-packed, for the file's chunks that lack them: the version being
    built, and the live one (so re-materializing this asset backfills a database ingested before it existed).
    Unchanged bodies reuse stored vectors. An embedder without token vectors (hashed TF-IDF, TEI) stores none."""
    from rag_serving.late_interaction import TokenEncoder

    started = time.perf_counter()
    docs = conn.execute(q.SELECT_BUILDING_OR_LIVE_FOR_FILE, (sha,)).fetchall()
    report = StepReport(documents=len(docs))
    if not isinstance(encoder, TokenEncoder):
        report.warnings.append(f"{encoder.model} has no token vectors; late interaction encodes candidates at query time")
        report.seconds = time.perf_counter() - started
        return report
    for doc in docs:
        args = {"document": doc["id"], "model": encoder.model}
        with conn.transaction():
            report.add("reused", conn.execute(q.COPY_TOKEN_VECTORS, args).rowcount)
        store_token_vectors(conn, encoder, conn.execute(q.SELECT_CHUNKS_FOR_TOKEN_VECTORS, args).fetchall(), report)
    report.seconds = time.perf_counter() - started
    return report


def backfill_token_vectors(conn: psycopg.Connection, encoder) -> StepReport:
    """Token vectors for every live chunk that lacks them (a database ingested before late interaction existed,
    or rows a benchmark inserted directly)."""
    from rag_serving.late_interaction import TokenEncoder

    started = time.perf_counter()
    report = StepReport()
    if not isinstance(encoder, TokenEncoder):
        return report
    store_token_vectors(conn, encoder, conn.execute(q.SELECT_LIVE_CHUNKS_WITHOUT_TOKEN_VECTORS,
                                                    {"model": encoder.model}).fetchall(), report)
    report.seconds = time.perf_counter() - started
    return report


def hnsw_index_name(model: str) -> str:
    return "chunks_hnsw_" + sha256_hex(model)[:12]


def ensure_vector_index(conn: psycopg.Connection, model: str, dim: int) -> bool:
    """HNSW (cosine) over this model's vectors; partial, so vectors of another model never enter it."""
    from psycopg import sql

    name = hnsw_index_name(model)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (q.INDEX_LOCK_KEY,))
        if conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", (name,)).fetchone():
            return False
        conn.execute(
            sql.SQL(
                "CREATE INDEX {name} ON chunks USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
                "WHERE embedding_model = {model}"
            ).format(name=sql.Identifier(name), dim=sql.Literal(dim), model=sql.Literal(model))
        )
    return True


def indexes_step(conn: psycopg.Connection, sha: str, model: str, dim: int, run_id: str | None = None) -> StepReport:
    """BM25 postings and lengths for the built documents; the vector index for the model if missing."""
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        with conn.transaction():
            conn.execute(q.DELETE_POSTINGS, (doc["id"],))
            conn.execute(q.INSERT_POSTINGS, ([doc["id"]],))
            conn.execute(q.SET_BM25_LENGTHS, ([doc["id"]],))
        report.add("postings", conn.execute(q.COUNT_POSTINGS, (doc["id"],)).fetchone()["n"])
    if docs:
        report.add("vector_index_created", int(ensure_vector_index(conn, model, dim)))
    report.seconds = time.perf_counter() - started
    return report


def publish_step(conn: psycopg.Connection, sha: str, run_id: str | None = None) -> StepReport:
    """Make each built version live and retire the version it replaces, in one transaction per source."""
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        with conn.transaction():
            conn.execute(q.LOCK_SOURCE, (doc["organization_id"], doc["rooftop_id"], doc["source_path"]))
            old = conn.execute(
                q.SUPERSEDE_LIVE, (doc["organization_id"], doc["rooftop_id"], doc["source_path"], doc["id"])
            ).fetchall()
            old_ids = [r["id"] for r in old]
            if old_ids:
                conn.execute(q.DELETE_SUPERSEDED_CHUNKS, (old_ids,))
                conn.execute(q.DELETE_SUPERSEDED_SECTIONS, (old_ids,))
                conn.execute(q.DELETE_SUPERSEDED_PAGES, (old_ids,))
            conn.execute(q.MARK_LIVE, (doc["id"],))
            conn.execute(q.REFRESH_BM25_STATS, (doc["organization_id"], doc["rooftop_id"]))
        report.add("replaced", len(old_ids))
        report.add("published", 1)
    report.seconds = time.perf_counter() - started
    return report
