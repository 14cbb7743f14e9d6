"""Dagster's instance on the project's PostgreSQL, with defaults, so plain `dagster dev` in the repository works: run
storage in a `dagster` database beside the application's, artifacts and compute logs under RAG_HOME."""

from __future__ import annotations

import logging
import os
import shutil

import psycopg
from dagster._core.storage.local_compute_log_manager import LocalComputeLogManager
from dagster._core.storage.root import LocalArtifactStorage
from dagster_postgres import DagsterPostgresStorage
from psycopg.conninfo import conninfo_to_dict

from rag_assets.evaluation.provenance import REPO_ROOT
from rag_assets.settings import Settings, load_settings
from rag_serving.store.bootstrap import ensure_database, server_url

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


def storage_url(settings: Settings) -> str:
    """DAGSTER_PG_URL, else the `dagster` database on the application's server (the embedded one started if need be)."""
    if settings.dagster_database_url:
        return settings.dagster_database_url
    app_url = server_url(settings.database_url, settings.pgdata)
    try:
        ensure_database(app_url, DAGSTER_DATABASE)
    except psycopg.Error as exc:
        log.warning("could not create database %r for Dagster (%s); set DAGSTER_PG_URL", DAGSTER_DATABASE, exc)
    return dagster_storage_url(settings, app_url)


def artifacts_dir(settings: Settings) -> str:
    """RAG_DAGSTER_ARTIFACTS, else RAG_HOME/dagster/storage: where `rag ui` has always kept them."""
    return str(settings.dagster_artifacts or settings.home / "dagster" / "storage")


class _FromSettings:
    """A Dagster instance class configured from the project's settings, so dagster.yaml gives it no config."""

    @classmethod
    def config_type(cls):
        return {}


class ProjectStorage(_FromSettings, DagsterPostgresStorage):
    """Dagster's run, event and schedule storage at storage_url(): dagster.yaml names no environment variable, so
    every process (webserver, daemon, run workers) finds the same database with none set."""

    @classmethod
    def from_config_value(cls, inst_data, config_value):
        return cls(postgres_url=storage_url(load_settings()), inst_data=inst_data)


class ProjectArtifactStorage(_FromSettings, LocalArtifactStorage):
    """Dagster's local artifacts (asset outputs of the evaluation group) in artifacts_dir()."""

    @classmethod
    def from_config_value(cls, inst_data, config_value):
        return cls(base_dir=artifacts_dir(load_settings()), inst_data=inst_data)


class ProjectComputeLogManager(_FromSettings, LocalComputeLogManager):
    """Step output beside the artifacts: in docker-compose that folder is the volume the daemon's runs and the
    webserver share, so the UI shows the logs of runs it did not start."""

    @classmethod
    def from_config_value(cls, inst_data, config_value):
        return cls(base_dir=artifacts_dir(load_settings()), inst_data=inst_data)


def prepare_dagster_env(settings: Settings) -> None:
    """Point Dagster's instance at RAG_HOME (DAGSTER_HOME, with the repository's dagster.yaml copied in)."""
    home = settings.dagster_home if not os.environ.get("DAGSTER_HOME") else None
    home = home or os.environ["DAGSTER_HOME"]
    os.makedirs(home, exist_ok=True)
    source, target = REPO_ROOT / "dagster.yaml", os.path.join(home, "dagster.yaml")
    if source.exists() and os.path.realpath(source) != os.path.realpath(target):
        if not os.path.exists(target) or open(target, "rb").read() != source.read_bytes():
            shutil.copyfile(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    # The instance's classes and the asset code resolve the database and folders from the settings: pin RAG_HOME
    # for child processes.
    os.environ.setdefault("RAG_HOME", str(settings.home))
