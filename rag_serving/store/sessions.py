"""Query-time database access: the serving role's pool and one tenant session per request (one snapshot, RLS on)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
from pgvector.psycopg import register_vector
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from rag_serving.store.sqlfiles import sql_text

APP_ROLE = "rag_app"


@dataclass(frozen=True)
class Tenant:
    organization_id: str
    rooftop_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.organization_id or not self.rooftop_ids or any("," in r or not r for r in self.rooftop_ids):
            raise ValueError(f"invalid tenant {self.organization_id!r} / {self.rooftop_ids!r}")


@dataclass(frozen=True)
class Session:
    """One request's view of the database: a REPEATABLE READ transaction in which row-level security shows exactly
    this tenant's rows. Every stage of a request (retrieval, reranking, parents, citations) reads through it, so they
    all see one snapshot even while a new document version is published."""

    conn: psycopg.Connection
    tenant: Tenant

    def execute(self, query, params=None, *, binary: bool = False) -> psycopg.Cursor:
        """binary=True: results in PostgreSQL's binary format (bytea as raw bytes, not hex text at twice the size).
        Named parameters always carry `organization`, this tenant's own."""
        if isinstance(params, dict):
            # A statement that names its organization as a value is planned for that partition of chunks alone
            # (migration 0018); pruned only by the policy's setting, it is planned over all 32 (docs/decisions.md).
            params = {**params, "organization": self.tenant.organization_id}
        return self.conn.execute(query, params, binary=binary)

    def set_local(self, settings: dict[str, str]) -> None:
        """Planner settings until this request's transaction ends (SET LOCAL), all in one round trip."""
        self.conn.execute(sql_text("set_local"), {"names": list(settings), "values": list(settings.values())})


def app_url(app_database_url: str | None, server_url: str) -> str:
    """The serving role's URL: RAG_APP_DATABASE_URL, or the same server and database as role rag_app."""
    return app_database_url or make_conninfo(server_url, user=APP_ROLE, password="")


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)
    # One snapshot per request: under READ COMMITTED each statement would see the latest publish.
    conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    # Custom plans let the planner see the model id, so the partial HNSW index for it is usable.
    conn.execute("SET plan_cache_mode = force_custom_plan")
    conn.commit()


class Database:
    def __init__(self, url: str, min_size: int = 1, max_size: int = 8, timeout: float = 5.0):
        self.url = url
        # check: a connection the server dropped (a restart, a failover) is replaced when handed out, so the first
        # request after the database is back is served. timeout: a request waits this long for a connection, then
        # fails (the endpoint answers 503) instead of hanging while the database is down.
        self.pool = ConnectionPool(
            url, min_size=min_size, max_size=max_size, kwargs={"row_factory": dict_row},
            configure=_configure, check=ConnectionPool.check_connection, timeout=timeout, open=True,
            name="rag-serving",
        )

    @contextmanager
    def session(self, tenant: Tenant) -> Iterator[Session]:
        """The tenant session for one request; commits when the request ends (web fallbacks are logged in it)."""
        with self.pool.connection() as conn:
            with conn.transaction():
                conn.execute(sql_text("set_tenant"), (tenant.organization_id, ",".join(tenant.rooftop_ids)))
                yield Session(conn, tenant)

    @contextmanager
    def anonymous(self) -> Iterator[psycopg.Connection]:
        """A transaction with no tenant: content tables read as empty (API key lookup, health checks)."""
        with self.pool.connection() as conn:
            with conn.transaction():
                yield conn

    def close(self) -> None:
        self.pool.close()
