"""One tenant session per request: every stage reads one snapshot, even while a new version is published mid-request."""

import dataclasses

import pytest
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.targets import Target
from rag_serving.models.embedders import HashedTfidf
from rag_serving.spec import PipelineSpec
from rag_serving.store.bootstrap import connect
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from rag_serving.wiring import Wiring
from tests.rag_assets.assets.test_ingest import run_batch

ACME = Tenant("acme", ("hq",))
OLD = "# Leave\n\n## Parental leave\n\nFull-time staff get 12 weeks of parental leave at full pay.\n"
NEW = "# Leave\n\n## Parental leave\n\nFull-time staff get 20 weeks of parental leave at full pay.\n"


@pytest.fixture
def policy(database_url, tmp_path):
    path = tmp_path / "policy.md"
    path.write_text(OLD)
    batch = run_batch(database_url, [Target(path, "acme", "hq", "policy.md")])
    assert batch.count("failed") == 0
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=2)
    yield database_url, path, database
    database.close()


def live_chunks(url) -> int:
    with connect(url) as conn:
        return conn.execute("SELECT count(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id "
                            "WHERE d.status = 'live'").fetchone()["n"]


def test_a_session_keeps_reading_its_snapshot_after_another_transaction_deletes_rows(policy):
    url, _, database = policy
    with database.session(ACME) as session:
        before = session.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"]
        with connect(url, autocommit=True) as admin:
            admin.execute("DELETE FROM chunks")
        after = session.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"]
    assert before > 0 and after == before
    with database.session(ACME) as session:
        assert session.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"] == 0


class PublishingReranker:
    """Keeps the fused order, but first publishes a new version of the policy: between retrieval and the rest."""

    name = "publishes-midway"

    def __init__(self, url, path):
        self.url, self.path, self.published = url, path, False

    def score(self, session, query, hits):
        self.path.write_text(NEW)
        assert run_batch(self.url, [Target(self.path, "acme", "hq", "policy.md")]).count("changed") == 1
        self.published = True
        return [1.0 / (i + 1) for i in range(len(hits))]


def test_a_version_published_mid_request_changes_nothing_the_request_reads(policy):
    url, path, database = policy
    # The hashed embedder: no learned model trained on its vectors (the reranker's or answerability's) can run.
    spec = PipelineSpec(reranker="none", parents=True, threshold=0.0, answerability="formula")
    pipeline = Wiring(database, HashedTfidf()).pipeline(spec)
    publisher = PublishingReranker(url, path)
    pipeline.searcher.plan = dataclasses.replace(pipeline.searcher.plan, reranker=publisher)
    response = pipeline.ask(ACME, "How many weeks of parental leave do full-time staff get?")
    assert publisher.published and live_chunks(url) > 0
    # Retrieval, reranking, the parent section and the citations all read the version that was live at the start.
    assert response.route == "answer" and response.grounding.passed, (response.message, response.grounding)
    assert "12 weeks" in response.text and "20 weeks" not in response.text
    assert all("12 weeks" in s.quote for sentence in response.answer for s in sentence.sources)
    # The next request sees the new version.
    pipeline.searcher.plan = dataclasses.replace(pipeline.searcher.plan, reranker=None)
    assert "20 weeks" in pipeline.ask(ACME, "How many weeks of parental leave do full-time staff get?").text


def test_set_local_applies_every_setting_for_the_request_alone(database_url):
    # One connection: the second request reuses the first's.
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    try:
        with database.session(ACME) as session:
            session.execute("SELECT '[1]'::vector")  # loads pgvector, whose hnsw.* settings then exist (default 40)
            session.set_local({"hnsw.ef_search": "321", "enable_sort": "off"})
            assert session.execute("SHOW hnsw.ef_search").fetchone()["hnsw.ef_search"] == "321"
            assert session.execute("SHOW enable_sort").fetchone()["enable_sort"] == "off"
        with database.session(ACME) as session:
            assert session.execute("SHOW hnsw.ef_search").fetchone()["hnsw.ef_search"] == "40"
            assert session.execute("SHOW enable_sort").fetchone()["enable_sort"] == "on"
    finally:
        database.close()
