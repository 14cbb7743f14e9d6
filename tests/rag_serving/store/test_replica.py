"""Serving from a hot standby: ingest on the primary, answer from the replica, and a publish is atomic there too."""

import threading
import time

import httpx
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.targets import Target
from rag_assets.resources import EmbedderResource
from rag_serving.api.app import create_app
from rag_serving.models.embedders import HashedTfidf
from rag_serving.settings import load_settings
from rag_serving.store import apikeys, embedded
from rag_serving.store import bootstrap as db
from rag_serving.store.migrate import migrate
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from tests.rag_assets.assets.test_ingest import HANDBOOK_V1, HANDBOOK_V2, run_batch, write
from tests.searching import legs
from tests.servers import serve

QUESTION = "weeks of parental leave"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(primary URL, replica URL) of the `rag` database: a fresh embedded server and a streaming hot standby of it."""
    root = tmp_path_factory.mktemp("replica")
    server = embedded.start(root / "primary")
    replica_server = embedded.start_standby(root / "primary", root / "standby", port=5433)
    try:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute("CREATE DATABASE rag")
        primary = make_conninfo(server, dbname="rag")
        migrate(primary)
        caught_up(primary, replica_server)  # the database exists on the replica only once its creation is replayed
        yield primary, make_conninfo(replica_server, dbname="rag")
    finally:
        embedded.stop(root / "standby")
        embedded.stop(root / "primary")


def caught_up(primary: str, replica: str, timeout: float = 120) -> None:
    """Wait until the replica has replayed everything the primary has written so far (WAL positions are per server,
    so any database of each will do)."""
    with psycopg.connect(primary) as conn:
        target = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    deadline = time.monotonic() + timeout
    with psycopg.connect(make_conninfo(replica, dbname="postgres"), autocommit=True) as conn:
        while conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()[0] is not True:
            assert time.monotonic() < deadline, f"replica did not replay up to {target} within {timeout} s"
            time.sleep(0.05)


def test_the_standby_is_read_only_and_streams_from_the_primary(cluster):
    primary, replica = cluster
    with psycopg.connect(replica) as conn:
        assert conn.execute("SELECT pg_is_in_recovery()").fetchone()[0] is True
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("CREATE TABLE nope (x int)")
    with psycopg.connect(primary) as conn:
        senders = conn.execute("SELECT state FROM pg_stat_replication").fetchall()
    assert senders == [("streaming",)]


def test_a_document_ingested_on_the_primary_is_served_from_the_replica(cluster, tmp_path, minilm):
    primary, replica = cluster
    run_batch(primary, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")],
              embedder=EmbedderResource(name="minilm"))
    with db.connect(primary, autocommit=True) as conn:
        key = apikeys.create_key(conn, "acme", ["hq"], "replica test")
    caught_up(primary, replica)
    # The serving settings name only the replica: the key lookup, the tenant session and the search all run there.
    settings = load_settings({"RAG_HOME": str(tmp_path / "home"),
                              "RAG_APP_DATABASE_URL": make_conninfo(replica, user=APP_ROLE)})
    with serve(create_app(settings, embedder=minilm), "/healthz") as base:
        response = httpx.post(f"{base}/retrieve", json={"question": QUESTION, "k": 3},
                              headers={"Authorization": f"Bearer {key}"}, timeout=120)
    assert response.status_code == 200, response.text
    assert any("12 weeks" in hit["text"] for hit in response.json()["hits"])


def test_a_publish_replayed_on_the_replica_shows_the_old_version_or_the_new_never_a_mix(cluster, tmp_path):
    primary, replica = cluster
    path = write(tmp_path, "policy.pdf", HANDBOOK_V1)
    run_batch(primary, [Target(path, "acme", "hq", "policy.pdf")])
    caught_up(primary, replica)
    database = Database(make_conninfo(replica, user=APP_ROLE), max_size=1)
    search = legs(database, HashedTfidf())
    seen: list[frozenset[str]] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            hits = search(Tenant("acme", ("hq",)), QUESTION, mode="sparse", k=20)
            policy = [h for h in hits if h.source_path == "policy.pdf"]
            seen.append(frozenset(h.document_id for h in policy))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        path.write_bytes(HANDBOOK_V2)
        assert run_batch(primary, [Target(path, "acme", "hq", "policy.pdf")]).outcomes[0].state == "changed"
        caught_up(primary, replica)
        time.sleep(0.2)  # a few reads after the replay
    finally:
        done.set()
        reader.join(60)
        database.close()
    versions = [ids for i, ids in enumerate(seen) if i == 0 or ids != seen[i - 1]]
    assert all(len(ids) == 1 for ids in seen), "a read saw both versions, or neither"
    assert len(versions) == 2, f"expected the old version then the new, saw {len(versions)} runs"
    assert len(seen) > 10, f"only {len(seen)} reads during the publish"
