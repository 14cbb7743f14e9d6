"""Loading BEIR-style entries: one document per entry, or several consecutive entries per document."""

from rag_assets.evaluation.beir import insert_entries
from rag_assets.ingest.queries import sql_text as ingest_sql
from rag_serving.models.embedders import HashedTfidf

ENTRIES = [(f"e{i}", f"Title {i}", f"entry number {i} about pumps") for i in range(5)]
CHUNKS = "SELECT id, document_id, ordinal, page_start, page_end FROM chunks ORDER BY id"


def test_each_entry_is_its_own_document_by_default(conn):
    embedder = HashedTfidf()
    insert_entries(conn, ENTRIES, embedder.embed([e[2] for e in ENTRIES]), "one", embedder)
    assert [(r["id"], r["document_id"], r["ordinal"], r["page_start"]) for r in conn.execute(CHUNKS)] == \
        [(f"e{i}", f"e{i}", 0, 1) for i in range(5)]


def test_consecutive_entries_share_a_document_one_page_each(conn):
    embedder = HashedTfidf()
    insert_entries(conn, ENTRIES, embedder.embed([e[2] for e in ENTRIES]), "one", embedder, per_document=2)
    rows = [(r["id"], r["document_id"], r["ordinal"], r["page_start"], r["page_end"]) for r in conn.execute(CHUNKS)]
    assert rows == [("e0", "e0", 0, 1, 1), ("e1", "e0", 1, 2, 2), ("e2", "e2", 0, 1, 1), ("e3", "e2", 1, 2, 2),
                    ("e4", "e4", 0, 1, 1)]
    titles = conn.execute("SELECT id, title FROM documents ORDER BY id").fetchall()
    assert [(r["id"], r["title"]) for r in titles] == [("e0", "Title 0"), ("e2", "Title 2"), ("e4", "Title 4")]


INDEX = "SELECT to_regclass('chunks_bm25_hnsw')::oid AS oid, pg_get_indexdef(to_regclass('chunks_bm25_hnsw')) AS ddl"


def test_a_load_as_large_as_the_table_builds_the_sparse_index_again_as_it_was(conn):
    embedder = HashedTfidf()
    before = conn.execute(INDEX).fetchone()
    insert_entries(conn, ENTRIES, embedder.embed([e[2] for e in ENTRIES]), "one", embedder)
    after = conn.execute(INDEX).fetchone()
    assert after["oid"] != before["oid"] and after["ddl"] == before["ddl"]
    # The rebuilt graph holds the loaded chunks: a search through it finds them.
    conn.execute("SET enable_seqscan = off")
    plan = conn.execute("EXPLAIN SELECT id FROM chunks ORDER BY bm25_vector <#> (SELECT bm25_vector FROM chunks "
                        "WHERE id = 'e0') LIMIT 3").fetchall()
    # Each partition's graph is an index under chunks_bm25_hnsw (migration 0018): one of them is scanned.
    graphs = [r["name"] for r in conn.execute("SELECT relid::regclass::text AS name FROM pg_partition_tree("
                                              "'chunks_bm25_hnsw') WHERE isleaf")]
    assert len(graphs) == 32
    assert any(g in r["QUERY PLAN"] for r in plan for g in graphs)
    found = conn.execute("SELECT id FROM chunks ORDER BY bm25_vector <#> (SELECT bm25_vector FROM chunks "
                         "WHERE id = 'e0') LIMIT 5").fetchall()
    assert sorted(r["id"] for r in found) == [e[0] for e in ENTRIES]


def test_a_small_load_into_a_larger_table_keeps_the_sparse_index(conn):
    embedder = HashedTfidf()
    insert_entries(conn, ENTRIES, embedder.embed([e[2] for e in ENTRIES]), "one", embedder)
    kept = conn.execute(INDEX).fetchone()
    more = [("x1", "X", "one more entry about valves")]
    insert_entries(conn, more, embedder.embed([more[0][2]]), "one", embedder)
    assert conn.execute(INDEX).fetchone() == kept


def test_lengths_and_vectors_are_written_together_and_a_chunk_without_words_has_none(conn):
    # "grow grow apples": grow twice and appl once, length 3; "the of and" holds only stop words: length 0, no vector.
    embedder = HashedTfidf()
    entries = [("g", "G", "grow grow apples"), ("s", "S", "the of and")]
    insert_entries(conn, entries, embedder.embed([e[2] for e in entries]), "one", embedder)
    rows = {r["id"]: r for r in conn.execute("SELECT id, bm25_length, bm25_vector IS NULL AS none FROM chunks")}
    assert (rows["g"]["bm25_length"], rows["g"]["none"]) == (3, False)
    assert (rows["s"]["bm25_length"], rows["s"]["none"]) == (0, True)
    # One new version of each chunk, not one per column: each costs an insert into every index on chunks.
    # The counter also holds this backend's earlier updates until it reports them, which it never does inside a
    # transaction: the difference across the statement is its own.
    # The counters are kept per partition (migration 0018).
    count = ("SELECT sum(pg_stat_get_xact_tuples_updated(relid)) AS n FROM pg_partition_tree('chunks') "
             "WHERE isleaf")
    with conn.transaction():
        before = conn.execute(count).fetchone()["n"]
        conn.execute(ingest_sql("set_bm25_columns"), (["g", "s"],))
        updated = conn.execute(count).fetchone()["n"] - before
    assert updated == 2


def test_a_load_without_indexes_leaves_both_graphs_to_the_caller(conn):
    # The sliced 1M build (benchmarks.latency) drops the sparse graph itself and builds both once at the end.
    embedder = HashedTfidf()
    kept = conn.execute(INDEX).fetchone()
    insert_entries(conn, ENTRIES, embedder.embed([e[2] for e in ENTRIES]), "one", embedder, indexes=False)
    assert conn.execute(INDEX).fetchone() == kept  # as large as the table, yet not rebuilt
    dense = conn.execute("SELECT count(*) AS n FROM pg_indexes WHERE tablename = 'chunks' "
                         "AND indexname LIKE 'chunks_hnsw_%'").fetchone()["n"]
    assert dense == 0
    assert conn.execute("SELECT count(*) AS n FROM chunk_terms").fetchone()["n"] > 0  # postings still written
