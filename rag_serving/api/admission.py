"""Load shedding: work beyond a bound is refused at the door with a fast 503, before it takes a thread or a connection."""

from rag_serving.api.errors import problem

# Cheap, and what an orchestrator or a person needs most when the server is saturated.
UNBOUNDED = frozenset({"/healthz", "/metrics", "/", "/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})
STATIC = ("/ui/", "/static-offline-docs/")  # files from the package: the answer page and the API docs


class Admission:
    """ASGI middleware: at most `limit` requests are worked on at once; one more gets 503 with Retry-After at once,
    ahead of the API-key lookup and the request threads, so a flood neither queues for seconds nor starves
    /healthz. The count lives on the event loop, which runs this code in one thread: no lock is needed."""

    def __init__(self, app, limit: int):
        self.app, self.limit, self.in_flight = app, limit, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] in UNBOUNDED or scope["path"].startswith(STATIC):
            return await self.app(scope, receive, send)
        if self.in_flight >= self.limit:
            busy = problem(503, f"busy: {self.limit} requests in flight; retry shortly", headers={"Retry-After": "1"})
            return await busy(scope, receive, send)
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
