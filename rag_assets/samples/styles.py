"""Page geometry, paragraph styles and table style shared by every sample PDF."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import TableStyle

# Fixed PDF metadata; together with ``rl_config.invariant`` this makes every
# build byte-identical (reportlab then uses a fixed creation date and a
# content-derived document ID).
CREATOR = "Acme sample corpus generator"
PAGE_W, PAGE_H = LETTER
MARGIN_X = 1.4 * inch
MARGIN_TOP = 1.05 * inch
MARGIN_BOTTOM = 1.0 * inch

# Running header and footer text, shared by the flowing documents and the memo.
HEADER_FONT = ("Helvetica", 8.5)
HEADER_COLOR = colors.HexColor("#55606E")
HEADER_RULE_COLOR = colors.HexColor("#B8C0CC")
HEADER_Y = PAGE_H - 0.6 * inch
FOOTER_Y = 0.55 * inch

BODY = ParagraphStyle(
    "Body", fontName="Helvetica", fontSize=11, leading=17.75, spaceAfter=10, spaceBefore=0
)
INTRO = ParagraphStyle("Intro", parent=BODY, fontName="Helvetica-Oblique", spaceAfter=12)
BULLET = ParagraphStyle(
    "Bullet", parent=BODY, leftIndent=20, bulletIndent=6, spaceAfter=6, bulletFontName="Helvetica"
)
H1 = ParagraphStyle(
    "H1",
    fontName="Helvetica-Bold",
    fontSize=18,
    leading=23,
    spaceBefore=22,
    spaceAfter=14,
    keepWithNext=1,
    textColor=colors.HexColor("#1F3A5F"),
)
H2 = ParagraphStyle(
    "H2",
    fontName="Helvetica-Bold",
    fontSize=13,
    leading=17,
    spaceBefore=16,
    spaceAfter=8,
    keepWithNext=1,
    textColor=colors.HexColor("#1F3A5F"),
)
H3 = ParagraphStyle("H3", parent=H2, fontSize=11.5, leading=15, spaceBefore=12, spaceAfter=6)
TITLE = ParagraphStyle(
    "Title", fontName="Helvetica-Bold", fontSize=28, leading=34, alignment=TA_CENTER, spaceAfter=18
)
SUBTITLE = ParagraphStyle(
    "Subtitle", fontName="Helvetica", fontSize=15, leading=20, alignment=TA_CENTER, spaceAfter=10
)
CENTER = ParagraphStyle("Center", parent=BODY, alignment=TA_CENTER)
CELL = ParagraphStyle("Cell", fontName="Helvetica", fontSize=10, leading=13)
CELL_HEAD = ParagraphStyle("CellHead", parent=CELL, fontName="Helvetica-Bold")

TABLE_STYLE = TableStyle(
    [
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E3E8F0")),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#8C96A8")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
        ("LEFTPADDING", (0, 0), (-1, -1), 5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 5),
    ]
)


def toc_styles() -> tuple[list[ParagraphStyle], TableStyle]:
    """Level styles and table style for a table of contents."""
    # Fresh objects per document: TableOfContents appends styles to its list for deeper levels.
    levels = [
        ParagraphStyle(
            "TOC0", fontName="Helvetica-Bold", fontSize=9.5, leading=11,
            leftIndent=14, firstLineIndent=-14, spaceBefore=2.5,
        ),
        ParagraphStyle(
            "TOC1", fontName="Helvetica", fontSize=8.5, leading=9.6,
            leftIndent=30, firstLineIndent=-14,
        ),
    ]
    table = TableStyle(
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]
    )
    return levels, table
