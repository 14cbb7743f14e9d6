import dataclasses
import datetime as dt

from rag_serving.answer.evidence import assess, profile
from rag_serving.answer.terms import (code_names, contains_term, is_amount, paths, setting_names, strict_variants,
                                     versions)
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.hits import Hit
from rag_serving.search.query import Query


def filing(body: str) -> Hit:
    return Hit(chunk_id="c1", document_id="d1", title="Acme Corp quarterly report", source_path="acme-10q.pdf",
               kind="filing", published_on=dt.date(2023, 8, 1), page_start=3, page_end=3, page_label_start="3",
               page_label_end="3", heading_path="Results of Operations", body=body, score=0.03)


def test_a_fiscal_year_matches_fiscal_and_fiscal_year_but_not_another_year():
    assert contains_term("revenue for fiscal 2022 rose", "fy2022")
    assert contains_term("revenue for fiscal year 2022 rose", "fy2022")
    assert not contains_term("revenue for fiscal 2021 rose", "fy2022")


def test_a_two_digit_fiscal_year_is_the_same_year():
    assert strict_variants("fy22")[:3] == ("fy22", "fy2022", "fy 2022")
    assert contains_term("fy2022 results", "fy22")


def test_a_real_fiscal_year_mismatch_is_still_missing():
    assert not contains_term("net sales in fiscal 2022 were flat", "fy2021")


def test_a_quarter_matches_its_ordinal_words_but_not_another_quarter():
    assert contains_term("second quarter net sales", "q2")
    assert contains_term("2nd-quarter net sales", "q2")
    assert not contains_term("third quarter net sales", "q2")


def test_a_quarter_code_is_not_matched_inside_another_token():
    assert not contains_term("see section aq2x and faq2", "q2")
    assert contains_term("q2fy23 revenue", "q2")  # joined to its year it is still the quarter


def test_digit_first_quarter_codes_are_quarters():
    assert contains_term("third quarter margin", "3q")


def test_form_10k_matches_all_spellings_of_the_form():
    for text in ("annual report on form 10-k", "the 10k", "form 10 k", "form 10\u2011k"):  # U+2011: non-breaking hyphen
        assert contains_term(text, "10-k"), text
    assert not contains_term("quarterly report on form 10-q", "10-k")


def test_a_half_year_code_matches_first_half_of_that_year():
    assert contains_term("in the first half of 2022", "1h22")
    assert not contains_term("in the second half of 2022", "1h22")


def test_a_term_without_other_forms_is_still_a_plain_substring():
    assert strict_variants("e-104") == ("e-104",)
    assert contains_term("error e-104x", "e-104")


def test_amounts_are_not_strict_terms():
    assert is_amount("1.2b") and is_amount("$10k") and is_amount("10x") and is_amount("5pct")
    assert not is_amount("10k")  # a filing form as often as ten thousand
    assert profile("Was revenue $1.2B or 3.5M, up 10x or 5pct in FY22?").strict_terms == ("fy22",)


def test_an_amount_given_anyway_matches_its_spelled_out_form():
    assert contains_term("revenue of $1.2 billion", "1.2b")
    assert not contains_term("revenue of $31.2 billion", "1.2b")


def test_a_passage_naming_the_quarter_in_words_is_not_zeroed(minilm):
    question = "What was revenue in Q2 FY2023?"
    assert profile(question).strict_terms == ("q2", "fy2023")
    body = "Revenue in the second quarter of fiscal 2023 was $4.1 billion, up 8% from a year earlier."
    found = assess(Query(question, minilm), [filing(body)], SentenceVectors(minilm))
    assert found.passages[0].missing_strict == ()
    assert found.confidence > 0.0


def test_a_passage_on_another_quarter_is_still_zeroed(minilm):
    body = "Revenue in the third quarter of fiscal 2023 was $4.4 billion, up 9% from a year earlier."
    found = assess(Query("What was revenue in Q2 FY2023?", minilm), [filing(body)], SentenceVectors(minilm))
    assert found.passages[0].missing_strict == ("q2",)
    assert found.confidence == 0.0


def test_a_standard_named_by_acronym_and_number_is_strict_in_each_spelling():
    assert profile("Do suppliers have to be ISO 9001 certified?").strict_terms == ("iso 9001",)
    assert all(contains_term(t, "iso 9001") for t in ("ISO 9001:2015 certified", "iso-9001", "ISO9001"))
    assert not contains_term("certified to ISO 14001", "iso 9001") and not contains_term("iso 90012", "iso 9001")


def test_a_product_and_its_release_are_one_strict_term():
    assert profile("What is the default priority of a treematch rule in KDE 3?").strict_terms == ("kde 3",)
    assert contains_term("as KDE 3 does", "kde 3") and not contains_term("as KDE 4 does", "kde 3")
    assert profile("What must /boot hold under FHS 3.0?").strict_terms == ("fhs 3.0", "/boot")


def test_a_path_is_strict_and_three_names_deep_its_directory_is_enough():
    assert paths("What is /boot/efi supposed to contain?") == ["/boot/efi"]
    assert paths("Must every package ship debian/upstream/metadata?") == ["debian/upstream/metadata"]
    assert paths("Is 100 kB/s and/or I/O a path? See https://www.example.org/a/b/c.") == []
    assert not contains_term("the /boot directory holds the kernel", "/boot/efi")
    # "foo.cleanup" is the asker's own file: the passage names its directory.
    assert contains_term("files in /etc/cron.d/ must be named", "/etc/cron.d/foo.cleanup")
    assert not contains_term("scripts in /etc/cron.daily run", "/etc/cron.d/foo.cleanup")


def test_names_written_as_code_are_strict_terms_without_their_marks():
    assert code_names("What is the default of the warning.length option, and of nrows in read.table()?") == \
        ["warning.length", "read.table"]
    assert code_names("What does NLEqn_options set, and what does INSTALL_DATA do?") == ["nleqn_options", "install_data"]
    # An option without its dashes and a macro without its backslash: PDFs print "--" as an en dash as often.
    assert code_names("What default should the --timeout option have? And \\LTcapwidth?") == ["timeout", "ltcapwidth"]
    assert contains_term("–timeout=SECONDS sets it", "timeout")
    # Abbreviations, versions, a file's one-letter extension, a path and a single-dash example are no names.
    assert code_names("E.g. i.e. in U.S. offices, v1.x or 2.16, glpk.h, ~/.bash_history, flags such as -Wall?") == []
    assert profile("What is the maximum size of a mime.cache file?").strict_terms == ("mime.cache",)


def test_an_underscored_name_is_found_where_the_pdf_printed_its_underscores_as_spaces():
    assert contains_term("see mmdet.models.dense heads.anchor_head", "dense_heads")
    assert contains_term("the install_data variable", "install_data")
    assert not contains_term("dense layers and heads", "dense_heads")


def test_a_word_the_question_calls_a_key_option_or_argument_names_it():
    assert setting_names("What is the default value of the emptylines key?") == ["emptylines"]
    assert setting_names("Is the strut= option on by default, and what does the nrows argument of read.table do?") \
        == ["strut", "nrows"]
    assert profile("What is the default value of the emptylines key?").strict_terms == ("emptylines",)
    # Words describing a setting, and plurals naming a kind of them, name none.
    assert setting_names("Does the same option work, and which is the default setting?") == []
    assert setting_names("gpg cant fetch the upstream key; the arrow keys and the formal arguments") == []
    # A command is named the same way, and a word may say what kind of option it is; a package's name is its manual's
    # title, on every page.
    assert setting_names("Which version of the caption package added the globstar shell option and the read "
                         "builtin?") == ["globstar", "read"]


def test_a_release_the_question_names_by_number_is_a_strict_term_and_of_two_either_will_do():
    assert versions("In which year was version 3.5 released, and what changed in v1.6.4 or release 2?") == [
        "3.5", "1.6.4"]
    assert profile("In which year was version 3.5 of the caption package released?").strict_terms == ("3.5",)
    assert profile("What changed between version 1.3 and version 1.4?").either == ("1.3", "1.4")


def test_a_passage_not_naming_the_setting_asked_about_lacks_a_strict_term(minilm):
    # The false answer behind the rule: "If there are fewer than 10 warnings they are printed …" for a question about
    # the warning.length option, which the manual never gives a default for.
    q = Query("What is the default value of the warning.length option?", minilm)
    other = "If there are fewer than 10 warnings they are printed after the function has finished evaluating."
    named = "The warning.length option sets the truncation limit for error and warning messages; its default is 1000."
    found = assess(q, [filing(other), dataclasses.replace(filing(named), chunk_id="c2")], SentenceVectors(minilm))
    assert {p.hit.chunk_id: p.missing_strict for p in found.passages} == {"c1": ("warning.length",), "c2": ()}


def test_of_several_paths_a_question_names_one_is_enough(minilm):
    # The asker's own /opt/R is in no manual; the passage on the prefix names /usr/local.
    q = Query("I want R under /opt/R rather than /usr/local. Which configure option controls that?", minilm)
    body = "By default R installs under /usr/local. Use ./configure --prefix=/where/you/want/R/to/go instead."
    found = assess(q, [filing(body)], SentenceVectors(minilm))
    assert found.passages[0].missing_strict == ()
    alone = assess(Query("I want R under /opt/R. Which configure option controls that?", minilm), [filing(body)],
                   SentenceVectors(minilm))
    assert alone.passages[0].missing_strict == ("/opt/r",)


def test_a_fiscal_year_is_not_read_as_a_standard():
    assert profile("What was revenue in FY 2022?").strict_terms == ("2022",)
    assert profile("What does the 10-K say about FY2022?").strict_terms == ("10-k", "fy2022")
