"""Turns a stored file (PDF, Markdown, plain text) into pages with printed labels, an outline, and OCR where needed."""

from __future__ import annotations

import io
import logging
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PdfReadError

from rag_assets.ingest.cover import typeset_lines
from rag_assets.ingest.furniture import printed_labels, strip_furniture
from rag_assets.ingest.layers import WORDY, image_cover, ocr_reason, readable, thin, wordy_share
from rag_assets.ingest.pagetext import normalize_page_text, page_text
from rag_assets.ingest.spacing import pdfium_texts, restore_spacing

log = logging.getLogger("rag.ingest")
# pypdf reports recoverable oddities (rotated text, wrong xref pointers) at WARNING on every page.
logging.getLogger("pypdf").setLevel(logging.ERROR)

PDF = "application/pdf"
MARKDOWN = "text/markdown"
PLAIN = "text/plain"
SUFFIX_TYPES = {".pdf": PDF, ".md": MARKDOWN, ".markdown": MARKDOWN, ".txt": PLAIN, ".text": PLAIN}
PDF_MAGIC = b"%PDF-"
EOF_MARKER = b"%%EOF"
# Writers append whitespace or garbage after %%EOF; a complete file still has it near the end.
EOF_SEARCH_BYTES = 4096


class IngestError(Exception):
    """An input problem with one file; it fails that file alone and names it."""

    stage = "validate"

    def __init__(self, file_name: str, message: str):
        super().__init__(f"{file_name}: {message}")
        self.file_name = file_name


class UnsupportedFileType(IngestError):
    pass


class EmptyFile(IngestError):
    pass


class NotAPdf(IngestError):
    pass


class TruncatedPdf(IngestError):
    pass


class CorruptPdf(IngestError):
    pass


class PasswordProtectedPdf(IngestError):
    pass


class NoPages(IngestError):
    pass


class NotUtf8Text(IngestError):
    pass


class OcrUnavailable(RuntimeError):
    pass


@dataclass
class ExtractedPage:
    index: int  # physical, 1-based
    label: str  # printed page label
    text: str
    has_text_layer: bool
    ocr_reason: str | None = None  # why the page is read from its picture (`layers.ocr_reason`)
    ocr: bool = False
    unreadable: bool = False
    respaced: bool = False  # words pypdf ran together were set apart (`spacing.restore_spacing`)

    @property
    def needs_ocr(self) -> bool:
        return self.ocr_reason is not None


@dataclass(frozen=True)
class OutlineEntry:
    title: str
    level: int  # 1 = top level
    page_index: int  # physical, 1-based


@dataclass
class ExtractedDocument:
    media_type: str
    pages: list[ExtractedPage]
    outline: list[OutlineEntry] = field(default_factory=list)
    pdf_title: str | None = None
    warnings: list[str] = field(default_factory=list)
    labels_declared: bool = True  # False: the PDF has no /PageLabels, so labels are physical until footers say more
    # Page one as printed, running header included: a header repeating the document's name on every page is
    # furniture on the others, but on page one it is often the only place the title is printed.
    cover: str = ""
    # Page one's lines with their type's height and place (`cover.typeset_lines`): a title is set larger than the text.
    typeset: list[tuple[float, float, str]] = field(default_factory=list)


def media_type_for(file_name: str) -> str:
    suffix = Path(file_name).suffix.lower()
    if suffix not in SUFFIX_TYPES:
        raise UnsupportedFileType(file_name, f"unsupported file type {suffix or '(none)'}; expected one of {sorted(SUFFIX_TYPES)}")
    return SUFFIX_TYPES[suffix]


def validate_pdf_bytes(file_name: str, data: bytes) -> None:
    if not data:
        raise EmptyFile(file_name, "file is empty (0 bytes)")
    if PDF_MAGIC not in data[:1024]:
        head = data[:16].decode("latin-1").encode("unicode_escape").decode()
        raise NotAPdf(file_name, f"not a PDF: no %PDF- header (file starts with {head!r})")
    if EOF_MARKER not in data[-EOF_SEARCH_BYTES:]:
        raise TruncatedPdf(file_name, f"truncated PDF: no %%EOF marker at the end of {len(data)} bytes")


def open_pdf(file_name: str, data: bytes) -> PdfReader:
    validate_pdf_bytes(file_name, data)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            # Many PDFs are "encrypted" with an empty user password only to set permissions.
            if not reader.decrypt(""):
                raise PasswordProtectedPdf(file_name, "encrypted with a password; supply an unencrypted copy")
        page_count = len(reader.pages)
    except IngestError:
        raise
    except (FileNotDecryptedError,) as exc:
        raise PasswordProtectedPdf(file_name, f"encrypted with a password: {exc}") from exc
    except DependencyError as exc:
        raise CorruptPdf(file_name, f"cannot decrypt: {exc}") from exc
    except LimitReachedError as exc:
        raise CorruptPdf(file_name, f"exceeds pypdf's safety limits: {exc}") from exc
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        raise CorruptPdf(file_name, f"corrupt PDF: {type(exc).__name__}: {exc}") from exc
    if page_count == 0:
        raise NoPages(file_name, "PDF has zero pages")
    return reader


def _has_images(page) -> bool:
    try:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if xobjects is None:
            return False
        xobjects = xobjects.get_object()
        return any(xobjects[name].get_object().get("/Subtype") in ("/Image", "/Form") for name in xobjects)
    except Exception:  # noqa: BLE001 - a broken resource dictionary means no usable image either
        return False


def _page_labels(reader: PdfReader, count: int) -> list[str] | None:
    """The labels the PDF declares (/PageLabels), or None when it declares none."""
    try:
        if "/PageLabels" not in reader.trailer["/Root"]:
            return None
        labels = list(reader.page_labels)
        if len(labels) == count:
            return [str(label) for label in labels]
    except Exception:  # noqa: BLE001 - a malformed /PageLabels tree: fall back to physical numbers
        pass
    return None


def read_outline(reader: PdfReader) -> list[OutlineEntry]:
    entries: list[OutlineEntry] = []

    def walk(items, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
                title = " ".join(str(item.title).replace("\x00", "").split())
            except Exception:  # noqa: BLE001 - a bookmark pointing nowhere is skipped
                continue
            if page is not None and page >= 0 and title:
                entries.append(OutlineEntry(title=title, level=level, page_index=page + 1))

    try:
        walk(reader.outline, 1)
    except Exception:  # noqa: BLE001
        return []
    return entries


def read_pdf(file_name: str, data: bytes, progress: Callable[[int, int], None] | None = None) -> ExtractedDocument:
    reader = open_pdf(file_name, data)
    count = len(reader.pages)
    declared = _page_labels(reader, count)
    labels = declared or [str(i) for i in range(1, count + 1)]
    pages: list[ExtractedPage] = []
    warnings: list[str] = []
    references = pdfium_texts(data, count)
    for i, page in enumerate(reader.pages, start=1):
        try:
            read = page_text(page).replace("\x00", "")  # PostgreSQL text cannot hold NUL
            text = restore_spacing(read, references[i - 1] if references else None)
        except LimitReachedError as exc:
            # One pathological content stream should cost that page, not the whole document.
            warnings.append(f"{file_name}: page {i} (label {labels[i - 1]}) exceeds pypdf's safety limits ({exc}); recorded as unreadable")
            pages.append(ExtractedPage(index=i, label=labels[i - 1], text="", has_text_layer=False, unreadable=True))
            if progress:
                progress(i, count)
            continue
        has_text = bool(text.strip())
        pages.append(
            ExtractedPage(
                index=i,
                label=labels[i - 1],
                text=text,
                has_text_layer=has_text,
                respaced=text != read,
            )
        )
        if progress:
            progress(i, count)
    thin_pages = [p.index for p in pages if thin(p.text)]
    covers = (image_cover(data, thin_pages) if thin_pages else None) or {}
    for p in pages:
        if not p.unreadable:
            has_images = not p.has_text_layer and _has_images(reader.pages[p.index - 1])
            p.ocr_reason = ocr_reason(p.text, has_images, covers.get(p.index, 0.0))
    title = None
    try:
        if reader.metadata and reader.metadata.title:
            title = str(reader.metadata.title).strip() or None
    except Exception:  # noqa: BLE001
        title = None
    return ExtractedDocument(media_type=PDF, pages=pages, outline=read_outline(reader), pdf_title=title, warnings=warnings,
                             labels_declared=declared is not None, typeset=typeset_lines(data))


def read_text_file(file_name: str, data: bytes, media_type: str) -> ExtractedDocument:
    if not data:
        raise EmptyFile(file_name, "file is empty (0 bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotUtf8Text(file_name, f"not UTF-8 text (byte {exc.start}): {exc.reason}") from exc
    if "\x00" in text:
        # Valid UTF-8, yet no text file holds NUL: UTF-16 without a byte-order mark, or binary data.
        raise NotUtf8Text(file_name, f"not UTF-8 text (NUL at byte {data.index(0)}): binary data or UTF-16?")
    # A form feed is the plain-text convention for a page break.
    raw_pages = text.split("\f")
    pages = [
        ExtractedPage(index=i, label=str(i), text=normalize_page_text(p), has_text_layer=True)
        for i, p in enumerate(raw_pages, start=1)
    ]
    if not any(p.text.strip() for p in pages):
        raise EmptyFile(file_name, "file contains only whitespace")
    return ExtractedDocument(media_type=media_type, pages=pages)


def ocr_available() -> bool:
    try:
        import ocrmypdf  # noqa: F401
    except ImportError:
        return False
    return shutil.which("tesseract") is not None


def ocr_pages(file_name: str, data: bytes, page_indices: list[int], language: str = "eng",
              jobs: int = 0) -> dict[int, str]:
    """OCR the given physical pages, `jobs` at once (0: one per CPU), and return their text; the document's other
    pages are untouched."""
    if not ocr_available():
        raise OcrUnavailable("OCR needs ocrmypdf and the tesseract binary (apt install tesseract-ocr)")
    import ocrmypdf

    logging.getLogger("ocrmypdf").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="rag-ocr-") as tmp:
        src = Path(tmp) / "in.pdf"
        out = Path(tmp) / "out.pdf"
        src.write_bytes(data)
        # ocrmypdf's progress display (rich, redirect_stderr) swaps sys.stderr for a buffer and, with the bar off,
        # never puts it back: whatever the process wrote to stderr afterwards (a Dagster run's console log) vanished.
        stderr = sys.stderr
        try:
            ocrmypdf.ocr(
                src,
                out,
                pages=",".join(str(i) for i in page_indices),
                # Only pages whose text layer cannot be trusted are asked for (`layers.ocr_reason`): a stamp over a
                # scan or glyph names are read again from the page's picture, as an empty layer is.
                force_ocr=True,
                output_type="pdf",  # no PDF/A conversion: we only read the text layer back
                optimize=0,
                language=[language],
                progress_bar=False,
                # tesseract reads a page on one core, so pages side by side are what uses the others: OCR of 44
                # scanned slides took 15.2-16.4 s with one job and 7.8-8.0 s with two here (docs/decisions.md).
                jobs=jobs or None,
            )
        finally:
            sys.stderr = stderr
        reader = PdfReader(str(out), strict=False)
        if reader.is_encrypted:
            reader.decrypt("")
        # OCR text is drawn invisibly (render mode 3), which pypdf's layout mode drops; plain mode reads it.
        return {i: normalize_page_text(reader.pages[i - 1].extract_text()) for i in page_indices}


def extract(
    file_name: str,
    data: bytes,
    *,
    ocr_enabled: bool = True,
    ocr_jobs: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ExtractedDocument:
    media_type = media_type_for(file_name)
    if media_type != PDF:
        return read_text_file(file_name, data, media_type)
    doc = read_pdf(file_name, data, progress)
    _ocr(file_name, data, doc, ocr_enabled, ocr_jobs)
    if doc.pages and (doc.pages[0].ocr or doc.pages[0].unreadable):
        doc.typeset = []  # page one's type sizes came from a layer OCR replaced, or one that holds no text
    _strip_furniture(doc)
    return doc


def _strip_furniture(doc: ExtractedDocument) -> None:
    """Running headers and footers off every page (they would be quoted and searched as content), and the page
    numbers they print as labels when the PDF declares none."""
    doc.cover = doc.pages[0].text if doc.pages else ""
    texts, numbers = strip_furniture([p.text for p in doc.pages])
    labels = [p.label for p in doc.pages] if doc.labels_declared else printed_labels([p.label for p in doc.pages], numbers)
    for page, text, label in zip(doc.pages, texts, labels, strict=True):
        page.text, page.label = text, label


def _ocr(file_name: str, data: bytes, doc: ExtractedDocument, ocr_enabled: bool, jobs: int) -> None:
    todo = [p for p in doc.pages if p.needs_ocr]
    if not todo:
        return
    if not ocr_enabled or not ocr_available():
        reason = "OCR is disabled (RAG_OCR=0)" if not ocr_enabled else "OCR is unavailable (install tesseract-ocr)"
        for p in todo:
            where = f"{file_name}: page {p.index} (label {p.label}) {p.ocr_reason} and {reason}"
            if readable(p.text):
                doc.warnings.append(f"{where}; only its text layer is kept")
            else:
                p.text, p.unreadable = "", True
                doc.warnings.append(f"{where}; recorded as unreadable")
        return
    texts = ocr_pages(file_name, data, [p.index for p in todo], jobs=jobs)
    for p in todo:
        read = texts.get(p.index, "")
        layer = p.text if readable(p.text) else ""
        if read.strip() and (not layer or (wordy_share(read) >= WORDY and len(read.split()) > len(layer.split()))):
            p.text, p.ocr = read, True
        elif not layer:
            p.text, p.unreadable = "", True
            doc.warnings.append(f"{file_name}: page {p.index} (label {p.label}) {p.ocr_reason} and OCR found no text")
