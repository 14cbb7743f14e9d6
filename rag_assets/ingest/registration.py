"""Registering a file: its bytes stored once by SHA-256 and a building document version with an id from content hashes."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import psycopg
import yaml

from rag_assets.ingest.chunking import ChunkerConfig
from rag_assets.ingest.extraction import media_type_for
from rag_assets.ingest.queries import sql_text

# Bump when extraction, sectioning or chunking changes what they produce for the same input.
# 18: TeX ligatures pypdf reads as control characters from OT1-encoded fonts ("speci\x0ced") read as letters;
# 17: a percent sign in its own column goes with its figure; periods head the columns they are set over, a top line
# ("2018 versus" over "2017") included (tables.py); 16: a statement's labels alone start the rows under them, its
# indented rows stay in it, its later sections take the periods above them (tables.py); 15: two columns of prose read
# one after the other (columns.py); 14: a statement's periods head its figures (one or two rows of them too), a
# currency sign goes with its figure, a label heads the rows indented under it (tables.py); 13: a title read from page
# one's largest type (cover.py); 12: a scan under a stamp's thin text layer, and a layer of glyph
# names, read by OCR (layers.py); 11: a book's running chapter and section heads ("CHAPTER 6. THE DEBIAN ARCHIVES 6.7.
# …") stripped; 10: LaTeX's bullet (U+0088) read as "•", not as a table's first column; 9: words pypdf runs together set
# apart where PDFium breaks them (spacing.py); 8: running headers and footers stripped, footer page numbers as labels, a
# page break after a finished sentence or row starts a paragraph; 7: key column labelled; 6: tables as one labelled row
# per paragraph, spaced dot leaders collapsed.
PIPELINE_VERSION = "18"
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


def document_id(organization_id: str, rooftop_id: str, source_path: str, sha256: str, digest: str) -> str:
    """A version's id: the same file at the same place, read by the same pipeline, is the same version."""
    return content_id(organization_id, rooftop_id, source_path, sha256, digest)


def live_sha256(conn: psycopg.Connection, path: Path, *, organization_id: str, rooftop_id: str, source_path: str,
                digest: str) -> str | None:
    """The file's SHA-256 when this exact version of it is already live (what register_file calls unchanged)."""
    sha = sha256_hex(path.read_bytes())
    live = conn.execute(sql_text("select_live_for_source"), (organization_id, rooftop_id, source_path)).fetchone()
    return sha if is_current(live, sha, digest) else None


def is_current(live: dict | None, sha: str, digest: str) -> bool:
    """The live version is this file read with these settings (a rebuild from the UI keeps both, under another id)."""
    return bool(live) and live["sha256"] == sha and live["pipeline_digest"] == digest


def chunking_digest(size: int, overlap: int, snap: int, tokenizer_digest: str) -> str:
    """The pipeline digest of these chunking settings and tokenizer (ChunkerResource.digest)."""
    return pipeline_digest(ChunkerConfig(size, overlap, snap), tokenizer_digest)


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
    doc_id = document_id(organization_id, rooftop_id, source_path, sha, digest)
    resolved_title = title or meta.get("title") or default_title(path)
    live = conn.execute(sql_text("select_live_for_source"), (organization_id, rooftop_id, source_path)).fetchone()
    if is_current(live, sha, digest):
        return Registration(live["id"], sha, path, source_path, organization_id, rooftop_id, "unchanged", live["title"])
    existing = conn.execute(sql_text("select_document"), (doc_id,)).fetchone()
    state = "retry" if existing and existing["status"] in ("building", "failed") else ("changed" if live else "new")
    with conn.transaction():
        conn.execute(sql_text("insert_file"), (sha, len(data), data))
        conn.execute(
            sql_text("insert_document"),
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
