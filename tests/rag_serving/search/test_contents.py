"""Contents pages: read from their leaders and page numbers, and ranked below every passage that says something."""

import dataclasses

from rag_serving.search.contents import contents_last, reads_as_contents
from rag_serving.spec import PipelineSpec
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Wiring
from tests.rag_serving.search.test_editions import hit

CONTENTS = """Contents
1 Welcome ... 1
   1.1 About Acme Logistics ... 1
   1.2 Our Values ... 2
2 Working Hours ... 5
   2.4 Remote Work ... 7
3 Benefits                                   9"""


def test_a_page_of_titles_and_page_numbers_reads_as_contents():
    assert reads_as_contents(CONTENTS)


def test_a_title_page_running_on_into_the_contents_is_no_contents_page():
    title = ("This manual is for GNU Libtasn1 (version 4.19.0, 18 August 2022), which is a library for Abstract Syntax "
             "Notation One (ASN.1) and Distinguished Encoding Rules (DER) manipulation. Permission is granted to "
             "copy, distribute and modify this document under the terms of the GNU Free Documentation License.")
    assert not reads_as_contents(f"{title}\n{CONTENTS}")


def test_prose_and_a_table_whose_rows_end_in_numbers_do_not():
    prose = "Remote work is allowed up to 3 days a week ... 7 of 10 staff use it.\nAsk your manager first."
    table = "\n".join(f"X200-SNS-1{n}    Suction transducer      {n}" for n in range(8))
    assert not reads_as_contents(prose) and not reads_as_contents(table)


def test_contents_hits_move_below_the_others_each_group_keeping_its_order():
    toc = dataclasses.replace(hit("t1", "Handbook", 2025), body=CONTENTS)
    toc2 = dataclasses.replace(toc, chunk_id="t2")
    a, b = hit("a", "Handbook", 2025), hit("b", "Handbook", 2025)
    assert [h.chunk_id for h in contents_last([toc, a, toc2, b])] == ["a", "b", "t1", "t2"]


def test_the_shipped_search_ranks_the_handbooks_contents_page_last(corpus_app_db, minilm):
    wiring = Wiring(corpus_app_db, minilm)
    question = "What is the four-day week pilot?"  # a contents entry's own words
    spec = PipelineSpec(editions=False)
    before = wiring.pipeline(spec.replace(contents_last=False)).search(Tenant("acme", ("hq",)), question, k=10)
    after = wiring.pipeline(spec).search(Tenant("acme", ("hq",)), question, k=10)
    flags = [reads_as_contents(h.body) for h in after]
    assert any(reads_as_contents(h.body) for h in before[:4])  # without the step, a contents page is near the top
    assert flags == sorted(flags) and not flags[0]
