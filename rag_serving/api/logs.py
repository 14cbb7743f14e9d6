"""Server logs: one JSON object per line with the request id (or plain text), for uvicorn's loggers and ours alike."""

from __future__ import annotations

import logging

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from rag_serving.api.requestids import RequestIdFilter

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def configure_logging(fmt: str) -> None:
    """The root logger writes JSON (fmt "json") or text lines to stderr, each carrying the request id; uvicorn's
    loggers hand their records to it. Idempotent: a second app in the process does not add a second handler."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_rag", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler()
    handler._rag = True
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
                                       rename_fields={"levelname": "level", "asctime": "time", "name": "logger"},
                                       # uvicorn's terminal colours, a copy of the message with escape codes
                                       reserved_attrs=[*RESERVED_ATTRS, "color_message"])
                         if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
