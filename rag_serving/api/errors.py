"""One error body for every failure (RFC 9457 problem details), its handlers, and the last-resort JSON 500."""

from __future__ import annotations

import logging
from http import HTTPStatus

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from rag_serving.api.requestids import current_request_id

log = logging.getLogger("rag_serving.api")
MEDIA_TYPE = "application/problem+json"


class FieldError(BaseModel):
    loc: list[str | int] = Field(description="where in the request: body, query or header, then the field path")
    msg: str
    type: str


class Problem(BaseModel):
    """What every non-2xx response carries (RFC 9457)."""

    type: str = Field(default="about:blank", description="always about:blank: the status says what kind")
    title: str = Field(description="the status's reason phrase")
    status: int
    detail: str = Field(description="what went wrong with this request, for a person")
    errors: list[FieldError] = Field(default=[], description="each invalid field (422)")
    request_id: str | None = Field(default=None, description="the X-Request-ID of this request, for support")


def problem(status: int, detail: str, *, errors: list[dict] | None = None, headers: dict | None = None) -> JSONResponse:
    body = Problem(title=HTTPStatus(status).phrase, status=status, detail=detail, errors=errors or [],
                   request_id=current_request_id())
    return JSONResponse(body.model_dump(), status_code=status, headers=headers, media_type=MEDIA_TYPE)


def documented(*statuses: int) -> dict:
    """The `responses=` entry of a route: each status it can return, with the problem body."""
    return {s: {"model": Problem, "description": HTTPStatus(s).phrase,
                "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}} for s in statuses}


def _printable(part: object) -> object:
    return part if isinstance(part, int) else str(part).encode("utf-8", "backslashreplace").decode("utf-8")


def readable(error: dict) -> dict:
    """A validation error as JSON can always carry it: the field's location and the message, not the input."""
    return {"loc": [_printable(p) for p in error["loc"]], "msg": _printable(error["msg"]), "type": error["type"]}


def install(app: FastAPI, retry_after_s: float) -> None:
    """Every error the app raises, answered with a problem body."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return problem(exc.status_code, str(exc.detail), headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own 422 echoes the input back, and an input JSON cannot encode (NaN, a lone surrogate) turned
        # the client's mistake into a 500. Where and what, never the value.
        fields = [readable(e) for e in exc.errors()]
        first = fields[0] if fields else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"][1:]) or "request"
        return problem(422, f"{where}: {first['msg']}", errors=fields)

    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(PoolTimeout)
    async def database_down(request: Request, exc: Exception) -> JSONResponse:
        # The database is down or restarting: the client's request was fine, so a 503 it may retry, not a 500.
        # Retry after the pool's own wait for a connection; a restart of the embedded server takes about as long.
        return problem(503, f"database unavailable ({type(exc).__name__}); retry shortly",
                       headers={"Retry-After": str(round(retry_after_s))})


class ServerErrors:
    """ASGI middleware: an exception escaping the app before the response started becomes a 500 with
    `Connection: close`, so the client's next request opens a fresh connection rather than failing on a reset one."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def tracked(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise  # half a response is out: only closing the connection is left, which the server does
            failed = problem(500, "internal error; the request was not completed", headers={"Connection": "close"})
            await failed(scope, receive, send)
