"""What the routes share: the running pipeline, the settings, the latency window and the metrics, built once per app."""

from __future__ import annotations

import statistics
import threading
from collections import deque
from dataclasses import dataclass

from fastapi import Request

from rag_serving.api.metrics import Metrics
from rag_serving.settings import Settings
from rag_serving.wiring import Pipeline


class Latencies:
    """The last 1,000 request latencies and a request count, shared by request threads."""

    def __init__(self, size: int = 1000):
        self._values: deque[float] = deque(maxlen=size)
        self._served = 0
        self._lock = threading.Lock()

    def add(self, ms: float) -> None:
        with self._lock:
            self._values.append(ms)
            self._served += 1

    def summary(self) -> tuple[float | None, float | None, int]:
        """p50, p95 (ms) of the window and the count served."""
        with self._lock:
            values, served = sorted(self._values), self._served
        if not values:
            return None, None, served
        return round(statistics.median(values), 2), round(values[int(0.95 * (len(values) - 1))], 2), served


@dataclass(frozen=True)
class State:
    pipeline: Pipeline
    settings: Settings
    latencies: Latencies
    metrics: Metrics


def state(request: Request) -> State:
    return request.app.state.rag


def public_base(request: Request) -> str:
    """Where clients reach this API: RAG_PUBLIC_URL behind a proxy, else the request's own base URL."""
    return request.app.state.rag.settings.public_url or str(request.base_url)
