"""Dagster's instance on the project's PostgreSQL: DAGSTER_HOME under RAG_HOME, run storage in a `dagster` database."""

from __future__ import annotations

import logging
import os
import shutil

import psycopg
from psycopg.conninfo import conninfo_to_dict

from rag_assets.evaluation.provenance import REPO_ROOT
from rag_assets.settings import Settings
from rag_serving.store.bootstrap import ensure_database

log = logging.getLogger(__name__)

DAGSTER_DATABASE = "dagster"


def dagster_storage_url(settings: Settings, app_url: str) -> str:
    """SQLAlchemy URL for Dagster's run/event storage: DAGSTER_PG_URL, else the application's server, its own database.

    The explicit psycopg2 driver matters: SQLAlchemy 2.1 would otherwise hand the URL to
    psycopg 3, and Dagster's NOTIFY statements fail there (runs stay NOT_STARTED).
    """
    if settings.dagster_database_url:
        return settings.dagster_database_url
    from sqlalchemy.engine import URL

    params = conninfo_to_dict(app_url)
    query = {}
    host = params.get("host")
    if host and host.startswith("/"):
        query["host"] = host
        host = None
    return URL.create(
        "postgresql+psycopg2",
        username=params.get("user") or "postgres",
        password=params.get("password") or None,
        host=host,
        port=int(params["port"]) if params.get("port") else None,
        database=DAGSTER_DATABASE,
        query=query,
    ).render_as_string(hide_password=False)


def prepare_dagster_env(settings: Settings, app_url: str) -> None:
    """Point Dagster's instance at RAG_HOME and its run/event storage at the same PostgreSQL server."""
    if not settings.dagster_database_url:
        try:
            ensure_database(app_url, DAGSTER_DATABASE)
        except psycopg.Error as exc:
            log.warning("could not create database %r for Dagster (%s); set DAGSTER_PG_URL", DAGSTER_DATABASE, exc)
    home = settings.dagster_home if not os.environ.get("DAGSTER_HOME") else None
    home = home or os.environ["DAGSTER_HOME"]
    os.makedirs(home, exist_ok=True)
    source, target = REPO_ROOT / "dagster.yaml", os.path.join(home, "dagster.yaml")
    if source.exists() and os.path.realpath(source) != os.path.realpath(target):
        if not os.path.exists(target) or open(target, "rb").read() != source.read_bytes():
            shutil.copyfile(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    os.environ.setdefault("DAGSTER_PG_URL", dagster_storage_url(settings, app_url))
    os.environ.setdefault("RAG_DAGSTER_ARTIFACTS", str(settings.dagster_artifacts or settings.home / "dagster" / "storage"))
    # The asset code resolves the database from these too, so pin them for child processes.
    os.environ.setdefault("RAG_HOME", str(settings.home))
