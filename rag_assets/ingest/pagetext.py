"""A PDF page's text as pypdf reads it: layout mode (two columns read one after the other), plain mode where that comes
out thin, dot leaders collapsed."""

from __future__ import annotations

import re
import textwrap

from pypdf.errors import LimitReachedError

from rag_assets.ingest.columns import split_columns
from rag_assets.ingest.tables import render_tables
from rag_serving.answer.sentences import LEADER

# Below this many visible characters a layout-mode page is re-read in plain mode.
THIN_PAGE_CHARS = 200


# Contents pages draw dot leaders ("Parental Leave ........ 14"); hundreds of dots are hundreds of
# tokens of noise for chunking and search.
DOT_LEADER = re.compile(r"[ \t]*(?:\.[ \t]*){4,}")  # "....." and ".  .  .  ." alike


# LaTeX's bullet, as pypdf maps it from many TeX fonts: a C1 control character that the table reader would take for
# a first column ("\x88   qsolve, rays" read as a row " | qsolve, rays").
_TEX_BULLET = "\x88"
# TeX's ligatures as pypdf reads them from a font in TeX's OT1 encoding with no Unicode map: the glyph's code, a control
# character, inside a word ("speci\x0ced" for "specified", "\x0cle" for "file"). Away from letters they are what they
# are (a form feed, a carriage return).
_OT1_LIGATURES = {"\x0b": "ff", "\x0c": "fi", "\x0d": "fl", "\x0e": "ffi", "\x0f": "ffl"}
_OT1_LIGATURE = re.compile(r"(?<=[A-Za-z])[\x0b-\x0f](?=[a-z])|(?<![A-Za-z])[\x0b-\x0f](?=[a-z]{2})|"
                           r"(?<=[a-z])[\x0b\x0e\x0f](?![A-Za-z])")  # "o\x0b" is "off"; a line may end in "\r"


def normalize_page_text(text: str) -> str:
    # A PDF's broken font map can extract NUL characters, which PostgreSQL text cannot hold.
    text = _OT1_LIGATURE.sub(lambda m: _OT1_LIGATURES[m.group(0)], text)
    text = DOT_LEADER.sub(LEADER, text.replace("\x00", "").replace(_TEX_BULLET, "•"))
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    text = textwrap.dedent("\n".join(lines))
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


def _visible_chars(text: str) -> int:
    return len(text) - text.count(" ") - text.count("\n")


def page_text(page) -> str:
    """The page's text from pypdf: layout mode, or plain mode where layout mode finds almost nothing."""
    # Layout mode keeps table rows on one line and blank lines around headings and paragraphs,
    # which the section detector and the chunker's snapping rely on; its column alignment is what
    # render_tables reads a table's cells from. On some PDFs (LaTeX papers with
    # Type 3 fonts) it returns almost nothing, so a thin result is checked against plain mode.
    try:
        layout = normalize_page_text(page.extract_text(extraction_mode="layout"))
    except LimitReachedError:
        raise
    except Exception:  # noqa: BLE001 - layout mode fails on some odd fonts; plain mode is the fallback
        layout = ""
    if _visible_chars(layout) >= THIN_PAGE_CHARS:
        return render_tables(split_columns(layout))
    try:
        plain = normalize_page_text(page.extract_text())
    except LimitReachedError:
        raise
    except Exception:  # noqa: BLE001
        plain = ""
    return plain if _visible_chars(plain) > _visible_chars(layout) else render_tables(split_columns(layout))
