"""Loading BEIR-style entries: one document per entry, or several consecutive entries per document."""

from rag_assets.evaluation.beir import insert_entries
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
