"""Each quote is cited at the pages that print it: one page when it sits on one, both sides of a page break when it
crosses one, the chunk's range when no page run holds it."""

import pytest

from rag_assets.resources import ChunkerResource
from rag_serving.answer.citations import cite_pages, holder, narrowest
from rag_serving.answer.responses import Draft, Sentence, Source
from rag_serving.models.embedders import HashedTfidf
from rag_serving.store.sessions import Tenant
from tests.rag_serving.answer.test_parents import handbook_database
from tests.searching import legs

TENANT = Tenant("acme", ("hq",))
PAGES = [(2, "ii", "Staff get leave."), (3, "iii", "Partners get four weeks. Leave can be split."), (4, "iv", "Hours.")]


def test_a_quote_on_one_page_is_cited_at_that_page_alone():
    assert narrowest("Leave can be split.", PAGES) == (PAGES[1], PAGES[1])


def test_a_quote_across_a_page_break_is_cited_at_both_pages():
    assert narrowest("Staff get leave. Partners get four weeks.", PAGES) == (PAGES[0], PAGES[1])


def test_a_quote_no_page_run_holds_has_no_pages():
    assert narrowest("Nobody gets leave.", PAGES) is None


@pytest.fixture(scope="module")
def big_chunks(pg_server_url, tmp_path_factory):
    """The handbook with chunks big enough that the leave section (pages 2 and 3) is one chunk."""
    with handbook_database(pg_server_url, tmp_path_factory, ChunkerResource(size=400, overlap=0, snap=4)) as database:
        yield database


def leave_chunk(database):
    hits = legs(database, HashedTfidf())(TENANT, "parental leave blocks", k=10, mode="sparse")
    hit = next(h for h in hits if "sixteen weeks" in h.body)
    assert (hit.page_start, hit.page_end) == (2, 3), "the test needs one chunk across pages 2 and 3"
    return hit


def cited(database, hit, quote):
    draft = Draft(sentences=[Sentence(text=quote, sources=[Source.of(hit, quote)])], generator="extractive", model="m")
    with database.session(TENANT) as session:
        return cite_pages(session, draft, [hit]).sentences[0].sources[0]


def test_a_quote_from_the_second_page_of_a_chunk_links_that_page(big_chunks):
    source = cited(big_chunks, leave_chunk(big_chunks), "Each block must be at least two weeks long.")
    assert (source.pages, source.link) == ("p. 3", "handbook.pdf#page=3")


def test_a_quote_across_the_page_break_names_both_pages(big_chunks):
    quote = "Partners get four weeks of paid leave. Leave can be split into two blocks."
    source = cited(big_chunks, leave_chunk(big_chunks), quote)
    assert (source.pages, source.link) == ("pp. 2–3", "handbook.pdf#page=2")


def test_a_quote_the_pages_do_not_hold_keeps_the_chunks_range(big_chunks):
    source = cited(big_chunks, leave_chunk(big_chunks), "Words nobody printed.")
    assert source.pages == "pp. 2–3"


def test_the_cited_chunk_is_preferred_when_it_holds_the_quote(big_chunks):
    hit = leave_chunk(big_chunks)
    other = hit.__class__(**{**hit.__dict__, "chunk_id": "other"})
    assert holder("Partners get four weeks of paid leave.", hit.chunk_id, [other, hit]) == (hit, False)


def test_every_quote_in_every_golden_answer_is_on_the_page_its_link_names(corpus_app_db, minilm):
    """The shipped pipeline with routing off (so every case yields quotes) over the whole golden set."""
    from pathlib import Path

    from rag_assets.evaluation.golden import load_golden
    from rag_serving.spec import DEFAULT_SPEC
    from rag_serving.wiring import Wiring

    pipeline = Wiring(corpus_app_db, minilm).pipeline(DEFAULT_SPEC.replace(threshold=0.0))
    checked, wrong = 0, []
    for case in load_golden(Path(__file__).resolve().parents[3] / "golden"):
        tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
        response = pipeline.ask(tenant, case.question, history=case.history)
        with corpus_app_db.session(tenant) as session:
            for sentence in response.answer or []:
                for src in sentence.sources:
                    first = int(src.link.rsplit("=", 1)[1])
                    last = first + 1 if src.pages.startswith("pp.") else first
                    text = " ".join(r["text"] for r in session.execute(
                        "SELECT text FROM pages WHERE document_id = %s AND page_index BETWEEN %s AND %s "
                        "ORDER BY page_index", (src.document_id, first, last)).fetchall())
                    checked += 1
                    if " ".join(src.quote.split()) not in " ".join(text.split()):
                        wrong.append((case.id, src.link, src.pages, src.quote[:60]))
    assert checked >= 50 and not wrong, (checked, wrong)
