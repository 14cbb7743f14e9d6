"""Turns the small block language of the document data files into reportlab flowables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table
from reportlab.platypus.tableofcontents import TableOfContents

from rag_assets.samples import styles

# A block is a tuple whose first item is its kind, e.g. ("h2", "3.1", "Health Insurance").
Block = tuple[Any, ...]


class Heading(Paragraph):
    """A numbered heading that becomes an outline entry (and TOC entry)."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str) -> None:
        super().__init__(text, style)
        self.outline_title = text
        self.outline_level = level
        self.outline_key = key


def esc(text: str) -> str:
    """Escape bare ampersands for reportlab's paragraph markup."""
    return text.replace(" & ", " &amp; ")


def table(
    header: Sequence[str], rows: Sequence[Sequence[str]], fracs: Sequence[float], width: float
) -> Table:
    """A table with a shaded header row repeated on every page; fracs are column widths."""
    data = [[Paragraph(esc(h), styles.CELL_HEAD) for h in header]]
    data += [[Paragraph(esc(c), styles.CELL) for c in row] for row in rows]
    t = Table(data, colWidths=[f * width for f in fracs], repeatRows=1, hAlign="LEFT")
    t.setStyle(styles.TABLE_STYLE)
    t.spaceBefore = 4
    t.spaceAfter = 12
    return t


def _toc() -> TableOfContents:
    toc = TableOfContents()
    toc.levelStyles, toc.tableStyle = styles.toc_styles()
    toc.dotsMinLevel = 0
    return toc


# Block kinds that are a single paragraph of text, and their style.
_TEXT_STYLES = {
    "h3": styles.H3,  # unnumbered minor heading, not in the outline
    "p": styles.BODY,
    "intro": styles.INTRO,
    "title": styles.TITLE,
    "subtitle": styles.SUBTITLE,
    "center": styles.CENTER,
}


def render(blocks: Sequence[Block], width: float, *, chapter_new_page: bool) -> list[Flowable]:
    """Turn blocks into flowables; width is the frame width that table columns divide."""
    story: list[Flowable] = []
    seen_chapter = False
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2"):
            if kind == "h1":
                if chapter_new_page and seen_chapter:
                    story.append(PageBreak())
                seen_chapter = True
            num, title = block[1], block[2]
            style, level = (styles.H1, 0) if kind == "h1" else (styles.H2, 1)
            story.append(Heading(f"{num} {title}", style, level, "sec-" + num.replace(".", "-")))
        elif kind in _TEXT_STYLES:
            story.append(Paragraph(esc(block[1]), _TEXT_STYLES[kind]))
        elif kind == "ul":
            for item in block[1]:
                story.append(Paragraph(esc(item), styles.BULLET, bulletText="-"))
            story.append(Spacer(1, 4))
        elif kind == "table":
            story.append(KeepTogether([table(block[1], block[2], block[3], width)]))
        elif kind == "spacer":
            story.append(Spacer(1, block[1]))
        elif kind == "break":
            story.append(PageBreak())
        elif kind == "toc":
            story.append(_toc())
        else:  # pragma: no cover - a typo in a data file
            raise ValueError(f"unknown block kind {kind!r}")
    return story
