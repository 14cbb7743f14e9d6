"""Page one's lines with the height of their type and where they sit, as PDFium reads them: a title is set larger than
the text."""

from __future__ import annotations

from statistics import median

import pypdfium2 as pdfium

from rag_assets.ingest.pdfium_reader import read_with_pdfium

# A title sits at the top of page one; reading the first characters is enough and bounds the time on dense pages.
MAX_CHARACTERS = 6000
# PDFium marks a hyphen it drops at a line's end with U+FFFE, on the same line as the next: "AB\ufffeSTRACTION".
_SOFT_HYPHENS = str.maketrans({"\ufffe": None, "\u00ad": None})


def typeset_lines(data: bytes) -> list[tuple[float, float, str]]:
    """Page one's lines in PDFium's order as (height of the type in points, the median of the characters' font boxes;
    the line's top, in points below the page's top edge; text); empty when PDFium cannot read the page or it holds no
    text."""
    return read_with_pdfium(data, _first_page_lines, "its title is not read from its type sizes") or []


def _first_page_lines(document: pdfium.PdfDocument) -> list[tuple[float, float, str]]:
    if not len(document):
        return []
    page = document[0]
    page_top = page.get_height()
    textpage = page.get_textpage()
    count = min(textpage.count_chars(), MAX_CHARACTERS)
    text = textpage.get_text_range(0, count)
    lines, heights, tops, chars = [], [], [], []
    for i, char in enumerate(text[:count] + "\n"):
        if char in "\r\n":
            line = "".join(chars).translate(_SOFT_HYPHENS).strip()
            if heights and line:
                lines.append((round(median(heights), 1), round(page_top - max(tops), 1), line))
            heights, tops, chars = [], [], []
            continue
        chars.append(char)
        if not char.isspace():
            _, bottom, _, top = textpage.get_charbox(i, loose=True)
            heights.append(top - bottom)
            tops.append(top)
    textpage.close()
    page.close()
    return lines
