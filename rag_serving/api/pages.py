"""The pages behind every citation: a page's text and the quote's boxes, the page as PNG or one-page PDF, and a viewer."""

# No `from __future__ import annotations`: FastAPI resolves the dependency annotations at definition time.

import html
import io
import re
from typing import Annotated
from urllib.parse import quote as urlquote

import pypdfium2 as pdfium
from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pypdf import PdfReader, PdfWriter

from rag_serving.answer.sentences import squish
from rag_serving.api.auth import page_caller
from rag_serving.api.errors import documented
from rag_serving.api.links import Caller, page_path
from rag_serving.api.schemas import PageOut
from rag_serving.api.state import State, public_base, state
from rag_serving.models.pdfium import PDFIUM_LOCK
from rag_serving.store.sqlfiles import sql_text

PDF = "application/pdf"
DocumentId = Annotated[str, Path(max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
PageNumber = Annotated[int, Path(ge=1, le=100_000, description="physical 1-based page")]
QuoteText = Annotated[str | None, Query(max_length=4000, description="text to find and highlight on the page")]

router = APIRouter(tags=["pages"], responses=documented(401, 404, 422))


def load_page(app: State, who: Caller, document_id: str, page: int) -> dict:
    """The page's row with its file's bytes, if the tenant can see the document; else 404 (never 403: whether another
    tenant has such a document is not this tenant's to know)."""
    with app.pipeline.database.session(who.tenant) as session:
        row = session.execute(sql_text("document_page"), {"document": document_id, "page": page},
                              binary=True).fetchone()
    if row is None:
        raise HTTPException(404, f"no page {page} in document {document_id} for this key")
    return row


def _pdf(row: dict) -> bytes:
    if row["media_type"] != PDF or row["content"] is None:
        raise HTTPException(404, f"document {row['document_id']} is {row['media_type']}: it has no PDF pages")
    return bytes(row["content"])


def one_page_pdf(content: bytes, page: int) -> bytes:
    reader = PdfReader(io.BytesIO(content))
    if reader.is_encrypted:
        reader.decrypt("")  # ingest read it the same way: only empty-password files get this far
    writer = PdfWriter()
    writer.add_page(reader.pages[page - 1])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def locate(text: str, quote: str) -> tuple[int, int] | None:
    """Where the quote is in text, [start, end), matched as quotes are checked (whitespace runs as one space), exact
    case first, then any case; None if it is not there."""
    kept, offsets, space = [], [], True
    for i, ch in enumerate(text):
        if ch.isspace():
            if not space:
                kept.append(" ")
                offsets.append(i)
            space = True
        else:
            kept.append(ch)
            offsets.append(i)
            space = False
    hay, needle = "".join(kept), squish(quote)
    if not needle:
        return None
    at = hay.find(needle)
    if at < 0:
        found = re.search(re.escape(needle), hay, re.IGNORECASE)  # indices stay those of hay, unlike casefold()
        at = found.start() if found else -1
    return (offsets[at], offsets[at + len(needle) - 1] + 1) if at >= 0 else None


def quote_boxes(textpage, width: float, height: float, quote: str) -> list[list[float]]:
    """The quote's line boxes on the page as fractions [left, top, right, bottom] (top-left origin); [] if PDFium's
    text of the page does not hold it (an OCR'd scan, a ligature the extractor spelled out)."""
    text = textpage.get_text_range()
    if len(text) != textpage.count_chars():
        return []  # generated characters: indices no longer line up with PDFium's
    span = locate(text, quote)
    if span is None:
        return []
    boxes = []
    for i in range(textpage.count_rects(span[0], span[1] - span[0])):
        left, bottom, right, top = textpage.get_rect(i)
        boxes.append([round(left / width, 4), round(1 - top / height, 4), round(right / width, 4),
                      round(1 - bottom / height, 4)])
    return boxes


def find_and_render(content: bytes, page: int, quote: str | None, width: int | None) -> tuple[list, bytes | None]:
    """The quote's boxes and, if width is given, the page as PNG at that width."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(content, password="")
        try:
            p = document[page - 1]
            w, h = p.get_size()
            boxes = []
            if quote:
                textpage = p.get_textpage()
                boxes = quote_boxes(textpage, w, h, quote)
                textpage.close()
            png = None
            if width:
                out = io.BytesIO()
                p.render(scale=width / w).to_pil().save(out, format="PNG", optimize=False)
                png = out.getvalue()
            p.close()
        finally:
            document.close()
    return boxes, png


def _urls(request: Request, document_id: str, page: int) -> tuple[str, str]:
    root = page_path(public_base(request), document_id, page)
    token = request.query_params.get("token")
    suffix = f"?token={urlquote(token, safe='')}" if token else ""
    return f"{root}/image{suffix}", f"{root}/pdf{suffix}"


@router.get("/documents/{document_id}/pages/{page}", response_model=PageOut,
            summary="A cited page: its text, where the quote is on it, and links to the page itself")
async def page_json(request: Request, document_id: DocumentId, page: PageNumber, quote: QuoteText = None,
                    app: State = Depends(state), who: Caller = Depends(page_caller)) -> PageOut:
    row = await run_in_threadpool(load_page, app, who, document_id, page)
    boxes = []
    if quote and row["media_type"] == PDF and row["content"] is not None:
        boxes, _ = await run_in_threadpool(find_and_render, bytes(row["content"]), page, quote, None)
    image, pdf = _urls(request, document_id, page)
    return PageOut(document_id=row["document_id"], title=row["title"], source_path=row["source_path"], page=page,
                   label=row["page_label"], page_count=row["page_count"], text=row["text"],
                   quote_found=(locate(row["text"], quote) is not None or bool(boxes)) if quote else None,
                   highlights=boxes, image=image, pdf=pdf)


@router.get("/documents/{document_id}/pages/{page}/pdf", response_class=Response,
            responses={200: {"content": {PDF: {}}, "description": "the page as a one-page PDF"}},
            summary="The page as a one-page PDF")
async def page_pdf(document_id: DocumentId, page: PageNumber, app: State = Depends(state),
                   who: Caller = Depends(page_caller)) -> Response:
    row = await run_in_threadpool(load_page, app, who, document_id, page)
    data = await run_in_threadpool(one_page_pdf, _pdf(row), page)
    name = f"{row['source_path'].rsplit('/', 1)[-1].removesuffix('.pdf')}-page-{page}.pdf"
    return Response(data, media_type=PDF, headers={"Content-Disposition": f'inline; filename="{urlquote(name)}"'})


@router.get("/documents/{document_id}/pages/{page}/image", response_class=Response,
            responses={200: {"content": {"image/png": {}}, "description": "the page rendered as PNG"}},
            summary="The page as a PNG image")
async def page_image(document_id: DocumentId, page: PageNumber,
                     width: Annotated[int, Query(ge=100, le=2000, description="pixels")] = 900,
                     app: State = Depends(state), who: Caller = Depends(page_caller)) -> Response:
    row = await run_in_threadpool(load_page, app, who, document_id, page)
    _, png = await run_in_threadpool(find_and_render, _pdf(row), page, None, width)
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


@router.get("/documents/{document_id}/pages/{page}/view", response_class=HTMLResponse,
            summary="The page for a person: its image with the quote boxed, and its text with the quote marked")
async def page_view(request: Request, document_id: DocumentId, page: PageNumber, quote: QuoteText = None,
                    app: State = Depends(state), who: Caller = Depends(page_caller)) -> HTMLResponse:
    row = await run_in_threadpool(load_page, app, who, document_id, page)
    is_pdf = row["media_type"] == PDF and row["content"] is not None
    boxes = (await run_in_threadpool(find_and_render, bytes(row["content"]), page, quote, None))[0] \
        if is_pdf and quote else []
    image, pdf = _urls(request, document_id, page)
    return HTMLResponse(viewer_html(row, page, quote, boxes, image if is_pdf else None, pdf if is_pdf else None,
                                    root=request.scope.get("root_path", "")))


def marked(text: str, quote: str | None) -> tuple[str, bool]:
    """The page text as HTML with the quote in <mark> (matched whitespace-insensitively), and whether it was found."""
    span = locate(text, quote) if quote else None
    if span is None:
        return html.escape(text), False
    first, last = span
    return (html.escape(text[:first]) + '<mark id="quote">' + html.escape(text[first:last]) + "</mark>"
            + html.escape(text[last:])), True


def viewer_html(row: dict, page: int, quote: str | None, boxes: list, image: str | None, pdf: str | None,
                root: str = "") -> str:
    body, found = marked(row["text"], quote)
    title = html.escape(f"{row['title']}, p. {row['page_label']}")
    overlay = "".join(f'<div class="box" style="left:{b[0]*100:.2f}%;top:{b[1]*100:.2f}%;width:{(b[2]-b[0])*100:.2f}%;'
                      f'height:{(b[3]-b[1])*100:.2f}%"></div>' for b in boxes)
    figure = (f'<figure class="page"><img src="{html.escape(image)}" alt="page {page}">{overlay}</figure>'
              if image else "")
    status = ("" if not quote else '<p class="found">The quoted text is marked below.</p>' if found
              else '<p class="missing">The quoted text was not found in this page\'s text.</p>')
    links = f'<a href="{html.escape(pdf)}">Open this page as PDF</a>' if pdf else ""
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="{html.escape(root)}/ui/viewer.css"></head>
<body><header><h1>{html.escape(row['title'])}</h1><p>Page {html.escape(row['page_label'])} (physical page {page}
of {row['page_count'] or '?'}) · {html.escape(row['source_path'])} · {links}</p>{status}</header>
<main>{figure}<section class="text"><h2>Page text</h2><pre data-page="{page}">{body}</pre></section></main></body></html>"""
