"""The one lock every PDFium call in the process takes."""

import threading

# PDFium keeps process-wide state and is not thread-safe (pypdfium2's documentation), even across documents: the
# page viewer and ingest, when they share a process, take turns.
PDFIUM_LOCK = threading.Lock()
