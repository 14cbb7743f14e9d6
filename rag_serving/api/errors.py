"""A request the server fails on gets a JSON 500 that closes its connection, instead of a reset keep-alive."""

import logging

from fastapi.responses import JSONResponse

log = logging.getLogger("rag_serving.api")


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
            await JSONResponse(status_code=500, headers={"Connection": "close"},
                               content={"detail": "internal error; the request was not completed"})(scope, receive, send)
