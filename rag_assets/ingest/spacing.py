"""Word breaks pypdf drops on some PDFs, put back where PDFium's text of the same page has them."""

from __future__ import annotations

import difflib
import logging

import pypdfium2 as pdfium

from rag_assets.ingest.pdfium_reader import read_with_pdfium

log = logging.getLogger("rag.ingest")

# PDFs that place each word by position and draw no space glyph come out of pypdf run together when the font declares
# a wide space ("Themaximumnumberofstudents" in a LaTeX manual; pypdf issues #1328 and #3341); PDFium, the engine of
# Chrome's viewer, infers the gaps from the glyphs' positions. A page is re-spaced when pypdf joins at least this share
# of the word breaks PDFium finds. Measured on 2026-12-07 over 70 PDFs (docs/decisions.md): 92 of the 101 pages of
# such a manual join more than that, 0.59 at the median, as do 176 of 193 in another and 300 of 468 in a Sphinx PDF;
# ordinary pages join none, or under 0.09 where formulas and tight citations ("al.,2017") are set without spaces.
MISSING_BREAKS = 0.1
# Aligning two readings that differ costs time quadratic in their length on repetitive text (60,000 characters of a
# dozen words took 96 s here): longer pages are re-spaced only where both readings hold the same characters in the
# same order (most pages of run-together PDFs: 58 of 101 and 176 of 193 in the two measured), which needs no alignment.
MAX_ALIGNED = 12_000
# Counting words first spares the alignment on pages where pypdf already splits as many words as PDFium.
WORD_RATIO = 0.95
# PDFium marks a hyphen it would drop at a line's end with U+FFFE; pypdf keeps the hyphen.
_SOFT_HYPHENS = str.maketrans({"\ufffe": "-", "\u00ad": "-"})


def pdfium_texts(data: bytes, pages: int | None = None) -> list[str] | None:
    """Every page's text as PDFium reads it; None, and nothing is re-spaced, when PDFium cannot open the file or
    counts other than `pages` pages."""

    def texts(document: pdfium.PdfDocument) -> list[str]:
        out = []
        for page in document:
            textpage = page.get_textpage()
            out.append(textpage.get_text_range().translate(_SOFT_HYPHENS))
            textpage.close()
            page.close()
        return out

    read = read_with_pdfium(data, texts, "its word breaks are not used")
    return read if read is not None and (pages is None or len(read) == pages) else None


def _characters(text: str) -> tuple[list[str], list[bool], list[int]]:
    """The visible characters, whether whitespace came before each, and each one's offset in the text."""
    chars, gaps, offsets = [], [], []
    gap = False
    for offset, char in enumerate(text):
        if char.isspace():
            gap = True
            continue
        chars.append(char)
        gaps.append(gap)
        offsets.append(offset)
        gap = False
    return chars, gaps, offsets


def joined_breaks(text: str, reference: str) -> tuple[list[int], int]:
    """Offsets in text where the reference breaks a word that text runs on, and how many breaks the reference has.
    Only breaks inside a stretch the two align on count: text they order differently gets none, rather than some in
    the wrong place."""
    ours, our_gaps, offsets = _characters(text)
    theirs, their_gaps, _ = _characters(reference)
    breaks = sum(their_gaps[i] and _word_break(theirs, i) for i in range(1, len(theirs)))
    if ours == theirs:
        blocks = [(0, 0, len(ours))]
    elif max(len(ours), len(theirs)) > MAX_ALIGNED:
        log.info("a page of %d characters read differently by pypdf and PDFium is left as pypdf reads it", len(ours))
        return [], breaks
    else:
        blocks = difflib.SequenceMatcher(None, ours, theirs, autojunk=False).get_matching_blocks()
    joins = []
    for a, b, size in blocks:
        for k in range(1, size):
            if their_gaps[b + k] and not our_gaps[a + k] and _word_break(ours, a + k):
                joins.append(offsets[a + k])
    return joins, breaks


def _word_break(chars: list[str], i: int) -> bool:
    # Between two marks a break parts no words: PDFium's dot leaders (". . . .") neither count as breaks, which would
    # let a contents page's many dots outweigh its joined titles, nor get spaces where ingest writes "...".
    return chars[i - 1].isalnum() or chars[i].isalnum()


def restore_spacing(text: str, reference: str | None) -> str:
    """The page's text with a space wherever the reference breaks a word, if the page runs its words together."""
    if not reference or len(text.split()) >= WORD_RATIO * len(reference.split()):
        return text
    joins, breaks = joined_breaks(text, reference)
    if not breaks or len(joins) < MISSING_BREAKS * breaks:
        return text
    out = list(text)
    for offset in reversed(joins):
        out.insert(offset, " ")
    return "".join(out)
