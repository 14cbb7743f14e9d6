"""A page's text as pypdf reads it: dot leaders collapsed, NUL characters dropped."""

from rag_assets.ingest.pagetext import normalize_page_text
from rag_assets.ingest.tables import render_tables


def test_contents_dot_leaders_are_collapsed():
    assert normalize_page_text("3.2 Parental Leave ..................... 14") == "3.2 Parental Leave ... 14"


def test_nul_characters_a_pdf_extracts_are_dropped_as_postgresql_text_cannot_hold_them():
    assert normalize_page_text("Net\x00 income\x00") == "Net income"


def test_latex_bullets_are_read_as_bullets_not_as_a_table_column():
    # Layout text of the 4ti2 manual's page 5 as pypdf reads it: a bullet list whose bullet is U+0088.
    layout = ("functions:\n\n   \x88    qsolve, rays, circuits\n\n   \x88    zsolve, hilbert, graver, ppi\n\n"
              "   \x88    minimize, groebner, normalform\n\n   \x88    genmodel, markov\n\n"
              "1.1     Linear systems and their encodings")
    text = render_tables(normalize_page_text(layout))
    assert " | " not in text
    assert "•    qsolve, rays, circuits" in text


def test_tex_ligatures_read_as_control_characters_are_read_as_letters():
    # The GNU MathProg reference as pypdf reads it: OT1 codes for fi, ff and ffi in place of the ligatures.
    text = "A set may be speci\x0ced in the \x0cle; its e\x0bect is de\x0cned o\x0b-line with su\x0ecient care."
    assert normalize_page_text(text) == ("A set may be specified in the file; its effect is defined off-line with "
                                         "sufficient care.")
    # Away from letters a carriage return is a line's end.
    assert normalize_page_text("one line\r\nanother") == "one line\nanother"
