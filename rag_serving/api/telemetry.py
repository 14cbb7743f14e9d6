"""OpenTelemetry for the server: the SDK's tracer provider with exporters named by the standard OTEL_* variables, and
stage timings taken from the spans themselves (for /metrics and each response), so one instrumentation feeds all three."""

from __future__ import annotations

import contextvars
import logging
import os
from importlib.metadata import entry_points

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

from rag_serving.api.metrics import Metrics

log = logging.getLogger("rag_serving.api")
STAGE_PREFIX = "rag."
# The request being served: where its stage timings go. Request threads inherit it (run_in_threadpool copies context).
_timings: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("stage_timings", default=None)
_metrics: contextvars.ContextVar[Metrics | None] = contextvars.ContextVar("stage_metrics", default=None)


def start_request(metrics: Metrics) -> dict[str, float]:
    """Collect this request's stage timings (ms, summed per stage) into the returned dict, and into metrics."""
    timings: dict[str, float] = {}
    _timings.set(timings)
    _metrics.set(metrics)
    return timings


class StageTimings(SpanProcessor):
    """Each ended rag.* span adds its duration to its request's timings and to the app's stage histogram."""

    def on_end(self, span: ReadableSpan) -> None:
        if not span.name.startswith(STAGE_PREFIX) or span.end_time is None or span.start_time is None:
            return
        seconds = (span.end_time - span.start_time) / 1e9
        stage = span.name[len(STAGE_PREFIX):]
        timings, metrics = _timings.get(), _metrics.get()
        if timings is not None:
            timings[stage] = round(timings.get(stage, 0.0) + seconds * 1000, 2)
        if metrics is not None:
            metrics.stages.labels(stage).observe(seconds)


def _exporters(names: str) -> list:
    """The exporters OTEL_TRACES_EXPORTER names (`console`, `otlp`, ...), found as the SDK finds them: by the
    `opentelemetry_traces_exporter` entry points their packages install."""
    found = []
    for name in (n.strip() for n in names.split(",") if n.strip() and n.strip() != "none"):
        points = entry_points(group="opentelemetry_traces_exporter", name=name)
        if not points:
            raise ValueError(f"OTEL_TRACES_EXPORTER={names!r}: no installed exporter named {name!r} "
                             "(console is built in; otlp needs opentelemetry-exporter-otlp)")
        found.append(next(iter(points)).load()())
    return found


def install_tracing(environ=os.environ) -> TracerProvider:
    """The process's tracer provider, set up once (OpenTelemetry allows one per process): stage timings always, and
    the exporters OTEL_TRACES_EXPORTER names; unset or `none` exports nothing (no collector is assumed)."""
    provider = trace.get_tracer_provider()
    if isinstance(provider, TracerProvider) and getattr(provider, "_rag_stage_timings", False):
        return provider
    if not isinstance(provider, TracerProvider):
        resource = Resource.create({"service.name": environ.get("OTEL_SERVICE_NAME", "rag-serving")})
        provider = TracerProvider(resource=resource)  # the sampler comes from OTEL_TRACES_SAMPLER, as the SDK reads it
        for exporter in _exporters(environ.get("OTEL_TRACES_EXPORTER", "none")):
            # The console exporter prints as each span ends; a network exporter sends in batches off the request.
            simple = type(exporter).__name__ == "ConsoleSpanExporter"
            provider.add_span_processor(SimpleSpanProcessor(exporter) if simple else BatchSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
    provider.add_span_processor(StageTimings())
    provider._rag_stage_timings = True
    return provider
