"""One reading of a PDF by PDFium, under the process-wide lock, that costs what it was for, never the file."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import pypdfium2 as pdfium

from rag_serving.models.pdfium import PDFIUM_LOCK

log = logging.getLogger("rag.ingest")
T = TypeVar("T")


def read_with_pdfium(data: bytes, read: Callable[[pdfium.PdfDocument], T], lost: str) -> T | None:
    """read(document), or None when PDFium cannot open the file or read a page of it; `lost` says what then goes
    without ("its word breaks are not used") in the log line."""
    with PDFIUM_LOCK:  # PDFium is not thread-safe
        try:
            document = pdfium.PdfDocument(data, password="")
        except pdfium.PdfiumError as exc:
            log.info("PDFium cannot open the file (%s); %s", exc, lost)
            return None
        try:
            return read(document)
        except Exception as exc:  # noqa: BLE001 - a page PDFium cannot read costs this reading, never the file
            log.info("PDFium cannot read a page (%s); %s", exc, lost)
            return None
        finally:
            document.close()
