"""Editions: an older edition of the same title ranks just below the newer one unless the question names its year."""

import dataclasses
import datetime as dt

from rag_serving.search.editions import current_first, named, superseded
from rag_serving.search.hits import Hit


def hit(chunk_id: str, title: str, year: int, document_id: str | None = None) -> Hit:
    return Hit(chunk_id=chunk_id, document_id=document_id or title, title=title, source_path=f"{title}.pdf",
               kind=None, published_on=dt.date(year, 2, 1), page_start=1, page_end=1, page_label_start="1",
               page_label_end="1", heading_path=None, body="text", score=1.0)


OLD = hit("o1", "Employee Handbook 2024", 2024)
NEW = hit("n1", "Employee Handbook 2025", 2025)
SITE = hit("s1", "North Yard Site Guide", 2020)


def test_an_older_edition_is_superseded_and_naming_its_year_supersedes_the_newer_one_instead():
    assert superseded([NEW, OLD, SITE], []) == {"Employee Handbook 2024"}
    assert superseded([NEW, OLD, SITE], ["2024"]) == {"Employee Handbook 2025"}


def test_the_older_edition_moves_just_below_the_newer_one():
    old2 = dataclasses.replace(OLD, chunk_id="o2")
    assert [h.chunk_id for h in current_first([OLD, SITE, old2, NEW], [])] == ["s1", "n1", "o1", "o2"]


def test_a_question_naming_the_old_year_keeps_the_order():
    assert [h.chunk_id for h in current_first([OLD, NEW], named("What did the 2024 handbook say?"))] == ["o1", "n1"]


def test_a_question_naming_the_old_year_ranks_that_edition_first():
    new2 = dataclasses.replace(NEW, chunk_id="n2")
    assert superseded([NEW, OLD], ["2024"]) == {"Employee Handbook 2025"}
    assert [h.chunk_id for h in current_first([NEW, SITE, new2, OLD], ["2024"])] == ["s1", "o1", "n1", "n2"]


def test_a_question_naming_both_years_keeps_both_editions_in_place():
    assert [h.chunk_id for h in current_first([NEW, OLD], named("Did it change from 2024 to 2025?"))] == ["n1", "o1"]


def test_years_versions_and_edition_words_are_what_names_an_edition():
    assert named("Was rev 3 of the v2.1 manual, second edition, out in 2023?") == ["rev 3", "v2.1", "second edition",
                                                                                  "2023"]
