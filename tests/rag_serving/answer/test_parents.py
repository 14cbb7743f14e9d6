"""Parent sections over a small ingested PDF: the section replaces its chunks, hits in one section are sent once with
their own pages, long sections fall back to a neighbour window, and the budget is kept."""

from contextlib import contextmanager

import pytest
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.targets import Target
from rag_assets.resources import ChunkerResource
from rag_serving.answer.parents import ParentPlan, count_tokens, parents
from rag_serving.models.embedders import HashedTfidf
from rag_serving.models.tokenization import load_tokenizer
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from tests.pdfs import text_pdf
from tests.rag_assets.assets.test_ingest import run_batch, write
from tests.searching import legs

LEAVE_1 = ("1 Leave\n\nStaff get sixteen weeks of parental leave at full pay.\nThe leave may start up to four weeks "
           "before the expected birth.\nPartners get four weeks of paid leave.")
LEAVE_2 = ("Leave can be split into two blocks.\nEach block must be at least two weeks long.\nRequests go to HR "
           "eight weeks ahead.")
HOURS = "2 Hours\n\nCore hours are ten to four.\nFlexible start times run from seven to ten."
HANDBOOK = text_pdf(["Acme Handbook", LEAVE_1, LEAVE_2, HOURS], outline=[("1 Leave", 0, 1), ("2 Hours", 0, 3)])
TENANT = Tenant("acme", ("hq",))


@contextmanager
def handbook_database(pg_server_url, tmp_path_factory, chunker: ChunkerResource):
    """A fresh database with HANDBOOK ingested at the given chunking, through the serving role's pool."""
    import uuid

    import psycopg
    from psycopg import sql

    from rag_serving.store.migrate import migrate

    name = f"handbook_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as c:
        c.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = make_conninfo(pg_server_url, dbname=name)
    migrate(url)
    path = write(tmp_path_factory.mktemp("pdf"), "handbook.pdf", HANDBOOK)
    run_batch(url, [Target(path, "acme", "hq", "handbook.pdf")], chunker=chunker)
    database = Database(make_conninfo(url, user=APP_ROLE), max_size=2)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture(scope="module")
def handbook_db(pg_server_url, tmp_path_factory):
    # 24-token windows: the leave section (two pages) becomes several chunks.
    with handbook_database(pg_server_url, tmp_path_factory, ChunkerResource(size=24, overlap=4, snap=4)) as database:
        yield database


def hits_for(database, question, k=10):
    return legs(database, HashedTfidf())(TENANT, question, k=k, mode="sparse")


def section_text(database):
    with database.session(TENANT) as conn:
        first, second = (r["text"].strip() for r in conn.execute(
            "SELECT text FROM pages WHERE page_index IN (2, 3) ORDER BY page_index").fetchall())
    return f"{first}\n\n{second}"  # page 2 ends on a finished sentence: the next page starts a paragraph


def test_a_hit_is_replaced_by_its_whole_section_and_keeps_its_own_page(handbook_db):
    hit = next(h for h in hits_for(handbook_db, "requests HR eight weeks ahead") if "eight weeks" in h.body)
    assert hit.page_start == 3
    with handbook_db.session(TENANT) as conn:
        [context] = parents(conn, [hit], load_tokenizer())
    assert context.body == section_text(handbook_db)
    assert "sixteen weeks" in context.body and "Core hours" not in context.body
    assert (context.page_start, context.page_end) == (3, 3)  # the hit's page, not the section's first


def test_hits_in_one_section_are_sent_once_ranked_by_the_best_and_cite_their_pages(handbook_db):
    hits = [h for h in hits_for(handbook_db, "leave weeks") if h.heading_path and h.heading_path.startswith("1 Leave")]
    assert len({h.page_start for h in hits}) == 2
    with handbook_db.session(TENANT) as conn:
        contexts = parents(conn, hits, load_tokenizer())
    assert len(contexts) == 1 and contexts[0].chunk_id == hits[0].chunk_id
    assert (contexts[0].page_start, contexts[0].page_end) == (2, 3)


def test_a_section_over_the_cap_falls_back_to_the_neighbouring_chunks(handbook_db):
    hit = next(h for h in hits_for(handbook_db, "requests HR eight weeks ahead") if "eight weeks" in h.body)
    with handbook_db.session(TENANT) as conn:
        [context] = parents(conn, [hit], load_tokenizer(), ParentPlan(max_section_tokens=10, neighbours=1))
        neighbours = conn.execute("SELECT body FROM chunks WHERE document_id = %s AND ordinal BETWEEN %s AND %s "
                                  "ORDER BY ordinal", (hit.document_id, hit.ordinal - 1, hit.ordinal + 1)).fetchall()
    assert hit.body in context.body and len(context.body) > len(hit.body)
    assert context.body.startswith(neighbours[0]["body"][:20])
    assert context.body.endswith(neighbours[-1]["body"][-20:])


def test_the_token_budget_falls_back_to_the_chunk_and_then_stops(handbook_db):
    hits = hits_for(handbook_db, "core hours leave weeks")
    tokenizer = load_tokenizer()
    with handbook_db.session(TENANT) as conn:
        full = parents(conn, hits, tokenizer)
        first = count_tokens(tokenizer, full[0].body)
        tight = parents(conn, hits, tokenizer, ParentPlan(budget=first + 5))
    assert tight[0].body == full[0].body
    assert sum(count_tokens(tokenizer, c.body) for c in tight) <= first + 5
    assert len(tight) < len(full)
