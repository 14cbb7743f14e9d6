"""A page's text as pypdf reads it: dot leaders collapsed, NUL characters dropped."""

from rag_assets.ingest.pagetext import normalize_page_text


def test_contents_dot_leaders_are_collapsed():
    assert normalize_page_text("3.2 Parental Leave ..................... 14") == "3.2 Parental Leave ... 14"


def test_nul_characters_a_pdf_extracts_are_dropped_as_postgresql_text_cannot_hold_them():
    assert normalize_page_text("Net\x00 income\x00") == "Net income"
