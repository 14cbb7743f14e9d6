import datetime as dt

from rag_serving.answer.generators import SYSTEM_PROMPT
from rag_serving.answer.grounding import LexicalSupport, check, factual, leaked
from rag_serving.answer.responses import Draft, Sentence, Source
from rag_serving.search.hits import Hit

BODY = "Full-time employees with at least six months of continuous service are entitled to 16 weeks\nof parental leave at full pay."


def hit(chunk_id="c1", body=BODY) -> Hit:
    return Hit(chunk_id=chunk_id, document_id="d1", title="Employee Handbook 2025", source_path="h.pdf", kind=None,
               published_on=dt.date(2025, 1, 1), page_start=14, page_end=14, page_label_start="10",
               page_label_end="10", heading_path=None, body=body, score=1.0)


def source(quote: str, chunk_id="c1") -> Source:
    return Source.of(hit(chunk_id), quote)


def draft(*sentences: Sentence, stop_reason=None) -> Draft:
    return Draft(sentences=list(sentences), generator="test", model="test", stop_reason=stop_reason)


def test_verbatim_quote_after_whitespace_normalization_passes():
    quote = "entitled to 16 weeks of parental leave at full pay."
    result = check(draft(Sentence(text="Full-time staff get 16 weeks of parental leave.", sources=[source(quote)])), [hit()])
    assert result.passed and result.failed_check is None and result.cited_ratio == 1.0


def test_quote_not_in_the_chunk_fails_the_quotes_check():
    result = check(draft(Sentence(text="Staff get 18 weeks.", sources=[source("entitled to 18 weeks")])), [hit()])
    assert not result.passed and result.failed_check == "quotes"


def test_citing_a_chunk_that_was_not_retrieved_fails_the_quotes_check():
    result = check(draft(Sentence(text="Staff get 16 weeks.", sources=[source("16 weeks", chunk_id="other")])), [hit()])
    assert result.failed_check == "quotes" and "not retrieved" in result.problems[0]


def test_factual_sentence_without_a_source_fails_the_sourced_check():
    ok = Sentence(text="Staff get 16 weeks of parental leave.", sources=[source("16 weeks\nof parental leave")])
    bare = Sentence(text="It must be taken within 12 months.")
    result = check(draft(ok, bare), [hit()])
    assert result.failed_check == "sourced" and result.cited_ratio == 0.5


def test_an_answer_of_no_factual_sentence_still_needs_a_source():
    # What a 0.5B model wrote for two held-out questions: a one-word answer, and the question's own words back.
    for sentences in (["Public"], ["We had a blackout and the chiller hasn't come back on yet.", "Check the door seals."]):
        result = check(draft(*(Sentence(text=t) for t in sentences)), [hit()])
        assert result.failed_check == "sourced" and result.cited_ratio == 0.0 and len(result.problems) == len(sentences)


def test_a_pleasantry_beside_a_sourced_answer_needs_no_source():
    cited = Sentence(text="Parental leave is at full pay.", sources=[source("16 weeks\nof parental leave at full pay.")])
    result = check(draft(cited, Sentence(text="Hope this helps.")), [hit()])
    assert result.passed and result.cited_ratio == 1.0


def test_an_answer_of_no_factual_sentence_is_checked_against_its_quote():
    unsupported = Sentence(text="Parental leave is unpaid for contractors.", sources=[source("16 weeks\nof parental leave at full pay.")])
    supported = Sentence(text="Parental leave is at full pay.", sources=[source("16 weeks\nof parental leave at full pay.")])
    assert check(draft(unsupported), [hit()]).failed_check == "support"
    assert check(draft(supported), [hit()]).passed


def test_a_number_missing_from_the_quote_fails_the_support_check():
    result = check(draft(Sentence(text="Staff get 18 weeks of parental leave.", sources=[source("weeks of parental leave")])), [hit()])
    assert result.failed_check == "support" and "18" in result.problems[0]


def test_a_negation_the_source_lacks_fails_the_support_check():
    ok, why = LexicalSupport().supports("Full-time employees are not entitled to parental leave.",
                                        ["Full-time employees are entitled to parental leave."])
    assert not ok and "negat" in why


def test_mostly_unrelated_words_fail_the_support_check():
    # content stems of the sentence: forklift, certif, requir, driver, parent, leav -> 2 of 6 in the quote
    ok, why = LexicalSupport().supports("Forklift certification required for drivers on parental leave.",
                                        ["16 weeks of parental leave"])
    assert not ok and "33%" in why


def test_repeating_the_system_prompt_fails_the_leak_check():
    leak = Sentence(text=SYSTEM_PROMPT[:120])
    assert leaked(leak.text, SYSTEM_PROMPT)
    result = check(draft(leak), [hit()], system_prompt=SYSTEM_PROMPT)
    assert result.failed_check == "leak"


def test_an_answer_cut_at_the_token_limit_is_incomplete():
    result = check(draft(Sentence(text="Staff get", sources=[]), stop_reason="max_tokens"), [hit()])
    assert result.failed_check == "incomplete"


def test_factual_means_numbers_dates_names_or_instructions():
    assert factual("Leave lasts 16 weeks.")
    assert factual("The pilot ends in March.")
    assert factual("Ask Janelle Brooks.")
    assert factual("You must book ahead.")
    assert not factual("Here is what the handbook says.")


def quoted(text: str, body: str) -> Draft:
    return draft(Sentence(text=text, sources=[Source.of(hit(body=body), text)]))


def test_a_quote_without_the_part_number_asked_for_is_not_shown():
    from rag_serving.answer.evidence import profile

    body = "Order the replacement belt from Facilities. The belt is part X200-BLT-02."
    result = check(quoted("Order the replacement belt from Facilities.", body), [hit(body=body)],
                   question=profile("How much does the replacement belt cost?"))
    assert (result.passed, result.failed_check) == (False, "answers")
    assert "no quote holds an amount of money" in result.problems[0]


def test_a_number_that_is_not_money_does_not_answer_what_something_costs():
    from rag_serving.answer.evidence import profile

    body = "The belt is part X200-BLT-02 and costs $45."
    question = profile("How much does the replacement belt cost?")
    assert not check(quoted("The belt is part X200-BLT-02", body), [hit(body=body)], question=question).passed
    assert check(quoted("The belt is part X200-BLT-02 and costs $45.", body), [hit(body=body)], question=question).passed


def test_a_quote_stating_no_limit_for_a_limit_question_is_not_shown():
    from rag_serving.answer.evidence import profile

    question = profile("What is the largest numeral that rmntonum can convert to an integer?")
    body = "TeX provides no command which goes the opposite way. The rmntonum command fills this gap."
    result = check(quoted(body, body), [hit(body=body)], question=question)
    assert (result.failed_check, result.problems) == ("answers", ["no quote holds a limit, which the question asks for"])
    stated = "The rmntonum command converts Roman numerals up to MMMCMXCIX."
    assert check(quoted(stated, stated), [hit(body=stated)], question=question).passed


def test_a_question_in_parts_is_answered_by_a_quote_holding_one_parts_kind():
    from rag_serving.answer.evidence import profile

    # The release is named by its codename, not a version number; the year answers the second part.
    question = profile("Which Debian release first shipped systemd by default, and what year did it come out?")
    assert question.measure == "version"  # read whole, one quote would need a version number and a date
    body = "Debian jessie was the first release to ship systemd as the default init system, released in 2015."
    assert check(quoted(body, body), [hit(body=body)], question=question).passed
    plain = "Debian jessie was the first release to ship systemd as the default init system."
    result = check(quoted(plain, plain), [hit(body=plain)], question=question)
    assert result.failed_check == "answers"


def test_a_quote_holding_the_kind_asked_for_passes():
    from rag_serving.answer.evidence import profile

    body = "The replacement belt costs 40 dollars."
    assert check(quoted(body, body), [hit(body=body)], question=profile("How much does the replacement belt cost?")).passed


def test_a_strict_term_no_cited_passage_names_fails_the_check():
    from rag_serving.answer.evidence import profile

    body = "The X300 unit restarts itself after a power cut."
    result = check(quoted(body, body), [hit(body=body)], question=profile("Does the X500 unit restart after a power cut?"))
    assert result.failed_check == "answers" and "x500" in result.problems[0]


def test_the_quote_holding_the_answer_must_come_from_a_passage_naming_what_is_asked():
    from rag_serving.answer.evidence import profile

    summit = "The whole company meets once a year at Globex Summit."
    leave = "Globex also provides bereavement leave of up to 15 days."
    hits = [hit("summit", summit), hit("leave", leave)]
    both = draft(Sentence(text=summit, sources=[Source.of(hits[0], summit)]),
                 Sentence(text=leave, sources=[Source.of(hits[1], leave)]))
    result = check(both, hits, question=profile("How long is the Globex Summit?", owner="globex"))
    assert (result.passed, result.failed_check) == (False, "answers")
    lasts = "The Globex Summit lasts three days."
    assert check(quoted(lasts, lasts), [hit(body=lasts)], question=profile("How long is the Globex Summit?")).passed
