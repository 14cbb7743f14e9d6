"""API keys: generated once, stored as SHA-256, mapped to an organization and its rooftops."""

from __future__ import annotations

import hashlib
import secrets

import psycopg

from rag_serving.store.sessions import Tenant
from rag_serving.store.sqlfiles import sql_text

KEY_PREFIX = "rag_"


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_key(conn: psycopg.Connection, organization_id: str, rooftop_ids: list[str], label: str) -> str:
    """Store a new key's hash and return the key itself; it is shown once and never stored."""
    Tenant(organization_id, tuple(rooftop_ids))  # validates
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    conn.execute(sql_text("insert_api_key"), (key_hash(key), organization_id, list(rooftop_ids), label))
    return key


def tenant_for_key(conn: psycopg.Connection, key: str) -> Tenant | None:
    if not key or not key.startswith(KEY_PREFIX):
        return None
    row = conn.execute(sql_text("tenant_for_key"), (key_hash(key),)).fetchone()
    if row is None:
        return None
    return Tenant(row["organization_id"], tuple(row["rooftop_ids"]))


def revoke_key(conn: psycopg.Connection, key: str) -> bool:
    return conn.execute(sql_text("revoke_api_key"), (key_hash(key),)).rowcount == 1


def revoke_key_id(conn: psycopg.Connection, key_id: str) -> int:
    """Revoke the one active key whose id (hash prefix, as listed) is key_id; returns how many matched. With more than
    one (ids are short), nothing is revoked: the caller must name the key itself."""
    with conn.transaction():
        matched = conn.execute(sql_text("active_keys_with_id"), (key_id,)).fetchall()
        if len(matched) == 1:
            conn.execute(sql_text("revoke_api_key"), (matched[0]["key_sha256"],))
    return len(matched)


def list_keys(conn: psycopg.Connection) -> list[dict]:
    """Every key's id (hash prefix), tenant, label and dates; the keys themselves are not stored."""
    return conn.execute(sql_text("list_api_keys")).fetchall()
