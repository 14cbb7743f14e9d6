"""The letter-size document template (running header, page labels, outline, TOC) and PDF build."""

from __future__ import annotations

import pathlib
from collections.abc import Sequence

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from rag_assets.samples import styles
from rag_assets.samples.blocks import Block, Heading, render


def roman(n: int) -> str:
    """Lower-case roman numeral, enough for front matter page labels."""
    out = ""
    for value, numeral in ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out += numeral
            n -= value
    return out


class DocTemplate(BaseDocTemplate):
    """Letter-size template with running header/footer, outline and page labels."""

    def __init__(
        self,
        filename: str,
        *,
        title: str,
        author: str,
        subject: str,
        header_left: str,
        header_right: str,
        outline: bool,
        front_matter_pages: int = 0,
    ) -> None:
        super().__init__(
            filename,
            pagesize=LETTER,
            leftMargin=styles.MARGIN_X,
            rightMargin=styles.MARGIN_X,
            topMargin=styles.MARGIN_TOP,
            bottomMargin=styles.MARGIN_BOTTOM,
            title=title,
            author=author,
            subject=subject,
            creator=styles.CREATOR,
            keywords="",
            invariant=1,
            pageCompression=1,
        )
        self.header_left = header_left
        self.header_right = header_right
        self.with_outline = outline
        self.front_matter_pages = front_matter_pages
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="main", frames=[frame], onPage=self._decorate)])

    def _label(self, index: int) -> str:
        if index < self.front_matter_pages:
            return roman(index + 1)
        return str(index + 1 - self.front_matter_pages)

    def _decorate(self, canv: rl_canvas.Canvas, doc: BaseDocTemplate) -> None:
        index = canv.getPageNumber() - 1
        if index == 0:
            # Page labels and outline visibility are document-wide; set them once.
            if self.front_matter_pages:
                canv.addPageLabel(0, "ROMAN_LOWER")
                canv.addPageLabel(self.front_matter_pages, "ARABIC", start=1)
            if self.with_outline:
                canv.showOutline()
        if index == 0 and self.front_matter_pages:
            return  # title page: no running header or footer
        canv.saveState()
        canv.setFont(*styles.HEADER_FONT)
        canv.setFillColor(styles.HEADER_COLOR)
        top = styles.HEADER_Y
        canv.drawString(styles.MARGIN_X, top, self.header_left)
        canv.drawRightString(styles.PAGE_W - styles.MARGIN_X, top, self.header_right)
        canv.setStrokeColor(styles.HEADER_RULE_COLOR)
        canv.setLineWidth(0.5)
        canv.line(styles.MARGIN_X, top - 5, styles.PAGE_W - styles.MARGIN_X, top - 5)
        canv.drawCentredString(styles.PAGE_W / 2, styles.FOOTER_Y, f"Page {self._label(index)}")
        canv.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, Heading):
            index = self.canv.getPageNumber() - 1
            if self.with_outline:
                self.canv.bookmarkPage(flowable.outline_key)
                self.canv.addOutlineEntry(
                    flowable.outline_title, flowable.outline_key, flowable.outline_level, closed=False
                )
            # TOC page numbers are the printed (arabic) labels, not physical page numbers.
            self.notify(
                "TOCEntry",
                (flowable.outline_level, flowable.outline_title, index + 1 - self.front_matter_pages,
                 flowable.outline_key),
            )


def build_pdf(
    path: pathlib.Path,
    blocks: Sequence[Block],
    *,
    title: str,
    author: str,
    subject: str,
    header_left: str,
    header_right: str,
    outline: bool,
    chapter_new_page: bool,
    front_matter_pages: int = 0,
) -> None:
    """Lay out blocks as a flowing document and write it to path."""
    doc = DocTemplate(
        str(path),
        title=title,
        author=author,
        subject=subject,
        header_left=header_left,
        header_right=header_right,
        outline=outline,
        front_matter_pages=front_matter_pages,
    )
    story = render(blocks, doc.width, chapter_new_page=chapter_new_page)
    # A table of contents needs a second pass to learn the page numbers of the headings.
    if any(b[0] == "toc" for b in blocks):
        doc.multiBuild(story)
    else:
        doc.build(story)
