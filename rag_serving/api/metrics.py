"""Prometheus metrics of one app, in its own registry: requests, latency per route and per stage, routes, grounding."""

from __future__ import annotations

import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily

# Stages run from ~1 ms (a BM25 leg) to seconds (a remote generator).
STAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _CacheCounts:
    """The sentence-vector cache's hit and miss counts, read at scrape time."""

    def __init__(self, counts: Callable[[], tuple[int, int]]):
        self.counts = counts

    def collect(self):
        hits, misses = self.counts()
        family = CounterMetricFamily("rag_embedding_cache_lookups", "sentence vectors looked up in the cache",
                                     labels=["result"])
        family.add_metric(["hit"], hits)
        family.add_metric(["miss"], misses)
        yield family


class Metrics:
    """Thread-safe (prometheus_client's own locks); one per app, so two apps in a process never mix their counts."""

    def __init__(self, cache_counts: Callable[[], tuple[int, int]] | None = None):
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("rag_http_requests", "HTTP requests by route, method and status",
                                ["route", "method", "status"], registry=r)
        self.latency = Histogram("rag_http_request_duration_seconds", "HTTP request latency by route", ["route"],
                                 buckets=STAGE_BUCKETS, registry=r)
        self.stages = Histogram("rag_stage_duration_seconds", "time in each pipeline stage (one span each)", ["stage"],
                                buckets=STAGE_BUCKETS, registry=r)
        self.routes = Counter("rag_answers", "responses by route: answer, abstain, clarify, web", ["route"],
                              registry=r)
        self.grounding_failures = Counter("rag_grounding_failures", "drafted answers the grounding check withheld",
                                          ["check"], registry=r)
        if cache_counts is not None:
            r.register(_CacheCounts(cache_counts))

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route, method, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def response(self, route: str, grounding_passed: bool | None, failed_check: str | None) -> None:
        self.routes.labels(route).inc()
        if grounding_passed is False:
            self.grounding_failures.labels(failed_check or "unknown").inc()


class RequestMetrics:
    """ASGI middleware: counts and times every request by its route template (never the raw path: ids would make
    one series each)."""

    def __init__(self, app, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, status = time.perf_counter(), 500

        async def seen(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, seen)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or ("/ui/{file}" if scope["path"].startswith("/ui/") else "unmatched")
            self.metrics.request(template, scope["method"], status, time.perf_counter() - started)
