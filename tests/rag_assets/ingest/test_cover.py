"""Page one's lines as PDFium sets them: each line's type height and its place from the top."""

from rag_assets.ingest.cover import typeset_lines
from tests.pdfs import typeset_pdf


def test_each_line_comes_with_its_type_height_and_its_place_from_the_top():
    lines = typeset_lines(typeset_pdf([(24, "Forklift Safety Manual"), (10, "Read this before driving.")]))
    assert [line for _, _, line in lines] == ["Forklift Safety Manual", "Read this before driving."]
    (big, big_top, _), (small, small_top, _) = lines
    assert 2.0 < big / small < 2.8  # 24 pt against 10 pt, each box spanning its font's ascent and descent
    assert big_top < small_top  # the title sits higher on the page


def test_a_file_pdfium_cannot_open_gives_no_lines():
    assert typeset_lines(b"%PDF-1.4 not really") == []
