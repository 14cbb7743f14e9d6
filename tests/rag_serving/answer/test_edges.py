"""Whole sentences at chunk edges: a chunk the window cut mid-sentence is finished from its page's text."""

import psycopg
from psycopg.rows import dict_row

from rag_serving.answer.edges import ends_mid_sentence, opens_mid_sentence, whole_sentences, widened
from rag_serving.search.hits import Hit
from rag_serving.store.sessions import Tenant


def test_a_chunk_opening_mid_sentence_gets_the_sentence_start_from_before_it():
    before = "Parental leave is paid.\nFull-time employees with at least six\n"
    body = "months of service get 16 weeks.\nIt may be split."
    assert widened(body, before, "") == "Full-time employees with at least six\nmonths of service get 16 weeks.\nIt may be split."


def test_a_chunk_ending_mid_sentence_gets_the_sentence_end_from_after_it():
    body = "Core time runs from 10:00 to\n"
    after = "15:00 on weekdays. Lunch is unpaid."
    assert widened(body, "", after) == "Core time runs from 10:00 to\n15:00 on weekdays."


def test_a_paragraph_break_ends_a_sentence_too():
    # A heading above the chunk, then the cut line: the sentence starts after the blank line.
    assert widened("the key to the store.", "2.4 Keys\n\nAsk the duty manager for\n", "") == \
        "Ask the duty manager for\nthe key to the store."


def test_whole_edges_and_out_of_reach_starts_are_left_as_they_are():
    assert widened("Lunch is unpaid.", "Core time ends at 15:00. ", " Breaks are 15 minutes.") == "Lunch is unpaid."
    # No sentence end within the text read before it: the start stays cut rather than guessed.
    assert widened("of the store.", "ask the duty manager for the key ", "") == "of the store."


def test_a_table_row_ends_without_a_full_stop_and_is_not_cut():
    row = "Part number: X200-FAN-12 | Description: Condenser fan assembly"
    assert not ends_mid_sentence(row) and ends_mid_sentence("Core time runs from 10:00 to")
    assert opens_mid_sentence("  months of service") and not opens_mid_sentence("Months of service")


def test_a_retrieved_chunk_that_opens_mid_sentence_is_finished_from_its_page(corpus_db, corpus_app_db):
    # The sample handbook's chunks overlap and snap to nearby breaks, but some still open inside a sentence.
    with psycopg.connect(corpus_db, row_factory=dict_row) as conn:
        rows = conn.execute(
            "SELECT c.*, d.title, d.source_path, d.organization_id, d.rooftop_id FROM chunks c "
            "JOIN documents d ON d.id = c.document_id "
            "WHERE d.status = 'live' AND c.body ~ '^\\s*[a-z]' AND c.page_start = c.page_end ORDER BY c.id LIMIT 3"
        ).fetchall()
        pages = {r["id"]: conn.execute("SELECT text FROM pages WHERE document_id = %s AND page_index = %s",
                                       (r["document_id"], r["page_start"])).fetchone()["text"] for r in rows}
    assert rows, "the corpus has chunks opening mid-sentence"
    hits = [Hit(chunk_id=r["id"], document_id=r["document_id"], title=r["title"], source_path=r["source_path"],
                kind=r["kind"], published_on=r["published_on"], page_start=r["page_start"], page_end=r["page_end"],
                page_label_start=r["page_label_start"], page_label_end=r["page_label_end"], heading_path=None,
                body=r["body"], score=0.0) for r in rows]
    for r, hit in zip(rows, hits):
        tenant = Tenant(r["organization_id"], (r["rooftop_id"],))
        with corpus_app_db.session(tenant) as session:
            (whole,) = whole_sentences(session, [hit])
        assert whole.body.endswith(hit.body) and len(whole.body) > len(hit.body)
        assert not opens_mid_sentence(whole.body)
        # Taken from the page right before the chunk, and the page range is unchanged.
        assert whole.body in pages[r["id"]] or " ".join(whole.body.split()) in " ".join(pages[r["id"]].split())
        assert (whole.page_start, whole.page_end) == (hit.page_start, hit.page_end)
