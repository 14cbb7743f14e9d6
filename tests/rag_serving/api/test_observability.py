"""Traces (one span per stage, read with the SDK's in-memory exporter), Prometheus /metrics and JSON logs."""

import json
import logging
import subprocess
import sys

import httpx
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from rag_serving.api import requestids
from rag_serving.api.logs import configure_logging
from rag_serving.api.metrics import Metrics
from rag_serving.api.telemetry import _exporters
from tests.rag_serving.api.conftest import SETTINGS, ask

QUESTION = "How many weeks of parental leave do full-time staff get?"
STAGES = {"rag.answer", "rag.search", "rag.embed", "rag.retrieve.bm25", "rag.retrieve.hybrid", "rag.rerank", "rag.evidence",
          "rag.generate", "rag.cite", "rag.ground"}


@pytest.fixture
def spans(base):
    exporter = InMemorySpanExporter()
    trace.get_tracer_provider().add_span_processor(SimpleSpanProcessor(exporter))  # the provider the app installed
    yield exporter
    exporter.shutdown()  # later spans are dropped, not kept in memory


def test_a_question_is_one_trace_with_a_span_per_stage(base, keys, spans):
    r = ask(base, keys["acme"], QUESTION)
    finished = spans.get_finished_spans()
    root = next(s for s in finished if s.name == "rag.answer")
    mine = [s for s in finished if s.context.trace_id == root.context.trace_id]
    assert STAGES <= {s.name for s in mine}
    # One trace from FastAPI's server span down: every stage is a descendant of the answer span.
    parents = {s.context.span_id: s.parent.span_id if s.parent else None for s in mine}

    def under(span_id, ancestor):
        while span_id is not None and span_id != ancestor:
            span_id = parents.get(span_id)
        return span_id == ancestor

    assert all(under(s.context.span_id, root.context.span_id) for s in mine if s.name in STAGES)
    assert any(s.name == "POST /query" and s.kind == trace.SpanKind.SERVER for s in mine)
    assert root.attributes["rag.route"] == "answer" and root.attributes["rag.tenant.organization"] == "acme"
    assert root.attributes["rag.grounding.passed"] is True and root.attributes["rag.request_id"] == r.headers["x-request-id"]
    assert r.json()["sources"][0]["chunk_id"] in root.attributes["rag.chunk_ids"]
    generate = next(s for s in mine if s.name == "rag.generate")
    assert generate.attributes["gen_ai.system"] == "extractive" and generate.attributes["gen_ai.operation.name"] == "chat"
    # Every stage reports into its request's timings, by the same name.
    assert {f"rag.{stage}" for stage in r.json()["timings_ms"]} == STAGES


def test_the_console_exporter_is_chosen_by_otel_traces_exporter():
    script = ("from opentelemetry import trace\nfrom rag_serving.api.telemetry import install_tracing\n"
              "install_tracing()\nwith trace.get_tracer('t').start_as_current_span('rag.probe'):\n    pass\n")
    env = {"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "probe-service", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    span = json.loads(out)
    assert span["name"] == "rag.probe" and span["resource"]["attributes"]["service.name"] == "probe-service"


def test_an_unknown_exporter_name_is_an_error_naming_it():
    with pytest.raises(ValueError, match="'zipkin-typo'"):
        _exporters("console,zipkin-typo")
    assert _exporters("none") == []


def scrape(base: str) -> dict[tuple, float]:
    text = httpx.get(f"{base}/metrics").text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_count_requests_routes_and_stage_latencies(base, keys):
    before = scrape(base)
    ask(base, keys["acme"], QUESTION)
    httpx.post(f"{base}/query", json={"question": "leave"})  # 401
    after = scrape(base)

    def delta(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    assert delta("rag_http_requests_total", route="/query", method="POST", status="200") == 1
    assert delta("rag_http_requests_total", route="/query", method="POST", status="401") == 1
    assert delta("rag_http_request_duration_seconds_count", route="/query") == 2
    assert delta("rag_answers_total", route="answer") == 1
    for stage in ("retrieve.bm25", "rerank", "generate", "ground"):
        assert delta("rag_stage_duration_seconds_count", stage=stage) == 1, stage
    # Sentence vectors come from the cache or are embedded; every one asked for is one or the other.
    looked_up = delta("rag_embedding_cache_lookups_total", result="hit") + \
        delta("rag_embedding_cache_lookups_total", result="miss")
    assert looked_up > 0


def test_grounding_failures_are_counted_by_the_check_that_failed():
    metrics = Metrics()
    metrics.response("answer", False, "support")
    metrics.response("answer", True, None)
    metrics.response("abstain", None, None)
    assert metrics.registry.get_sample_value("rag_grounding_failures_total", {"check": "support"}) == 1
    assert metrics.registry.get_sample_value("rag_answers_total", {"route": "answer"}) == 2


def test_json_log_lines_carry_the_request_id(capsys):
    configure_logging("json")
    token = requestids._current.set("rid-7")
    try:
        logging.getLogger("rag_serving.test").warning("stage %s slow", "rerank")
    finally:
        requestids._current.reset(token)
        configure_logging(SETTINGS.log_format)
    line = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert line["message"] == "stage rerank slow" and line["request_id"] == "rid-7" and line["level"] == "WARNING"


def test_metrics_count_every_request_from_many_threads(base):
    from concurrent.futures import ThreadPoolExecutor

    key = ("rag_http_requests_total", (("method", "GET"), ("route", "/healthz"), ("status", "200")))
    before = scrape(base).get(key, 0)
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: httpx.get(f"{base}/healthz", timeout=60).status_code, range(40)))
    assert statuses == [200] * 40
    assert scrape(base)[key] - before == 40
