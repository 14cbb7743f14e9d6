"""X-Request-ID: taken from the client when it sends a sane one, else made here; returned, logged and in error bodies."""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

HEADER = "x-request-id"
# What a proxy or a client may send: short and printable, so it is safe in a log line and a header.
_SANE = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request this code runs for (its threads inherit it through run_in_threadpool's context)."""
    return _current.get()


def accepted(sent: str | None) -> str:
    return sent if sent and _SANE.fullmatch(sent) else uuid.uuid4().hex


class RequestIds:
    """ASGI middleware, outermost: every response, errors included, carries the request's id."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        sent = next((v.decode("latin-1") for k, v in scope["headers"] if k == HEADER.encode()), None)
        rid = accepted(sent)
        token = _current.set(rid)
        scope.setdefault("state", {})["request_id"] = rid

        async def tagged(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != HEADER.encode()]
                message = {**message, "headers": [*headers, (HEADER.encode(), rid.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        finally:
            _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every log record (None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id()
        return True
