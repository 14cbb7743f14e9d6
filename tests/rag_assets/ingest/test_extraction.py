"""Extraction: page labels, bad input each with its own clear error, encryption, OCR of image-only pages."""

import pytest

from rag_assets.ingest import extraction as ex
from tests.pdfs import encrypted, pdf_with_image_page, text_pdf, zero_page_pdf

GOOD = text_pdf(["Title page", "Contents", "Chapter one text", "Chapter two text"], roman_front=2)


def test_roman_front_matter_labels_come_out_as_printed():
    doc = ex.extract("book.pdf", GOOD)
    assert [p.label for p in doc.pages] == ["i", "ii", "1", "2"]
    assert [p.index for p in doc.pages] == [1, 2, 3, 4]


def test_page_text_is_extracted_per_physical_page():
    doc = ex.extract("book.pdf", GOOD)
    assert doc.pages[2].text == "Chapter one text"
    assert all(p.has_text_layer for p in doc.pages)


def test_outline_entries_keep_levels_and_pages():
    pdf = text_pdf(["1 Intro", "2 Benefits", "2.1 Leave"], outline=[("1 Intro", 0, 0), ("2 Benefits", 0, 1), ("2.1 Leave", 1, 2)])
    doc = ex.extract("o.pdf", pdf)
    assert [(e.title, e.level, e.page_index) for e in doc.outline] == [("1 Intro", 1, 1), ("2 Benefits", 1, 2), ("2.1 Leave", 2, 3)]


def test_empty_file_is_rejected_with_its_name():
    with pytest.raises(ex.EmptyFile, match=r"empty\.pdf: file is empty"):
        ex.extract("empty.pdf", b"")


def test_non_pdf_named_pdf_is_rejected():
    with pytest.raises(ex.NotAPdf, match=r"notes\.pdf: not a PDF"):
        ex.extract("notes.pdf", b"Hello, this is a text file\n" * 20)


def test_truncated_pdf_is_rejected():
    with pytest.raises(ex.TruncatedPdf, match=r"cut\.pdf: truncated PDF"):
        ex.extract("cut.pdf", GOOD[: len(GOOD) // 2])


def test_corrupt_pdf_is_rejected():
    garbage = b"%PDF-1.4\n" + bytes(range(256)) * 20 + b"\n%%EOF\n"
    with pytest.raises(ex.CorruptPdf, match=r"junk\.pdf"):
        ex.extract("junk.pdf", garbage)


def test_zero_page_pdf_is_rejected():
    with pytest.raises(ex.NoPages, match=r"none\.pdf: PDF has zero pages"):
        ex.extract("none.pdf", zero_page_pdf())


def test_aes_encrypted_pdf_with_empty_user_password_opens():
    doc = ex.extract("locked.pdf", encrypted(GOOD, user_password=""))
    assert doc.pages[2].text == "Chapter one text"


def test_pdf_with_real_password_gives_clear_error():
    with pytest.raises(ex.PasswordProtectedPdf, match=r"secret\.pdf: encrypted with a password"):
        ex.extract("secret.pdf", encrypted(GOOD, user_password="hunter2"))


def test_unsupported_suffix_is_rejected():
    with pytest.raises(ex.UnsupportedFileType, match=r"sheet\.xlsx"):
        ex.extract("sheet.xlsx", b"PK\x03\x04")


def test_markdown_is_one_page_per_form_feed():
    doc = ex.extract("faq.md", "# FAQ\n\nQ1\n\fSecond page".encode())
    assert [p.text for p in doc.pages] == ["# FAQ\n\nQ1", "Second page"]
    assert [p.label for p in doc.pages] == ["1", "2"]


def test_image_only_page_is_detected_as_without_text_layer():
    pdf = pdf_with_image_page("Memo page one", ["GATE CODE 4417"])
    doc = ex.read_pdf("memo.pdf", pdf)
    assert doc.pages[0].has_text_layer and not doc.pages[0].needs_ocr
    assert not doc.pages[1].has_text_layer and doc.pages[1].needs_ocr


def test_image_only_page_is_ocred_and_marked():
    assert ex.ocr_available(), "tesseract must be installed (make sysdeps)"
    pdf = pdf_with_image_page("Memo page one", ["GATE CODE 4417", "FORKLIFT BAY SEVEN"])
    doc = ex.extract("memo.pdf", pdf, ocr_enabled=True)
    page = doc.pages[1]
    assert page.ocr and not page.unreadable
    assert "4417" in page.text and "FORKLIFT" in page.text.upper()
    assert doc.pages[0].text == "Memo page one" and not doc.pages[0].ocr


def test_image_only_page_without_ocr_is_unreadable_with_warning_not_silently_empty():
    pdf = pdf_with_image_page("Memo page one", ["GATE CODE 4417"])
    doc = ex.extract("memo.pdf", pdf, ocr_enabled=False)
    assert doc.pages[1].unreadable and doc.pages[1].text == ""
    assert any("memo.pdf: page 2" in w and "unreadable" in w for w in doc.warnings)


def test_page_over_pypdf_safety_limit_is_unreadable_and_the_rest_still_reads():
    from pypdf._configuration import CURRENT_CONFIGURATION, get_configuration

    busy = "\n".join(f"line {i} of a very busy page" for i in range(40))
    pdf = text_pdf(["Quiet page one", busy, "Quiet page three"])
    # A real MMLongBench PDF trips pypdf's 2,000,000-token budget on one page; a small budget
    # reproduces that on a page we built.
    token = CURRENT_CONFIGURATION.set(get_configuration().with_overwrites(stream_parsing_work_maximum_count=400))
    try:
        doc = ex.extract("busy.pdf", pdf)
    finally:
        CURRENT_CONFIGURATION.reset(token)
    assert [p.unreadable for p in doc.pages] == [False, True, False]
    assert doc.pages[2].text == "Quiet page three"
    assert any("busy.pdf: page 2" in w and "safety limits" in w for w in doc.warnings)


def test_ocr_leaves_the_process_stderr_as_it_found_it():
    import sys

    stderr = sys.stderr
    ex.ocr_pages("memo.pdf", pdf_with_image_page("Memo page one", ["GATE CODE 4417"]), [2])
    assert sys.stderr is stderr  # ocrmypdf's progress display had left it a buffer, swallowing later log lines


def test_pages_ocred_side_by_side_read_as_they_do_one_at_a_time():
    pdf = pdf_with_image_page("Memo page one", ["GATE CODE 4417"], ["FORKLIFT BAY SEVEN"], ["DOCK 12 OPENS AT 6"])
    alone = ex.ocr_pages("memo.pdf", pdf, [2, 3, 4], jobs=1)
    assert "4417" in alone[2] and "SEVEN" in alone[3].upper() and "DOCK" in alone[4].upper()
    assert ex.ocr_pages("memo.pdf", pdf, [2, 3, 4], jobs=3) == alone
