"""The query endpoint under a flood: one client alone, then many at once against `python -m rag_serving serve` on the
sample corpus: status codes, latency of served and refused requests, /healthz while saturated, and the server's
memory before, at the peak and after it has been idle."""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from rag_assets.evaluation.golden import load_golden
from rag_serving.models.embedders import get_embedder
from rag_serving.store import apikeys
from rag_serving.store import bootstrap as db

from .common import recorded
from .train_reranker import GOLDEN, golden_database


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 1) if values else None


def start_server(url: str, port: int, max_in_flight: int | None) -> subprocess.Popen:
    env = {**os.environ, "RAG_DATABASE_URL": url}
    if max_in_flight:
        env["RAG_MAX_IN_FLIGHT"] = str(max_in_flight)
    # Its log goes to a file, not a pipe: a pipe nobody reads fills after ~64 KB of access lines and the server blocks
    # writing the next one (a flood hung every request until this was a file).
    log = tempfile.NamedTemporaryFile("w+", prefix="rag-serve-", suffix=".log", delete=False)
    server = subprocess.Popen([sys.executable, "-m", "rag_serving", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited during start-up:\n{Path(log.name).read_text()[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.kill()
    raise SystemExit("the server did not answer /healthz within 300 s")


ENDPOINTS = ("/query", "/retrieve")


def essence(path: str, body: dict) -> str:
    """What must not change with load: the route, confidence, cited sentences and sources of an answer; the ranked
    chunk ids of a retrieval. Timings aside."""
    if path == "/retrieve":
        return json.dumps([h["chunk_id"] for h in body["hits"]])
    # Each sentence with its sources' chunks, quotes and pages; not their links, whose signatures carry the time.
    answer = body["answer"] and [[s["text"], [(x["chunk_id"], x["quote"], x["page"]) for x in s["sources"]]]
                                 for s in body["answer"]["sentences"]]
    return json.dumps([body["route"], body["confidence"], answer, [s["chunk_id"] for s in body["sources"]]])


async def alone(base: str, key: str, questions: list[str]) -> tuple[dict, dict[str, list[float]]]:
    """Each question to each endpoint, one request at a time: the reference answers and the unloaded latencies."""
    refs, out = {}, {path: [] for path in ENDPOINTS}
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
        for q in questions:
            for path in ENDPOINTS:
                t0 = time.perf_counter()
                r = await client.post(path, json={"question": q})
                r.raise_for_status()
                out[path].append((time.perf_counter() - t0) * 1000)
                refs[path, q] = essence(path, r.json())
    return refs, out


def probe(base: str, stop: float, server_pid: int) -> tuple[list[float], collections.Counter, float]:
    """/healthz every half second until `stop`, from its own process at normal priority: what an orchestrator's probe
    sees of the server, not the load generator's own backlog. Also the server's peak RSS."""
    health, codes, peak = [], collections.Counter(), 0.0
    with httpx.Client(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                codes[str(http.get("/healthz").status_code)] += 1
            except httpx.HTTPError as exc:
                codes[type(exc).__name__] += 1
            health.append((time.perf_counter() - t0) * 1000)
            peak = max(peak, rss_mib(server_pid))
            time.sleep(0.5)
    return health, codes, peak


async def flood(base: str, key: str, questions: list[str], refs: dict, clients: int, seconds: float,
                server_pid: int, prober, *, retry: bool) -> dict:
    """`clients` clients, each on its own connection, alternating /query and /retrieve for `seconds`; a prober asks
    /healthz every half second meanwhile (`probe`). With `retry`, a 503 is waited out (Retry-After) and asked again, as a
    well-behaved client does; an error is anything else that is not a 200, and a 200 that differs from the answer
    given to the same request alone is a mismatch."""
    codes: collections.Counter = collections.Counter()
    served, refused, mismatches = [], [], []
    stop = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 1, max_keepalive_connections=clients + 1)

    async def client(i: int, http: httpx.AsyncClient) -> None:
        n = i
        while time.monotonic() < stop:
            q, path = questions[n % len(questions)], ENDPOINTS[n % 2]
            t0 = time.perf_counter()
            try:
                r = await http.post(path, json={"question": q})
                code = r.status_code
            except httpx.HTTPError as exc:
                code = type(exc).__name__
            ms = (time.perf_counter() - t0) * 1000
            codes[code] += 1
            (served if code == 200 else refused).append(ms)
            if code == 200 and essence(path, r.json()) != refs[path, q]:
                mismatches.append((path, q))
            if code == 503:
                await asyncio.sleep(float(r.headers.get("Retry-After", 1)))
                if retry:
                    continue
            n += clients

    probed = prober.apply_async(probe, (base, stop, server_pid))
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60,
                                 limits=limits) as http:
        await asyncio.gather(*(client(i, http) for i in range(clients)))
    health, health_codes, peak = probed.get()
    return {"clients": clients, "seconds": seconds, "codes": {str(k): v for k, v in sorted(codes.items(), key=str)},
            "errors": sum(v for k, v in codes.items() if k not in (200, 503)), "mismatches": len(mismatches),
            "served_per_s": round(len(served) / seconds, 2),
            "served_ms": {"p50": pct(served, 50), "p95": pct(served, 95), "p99": pct(served, 99)},
            "refused_ms": {"p50": pct(refused, 50), "p95": pct(refused, 95), "p99": pct(refused, 99)},
            "healthz": {str(k): v for k, v in health_codes.items()},
            "healthz_ms": {"p95": pct(health, 95), "max": pct(health, 100)}, "rss_peak_mib": round(peak, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steady-clients", type=int, default=50, help="clients that wait out each 503 and retry")
    parser.add_argument("--steady-seconds", type=float, default=120)
    parser.add_argument("--clients", type=int, default=200, help="clients of the flood (a 503 is not retried)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--idle", type=float, default=30, help="seconds of quiet before the last memory reading")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--max-in-flight", type=int, help="the server's RAG_MAX_IN_FLIGHT (default: its setting)")
    args = parser.parse_args()
    url = golden_database(get_embedder("minilm"))
    cases = [c for c in load_golden(GOLDEN, "dev") if c.expect == "answer" and not c.history and not c.documents]
    tenant = collections.Counter((c.tenant.organization, tuple(c.tenant.rooftops)) for c in cases).most_common(1)[0][0]
    questions = [c.question for c in cases if (c.tenant.organization, tuple(c.tenant.rooftops)) == tenant]
    with db.connect(url, autocommit=True) as conn:
        key = apikeys.create_key(conn, tenant[0], list(tenant[1]), "benchmarks.load")
    server = start_server(url, args.port, args.max_in_flight)
    base = f"http://127.0.0.1:{args.port}"
    try:
        started = rss_mib(server.pid)
        refs, each = asyncio.run(alone(base, key, questions))
        single = [ms for values in each.values() for ms in values]
        warm = rss_mib(server.pid)
        health_idle = []
        for _ in range(20):
            t0 = time.perf_counter()
            httpx.get(f"{base}/healthz", timeout=10)
            health_idle.append((time.perf_counter() - t0) * 1000)
        # The clients yield the CPU to the server and the prober: on one machine they would otherwise take a core of
        # the server's and count their own backlog as its latency.
        prober = multiprocessing.get_context("fork").Pool(1)  # started before the nice, so at normal priority
        os.nice(10)
        steady = asyncio.run(flood(base, key, questions, refs, args.steady_clients, args.steady_seconds, server.pid,
                                   prober, retry=True))
        loaded = asyncio.run(flood(base, key, questions, refs, args.clients, args.seconds, server.pid, prober,
                                   retry=False))
        prober.close()
        time.sleep(args.idle)
        idle = rss_mib(server.pid)
        out = {
            "database": conninfo_to_dict(make_conninfo(url)).get("dbname"), "questions": len(questions),
            "alone": {"requests": len(single), "ms": {"p50": pct(single, 50), "p95": pct(single, 95),
                                                       "p99": pct(single, 99)},
                      **{path: {"p50": pct(v, 50), "p95": pct(v, 95)} for path, v in each.items()}},
            "healthz_idle_ms_p95": pct(health_idle, 95), "steady": steady, "flood": loaded,
            "rss_mib": {"started": round(started, 1), "after_one_client": round(warm, 1),
                        "peak": max(steady["rss_peak_mib"], loaded["rss_peak_mib"]),
                        f"after_{args.idle:g}s_idle": round(idle, 1)},
        }
        print(json.dumps(out, indent=1))
        ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "n/a"  # noqa: E731
        for name, run in (("steady", steady), ("flood", loaded)):
            print(f"{name}: {run['clients']} clients, {run['served_per_s']} served/s, {run['errors']} errors, "
                  f"{run['mismatches']} answers differing from the same request alone; served p95 "
                  f"{run['served_ms']['p95']} ms vs {out['alone']['ms']['p95']} ms alone = "
                  f"{ratio(run['served_ms']['p95'], out['alone']['ms']['p95'])}; /healthz max {run['healthz_ms']['max']} ms "
                  f"({ratio(run['healthz_ms']['max'], out['healthz_idle_ms_p95'])} idle p95)")
        print(f"RSS after idle vs after one client: {idle:.0f} / {warm:.0f} MiB = {ratio(idle, warm)}")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    with recorded("load"):
        main()
