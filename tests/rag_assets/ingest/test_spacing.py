"""Word breaks pypdf drops, restored from PDFium's reading of the same page."""

import io
from concurrent.futures import ThreadPoolExecutor

from pypdf import PdfReader

from rag_assets.ingest import extraction as ex
from rag_assets.ingest import spacing
from rag_assets.ingest.spacing import MAX_ALIGNED, MISSING_BREAKS, pdfium_texts, restore_spacing
from rag_serving.answer.sentences import LEADER
from tests.pdfs import kerned_words_pdf, text_pdf

LINES = ["The maximum number of students per test is limited to 4,095.", "Each copy gets its own number."]
UNSPACED = kerned_words_pdf(LINES)


def test_pypdf_alone_runs_the_words_of_such_a_pdf_together():
    # The condition the module exists for; if a pypdf release fixes it, this fails and the module can go.
    assert "Themaximumnumberofstudents" in PdfReader(io.BytesIO(UNSPACED)).pages[0].extract_text()


def test_extracted_page_has_its_words_apart():
    page = ex.extract("amc.pdf", UNSPACED).pages[0]
    assert page.text == "\n".join(LINES)
    assert page.respaced


def test_a_well_spaced_pdf_reads_as_pypdf_reads_it():
    doc = ex.extract("plain.pdf", text_pdf(["Chapter one text\nSecond line here"]))
    assert doc.pages[0].text == "Chapter one text\nSecond line here"
    assert not doc.pages[0].respaced


def test_layout_spaces_and_line_breaks_stay_and_only_missing_breaks_are_added():
    text = "Code:    Givea positive\n     integervalue n."
    assert restore_spacing(text, "Code: Give a positive integer value n.") == "Code:    Give a positive\n     integer value n."


def test_a_page_missing_few_breaks_is_left_alone():
    words = [f"word{n}" for n in range(20)]
    reference = " ".join(words)
    text = reference.replace("word3 word4", "word3word4")  # 1 of 19 breaks missing
    assert 1 / 19 < MISSING_BREAKS
    assert restore_spacing(text, reference) == text


def test_no_reference_means_no_change():
    assert restore_spacing("Runtogether words", None) == "Runtogether words"


def test_dot_leaders_keep_their_form():
    text = f"Mailingexams{LEADER}51"
    assert restore_spacing(text, "Mailing exams . . . 51") == f"Mailing exams{LEADER}51"


def test_text_the_two_order_differently_gets_no_breaks_from_the_wrong_place():
    # pypdf and PDFium can read a two-column page in different orders: the stretch they align on (the longer) is
    # re-spaced, and the other is left as pypdf reads it rather than broken where some other text breaks.
    text = "leftcolumn words\nrightcolumnhere words"
    reference = "right column here words left column words"
    assert restore_spacing(text, reference) == "leftcolumn words\nright column here words"


def test_an_unopenable_file_gives_no_reference():
    assert pdfium_texts(b"%PDF-1.4 not really") is None


def test_pdfium_reads_from_many_threads_alike():
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: pdfium_texts(UNSPACED), range(16)))
    assert all(r == results[0] for r in results)
    assert results[0][0].split() == " ".join(LINES).split()


def test_a_contents_page_is_re_spaced_whatever_its_dot_leaders():
    # PDFium reads each leader dot as a word; were those breaks counted, 4 joined titles would fall under the share.
    dots = " ".join(["."] * 40)
    reference = f"5.1 A simple example {dots} 14\n5.2 An example with groups {dots} 15"
    text = f"5.1 Asimpleexample{LEADER}14\n5.2 Anexamplewithgroups{LEADER}15"
    assert restore_spacing(text, reference) == f"5.1 A simple example{LEADER}14\n5.2 An example with groups{LEADER}15"


def test_a_long_page_read_alike_is_re_spaced_without_aligning():
    reference = " ".join(f"word{n % 50}" for n in range(3_000))  # over MAX_ALIGNED characters
    assert len(reference) > MAX_ALIGNED
    assert restore_spacing(reference.replace(" ", ""), reference) == reference


def test_a_long_page_read_differently_is_left_as_pypdf_reads_it(monkeypatch):
    # Aligning it would take minutes: the test fails if the alignment is even started.
    monkeypatch.setattr(spacing.difflib, "SequenceMatcher", None)
    reference = " ".join(f"word{n % 50}" for n in range(3_000))
    text = "Extra " + reference.replace(" ", "")  # one word more than PDFium read, so the two must be aligned
    assert restore_spacing(text, reference) == text


def test_a_reading_with_another_page_count_is_not_used():
    assert pdfium_texts(UNSPACED, 1) is not None
    assert pdfium_texts(UNSPACED, 2) is None


def test_a_page_pdfium_cannot_read_costs_the_re_spacing_not_the_file(monkeypatch):
    def fail(self):
        raise RuntimeError("broken content stream")

    monkeypatch.setattr(spacing.pdfium.PdfPage, "get_textpage", fail)
    assert pdfium_texts(UNSPACED, 1) is None
    page = ex.extract("amc.pdf", UNSPACED).pages[0]
    assert "Themaximumnumberofstudents" in page.text and not page.respaced
