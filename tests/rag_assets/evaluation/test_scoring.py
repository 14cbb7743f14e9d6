"""Golden-case judging, worked by hand."""

import pytest

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.scoring import case_metrics, judge
from rag_serving.answer.answerer import search_text
from rag_serving.search.hits import Hit

CASE = GoldenCase.model_validate({
    "id": "leave-001", "tenant": {"organization": "acme", "rooftops": ["hq"]}, "question": "weeks?",
    "relevant": [{"document": "a.pdf", "page": 14, "grade": 2}, {"document": "a.pdf", "page": 15, "grade": 1}],
    "answer_must_include": ["16 weeks"],
})


def hit(source, start, end):
    return Hit(chunk_id=f"{source}{start}{end}", document_id="d", title="T", source_path=source, kind=None,
               published_on=None, page_start=start, page_end=end, page_label_start=str(start),
               page_label_end=str(end), heading_path=None, body="", score=0.0)


HITS = [hit("a.pdf", 10, 10), hit("a.pdf", 14, 15), hit("a.pdf", 15, 15), hit("b.pdf", 14, 14)]


def test_chunk_takes_the_highest_grade_of_pages_it_overlaps_and_pages_are_credited_once():
    grades, gains, covered = judge(HITS, CASE)
    assert grades == [0, 2, 1, 0]  # b.pdf page 14 is another document
    assert gains == [0, 2, 0, 0]
    assert covered == 2


def test_metrics_for_the_worked_example():
    m = case_metrics(HITS, CASE)
    assert (m["hit@1"], m["hit@5"], m["mrr@10"]) == (0.0, 1.0, 0.5)
    # DCG = 3/log2(3) = 1.89279; ideal = 3/1 + 1/log2(3) = 3.63093
    assert m["ndcg@5"] == pytest.approx(0.52130, abs=1e-5)
    assert (m["recall@1"], m["recall@5"]) == (0.0, 1.0)


def test_follow_up_is_searched_with_its_history():
    case = CASE.model_copy(update={"history": ["parental leave for full-time staff?"], "question": "and part-time?"})
    assert search_text(case.question, case.history) == "parental leave for full-time staff? and part-time?"


def _response(route="answer", text=None, passed=True):
    from rag_serving.answer.responses import Grounding, Response, Sentence

    answer = [Sentence(text=text)] if text is not None else None
    grounding = Grounding(passed=passed, failed_check=None if passed else "quotes", cited_ratio=1.0, judge="lexical")
    return Response(question="q", route=route, confidence=0.8, answer=answer, grounding=grounding)


def test_answer_with_every_required_string_is_correct_ignoring_case_and_spacing():
    from rag_assets.evaluation.scoring import answer_metrics

    case = GoldenCase(id="a", tenant={"organization": "acme", "rooftops": ["hq"]}, question="q",
                      answer_must_include=["16 weeks", "pro rata"])
    m = answer_metrics(_response(text="They get 16\nweeks, paid Pro Rata."), case)
    assert m["correct"] is True and m["wrong"] is False and m["abstained"] is False and m["grounded"] is True
    m = answer_metrics(_response(text="They get 16 weeks."), case)
    assert m["correct"] is False and m["wrong"] is True


def test_nothing_shown_on_an_answerable_case_is_an_abstention_not_a_wrong_answer():
    from rag_assets.evaluation.scoring import answer_metrics

    case = GoldenCase(id="a", tenant={"organization": "acme", "rooftops": ["hq"]}, question="q", answer_must_include=["x"])
    m = answer_metrics(_response(route="abstain"), case)
    assert m["abstained"] is True and m["wrong"] is False and m["correct"] is False


def test_any_answer_shown_on_a_no_answer_case_is_wrong():
    from rag_assets.evaluation.scoring import answer_metrics

    case = GoldenCase(id="n", tenant={"organization": "acme", "rooftops": ["hq"]}, question="q", expect="abstain")
    m = answer_metrics(_response(text="Mars relocation is covered."), case)
    assert m["wrong"] is True and m["correct"] is None


def test_a_clarifying_question_is_correct_on_a_clarify_case_and_an_answer_is_wrong():
    from rag_assets.evaluation.scoring import answer_metrics

    case = GoldenCase(id="c", tenant={"organization": "acme", "rooftops": ["hq"]}, question="What's the limit?",
                      expect="clarify")
    assert answer_metrics(_response(route="clarify"), case)["correct"] is True
    m = answer_metrics(_response(text="The limit is $75."), case)
    assert m["correct"] is False and m["wrong"] is True


def test_grounding_failures_are_counted_among_drafted_answers_only():
    from rag_assets.evaluation.scoring import summarize

    def row(route, grounded, shown):
        return {"expect": "answer", "route": route, "grounded": grounded, "shown": shown, "abstained": not shown,
                "correct": shown, "wrong": False, "hit@10": 1.0}

    # Two drafts, one stopped by the check; an abstention drafted nothing.
    summary = summarize([row("answer", True, True), row("answer", False, False), row("abstain", None, False)])
    assert summary["grounding_failed_rate"] == 0.5 and summary["over_abstention_rate"] == 0.6667
