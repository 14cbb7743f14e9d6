"""Comparisons: each side weighed against its own edition's passages; a side no passage is about is named."""

import dataclasses

from rag_serving.answer.comparisons import changed, one_side, shape, side_hits, side_kind, weigh
from rag_serving.answer.vectors import SentenceVectors
from tests.rag_serving.answer.test_evidence import hit

NEW = hit("Full-time employees get 27 days of annual leave.", chunk_id="n")
OLD = dataclasses.replace(hit("Full-time employees get 25 days of annual leave.", chunk_id="o",
                              title="Employee Handbook 2024", path="employee-handbook-2024.pdf"), document_id="d24")
QUESTION = "How many days of annual leave does the 2025 edition give compared with the 2024 edition?"


def test_each_side_gets_the_hits_of_its_own_edition():
    assert side_hits("2024", [NEW, OLD]) == [OLD] and side_hits("2025", [NEW, OLD]) == [NEW]


def test_a_sides_question_leaves_the_other_years_out():
    assert one_side(QUESTION, "2024", ("2025", "2024")) == (
        "How many days of annual leave does the edition give compared with the 2024 edition?")


def test_the_comparison_is_as_strong_as_its_weakest_side(minilm):
    vectors = SentenceVectors(minilm)
    both = weigh(QUESTION, ("2025", "2024"), [NEW, OLD], vectors, lambda e: e.confidence)
    assert set(both.scores) == {"2025", "2024"} and both.lacking == ()
    assert both.confidence == min(both.scores.values()) > 0


def test_a_side_no_passage_is_about_is_named_as_lacking(minilm):
    result = weigh("Leave in 2019 compared with 2025?", ("2019", "2025"), [NEW], SentenceVectors(minilm),
                   lambda e: e.confidence)
    assert result.lacking == ("2019",) and set(result.scores) == {"2025"}


def test_one_sentence_with_another_value_is_a_change_and_the_editions_own_years_are_not():
    def differ(a: str, b: str) -> bool:
        return changed(shape(a, ("2024", "2025")), shape(b, ("2024", "2025")))

    assert differ("Staff may work remotely for up to 2 days per week.",
                  "Staff may work remotely for up to 3 days per week.")
    assert differ("The budget is $1,200 a year.", "The budget is $1,800 a year.")
    assert not differ("Staff may work remotely for up to 2 days per week.",
                      "Staff may work remotely for up to 2 days per week.")  # unchanged
    assert not differ("This 2024 edition takes effect on 1 February 2024.",
                      "This 2025 edition takes effect on 1 February 2025.")  # only the edition's year
    assert not differ("Staff may work remotely for up to 2 days per week.",
                      "Staff may work from another state for up to 30 days.")  # another sentence


def test_a_comparison_about_an_amount_asks_each_side_for_a_number():
    assert side_kind("Did the parental leave go up or down between the 2024 and 2025 handbooks?") == "number"
    assert side_kind("Did the remote work limit change between the 2024 and 2025 handbooks?") == "number"  # a limit
    assert side_kind("Do the handbook and the helpdesk sheet agree on who to call?") is None


def test_a_document_side_is_asked_without_the_words_naming_the_other_document():
    question = "Do the employee handbook and the IT helpdesk sheet agree on how quickly incidents must be reported?"
    compared = ("employee handbook", "it helpdesk quick reference")
    assert one_side(question, "employee handbook", compared) == (
        "Do the employee handbook and the sheet agree on how quickly incidents must be reported?")
    assert one_side(question, "it helpdesk quick reference", compared) == (
        "Do the and the IT helpdesk sheet agree on how quickly incidents must be reported?")
