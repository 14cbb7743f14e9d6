"""Whether a page's text layer says what the page shows, or the page must be read from its picture (OCR)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from rag_assets.ingest.pdfium_reader import read_with_pdfium

# A font with no map to Unicode leaves pypdf its glyph names ("/G44/G49/G52" for "DIR") and PDFium control
# characters: the page's words are drawn, but its text layer holds none of them.
_GLYPH_NAMES = re.compile(r"(?:/[A-Za-z]{1,3}[0-9A-F]{2,4}){2,}")
# A layer this much made of such characters is unreadable. Pages read from sound fonts hold next to none; the seven
# such pages of a company's annual report found on 2026-12-07 were all but wholly glyph names.
JUNK_SHARE = 0.5
# A scan that a court's filing system, a Bates stamp or a watermark has stamped: one picture covers the page and the
# text layer holds only the stamp ("Case 2:18-cv-12857 … Page 1 of 16", 12 words). Over the 2,691 pages of 54 public
# PDFs (2026-12-07; in the golden corpus, one such page, the scanned memo), pages under an image of at least half their
# area held 0-29 words (220 pages: scans, slides, photo captions) or 70 and more (text set over a background picture);
# none held 30-69.
SCAN_COVER = 0.5
THIN_WORDS = 30
# Such a page's OCR replaces its layer only if it reads as words. Of 26 such pages of five public PDFs OCRed on
# 2026-12-07, a photograph gave 0.20 of its tokens as words ("us y ’ + ; [itn ; J t i WO A ) HP}"), printed text
# 0.67-0.99.
WORDY = 0.5


def junk_share(text: str) -> float:
    """The share of a text's visible characters that are glyph names, control characters or replacement marks."""
    visible = sum(not c.isspace() for c in text)
    if not visible:
        return 0.0
    junk = sum(len(m.group(0)) for m in _GLYPH_NAMES.finditer(text))
    rest = _GLYPH_NAMES.sub("", text)
    junk += sum(not c.isspace() and (c == "\ufffd" or unicodedata.category(c) in ("Cc", "Co", "Cs")) for c in rest)
    return junk / visible


def readable(text: str) -> bool:
    """The text layer holds words, not glyph names or control characters."""
    return bool(text.strip()) and junk_share(text) < JUNK_SHARE


def thin(text: str) -> bool:
    """A text layer of a few words: a stamp, a page number, a caption."""
    return bool(text.strip()) and len(text.split()) < THIN_WORDS


def image_cover(data: bytes, pages: Sequence[int]) -> dict[int, float] | None:
    """The largest picture on each of the given pages (physical, 1-based) as a share of the page's area; None when
    PDFium cannot read the file. Walking a page's objects is slow on busy pages, so only pages that need it are asked."""

    def covers(document: pdfium.PdfDocument) -> dict[int, float]:
        out = {}
        for index in pages:
            page = document[index - 1]
            width, height = page.get_size()
            best = 0.0
            for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
                left, bottom, right, top = image.get_bounds()
                shown = max(0.0, min(right, width) - max(left, 0.0)) * max(0.0, min(top, height) - max(bottom, 0.0))
                best = max(best, shown / (width * height) if width * height else 0.0)
            out[index] = best
            page.close()
        return out

    return read_with_pdfium(data, covers, "thin text layers over scans are not looked for")


def ocr_reason(text: str, has_images: bool, cover: float) -> str | None:
    """Why the page must be read from its picture, or None when its text layer can be trusted."""
    if not text.strip():
        return "has no text layer" if has_images else None
    if junk_share(text) >= JUNK_SHARE:
        return "has a text layer of glyph names or control characters"
    if cover >= SCAN_COVER and thin(text):
        return f"is a picture under a text layer of {len(text.split())} words"
    return None


def _reads_as_word(token: str) -> bool:
    core = token.strip("\"'“”‘’()[]{}<>.,;:!?*|•-")
    return core.isdigit() or (len(core) >= 2 and sum(c.isalnum() for c in core) >= 0.7 * len(core))


def wordy_share(text: str) -> float:
    """The share of a text's tokens that read as words, numbers or codes: OCR of a photograph gives stray marks."""
    tokens = text.split()
    return sum(_reads_as_word(t) for t in tokens) / len(tokens) if tokens else 0.0
