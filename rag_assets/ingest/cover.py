"""Page one's lines with the height of their type and where they sit, as PDFium reads them: a title is set larger than
the text."""

from __future__ import annotations

import logging
from statistics import median

import pypdfium2 as pdfium

from rag_serving.models.pdfium import PDFIUM_LOCK

log = logging.getLogger("rag.ingest")

# A title sits at the top of page one; reading the first characters is enough and bounds the time on dense pages.
MAX_CHARACTERS = 6000
# PDFium marks a hyphen it drops at a line's end with U+FFFE, on the same line as the next: "AB\ufffeSTRACTION".
_SOFT_HYPHENS = str.maketrans({"\ufffe": None, "\u00ad": None})


def typeset_lines(data: bytes) -> list[tuple[float, float, str]]:
    """Page one's lines in PDFium's order as (height of the type in points, the median of the characters' font boxes;
    the line's top, in points below the page's top edge; text); empty when PDFium cannot read the page or it holds no
    text."""
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data, password="")
        except pdfium.PdfiumError as exc:
            log.info("PDFium cannot open the file (%s); its title is not read from its type sizes", exc)
            return []
        try:
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
                    if heights:
                        line = "".join(chars).translate(_SOFT_HYPHENS).strip()
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
        except Exception as exc:  # noqa: BLE001 - a page PDFium cannot read costs this hint, never the file
            log.info("PDFium cannot read page one (%s); its title is not read from its type sizes", exc)
            return []
        finally:
            document.close()
    return [(height, top, line) for height, top, line in lines if line]
