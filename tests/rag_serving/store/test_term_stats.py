"""term_stats (migration 0013): each rooftop's live postings per term, kept exact by triggers, visible per tenant."""

from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.beir import insert_entries
from rag_serving.models.embedders import HashedTfidf
from rag_serving.store.sessions import APP_ROLE, Database, Tenant

COUNTED = ("SELECT organization_id, term, rooftop_id, count(*) AS df FROM chunk_terms WHERE live "
           "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
KEPT = "SELECT organization_id, term, rooftop_id, df FROM term_stats ORDER BY 1, 2, 3"


def load(conn, chunks, rooftop):
    embedder = HashedTfidf()
    insert_entries(conn, chunks, embedder.embed([c[2] for c in chunks]), rooftop, embedder)


def test_counts_follow_every_way_postings_change(conn):
    load(conn, [("a", "A", "apples grow"), ("b", "B", "cherries grow")], "one")
    load(conn, [("c", "C", "plums ripen and grow")], "two")
    assert conn.execute(KEPT).fetchall() == conn.execute(COUNTED).fetchall()
    assert conn.execute("SELECT df FROM term_stats WHERE term = 'grow' AND rooftop_id = 'one'").fetchone()["df"] == 2

    conn.execute("UPDATE chunk_terms SET live = false WHERE chunk_id = 'a'")  # a version taken out of search
    assert conn.execute(KEPT).fetchall() == conn.execute(COUNTED).fetchall()
    assert conn.execute("SELECT count(*) AS n FROM term_stats WHERE term = 'appl'").fetchone()["n"] == 0

    conn.execute("DELETE FROM chunks WHERE id = 'b'")  # postings go by cascade, one chunk at a time
    assert conn.execute(KEPT).fetchall() == conn.execute(COUNTED).fetchall()

    conn.execute("TRUNCATE chunk_terms")
    assert conn.execute(KEPT).fetchall() == []


def test_a_tenant_reads_the_counts_of_its_own_rooftops_only(conn, database_url):
    load(conn, [("a", "A", "apples grow")], "one")
    load(conn, [("b", "B", "cherries grow")], "two")
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    try:
        with database.session(Tenant("bench", ("one",))) as session:
            seen = session.execute("SELECT term, rooftop_id FROM term_stats ORDER BY 1").fetchall()
    finally:
        database.close()
    assert [(r["term"], r["rooftop_id"]) for r in seen] == [("appl", "one"), ("grow", "one")]
