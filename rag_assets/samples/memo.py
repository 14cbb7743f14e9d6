"""The North Yard memo: text pages drawn one by one, plus a page that is only a scanned image."""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Frame

from rag_assets.samples import styles
from rag_assets.samples.blocks import Block, render


def scan_image(lines: Sequence[tuple[str, int]]) -> Image.Image:
    """Render a notice that is only present as an image (no text layer); lines are (text, font size)."""
    img = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((110, 110, 1590, 2090), outline=0, width=6)
    y = 260
    for text, size in lines:
        font = ImageFont.load_default(size=size)
        if text:  # an empty line is vertical space only
            draw.text((190, y), text, fill=0, font=font)
        y += int(size * 1.7)
    return img


def _text_page(canv: rl_canvas.Canvas, memo: dict[str, Any], blocks: Sequence[Block], page_no: int,
               page_count: int) -> None:
    canv.saveState()
    canv.setFont(*styles.HEADER_FONT)
    canv.setFillColor(styles.HEADER_COLOR)
    canv.drawString(styles.MARGIN_X, styles.HEADER_Y, memo["header_left"])
    canv.drawRightString(styles.PAGE_W - styles.MARGIN_X, styles.HEADER_Y, memo["header_right"])
    canv.drawCentredString(styles.PAGE_W / 2, styles.FOOTER_Y, f"Page {page_no} of {page_count}")
    canv.restoreState()
    frame = Frame(
        styles.MARGIN_X, styles.MARGIN_BOTTOM,
        styles.PAGE_W - 2 * styles.MARGIN_X, styles.PAGE_H - styles.MARGIN_TOP - styles.MARGIN_BOTTOM,
        leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
    )
    story = render(blocks, frame._aW, chapter_new_page=False)
    frame.addFromList(story, canv)
    # A memo page has no overflow page to flow onto, so text that does not fit is an error.
    if story:  # pragma: no cover - content is sized to fit one page
        raise RuntimeError(f"memo page {page_no} content does not fit on one page")


def build_memo(path: pathlib.Path, memo: dict[str, Any]) -> None:
    """Write the memo; each page of memo["pages"] has either "blocks" or "scan" (image lines)."""
    canv = rl_canvas.Canvas(str(path), pagesize=LETTER, invariant=1, pageCompression=1)
    canv.setTitle(memo["title"])
    canv.setAuthor(memo["author"])
    canv.setSubject(memo["subject"])
    canv.setCreator(styles.CREATOR)
    pages = memo["pages"]
    for page_no, page in enumerate(pages, start=1):
        if "scan" in page:
            # The whole page is one image with no text operators, like a scanned sheet.
            image = ImageReader(scan_image(page["scan"]))
            canv.drawImage(image, 0, 0, width=styles.PAGE_W, height=styles.PAGE_H)
        else:
            _text_page(canv, memo, page["blocks"], page_no, len(pages))
        canv.showPage()
    canv.save()
