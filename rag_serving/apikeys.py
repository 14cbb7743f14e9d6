"""API keys: generated once, stored as SHA-256, mapped to an organization and its rooftops."""

from __future__ import annotations

import hashlib
import secrets

import psycopg

from .database import Tenant

KEY_PREFIX = "rag_"
INSERT_KEY = "INSERT INTO api_keys (key_sha256, organization_id, rooftop_ids, label) VALUES (%s, %s, %s, %s)"
LOOKUP_KEY = "SELECT organization_id, rooftop_ids FROM api_keys WHERE key_sha256 = %s AND revoked_at IS NULL"
REVOKE_KEY = "UPDATE api_keys SET revoked_at = now() WHERE key_sha256 = %s AND revoked_at IS NULL"


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_key(conn: psycopg.Connection, organization_id: str, rooftop_ids: list[str], label: str) -> str:
    """Store a new key's hash and return the key itself; it is shown once and never stored."""
    Tenant(organization_id, tuple(rooftop_ids))  # validates
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    conn.execute(INSERT_KEY, (key_hash(key), organization_id, list(rooftop_ids), label))
    return key


def tenant_for_key(conn: psycopg.Connection, key: str) -> Tenant | None:
    if not key or not key.startswith(KEY_PREFIX):
        return None
    row = conn.execute(LOOKUP_KEY, (key_hash(key),)).fetchone()
    if row is None:
        return None
    return Tenant(row["organization_id"], tuple(row["rooftop_ids"]))


def revoke_key(conn: psycopg.Connection, key: str) -> bool:
    return conn.execute(REVOKE_KEY, (key_hash(key),)).rowcount == 1
