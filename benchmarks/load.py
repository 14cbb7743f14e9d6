"""The query endpoint under a flood: one client alone, then many at once against `python -m rag_serving serve` on the
sample corpus: status codes, latency of served and refused requests, /healthz while saturated, and the server's
memory before, at the peak and after it has been idle."""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import subprocess
import sys
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
    server = subprocess.Popen([sys.executable, "-m", "rag_serving", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited during start-up:\n{server.stderr.read()[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.kill()
    raise SystemExit("the server did not answer /healthz within 300 s")


async def alone(base: str, key: str, questions: list[str], n: int) -> list[float]:
    out = []
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
        for i in range(n):
            t0 = time.perf_counter()
            r = await client.post("/query", json={"question": questions[i % len(questions)]})
            r.raise_for_status()
            out.append((time.perf_counter() - t0) * 1000)
    return out


async def flood(base: str, key: str, questions: list[str], clients: int, seconds: float, server_pid: int) -> dict:
    """`clients` clients, each on its own connection, asking one question after another for `seconds`; a prober
    asks /healthz every half second meanwhile."""
    codes: collections.Counter = collections.Counter()
    served, refused, health, health_codes, peak = [], [], [], collections.Counter(), [0.0]
    stop = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 1, max_keepalive_connections=clients + 1)

    async def client(i: int, http: httpx.AsyncClient) -> None:
        n = i
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                r = await http.post("/query", json={"question": questions[n % len(questions)]})
                code = r.status_code
            except httpx.HTTPError as exc:
                code = type(exc).__name__
            ms = (time.perf_counter() - t0) * 1000
            codes[code] += 1
            (served if code == 200 else refused).append(ms)
            n += clients
            if code == 503:
                await asyncio.sleep(float(r.headers.get("Retry-After", 1)))

    async def prober(http: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                health_codes[(await http.get("/healthz")).status_code] += 1
            except httpx.HTTPError as exc:
                health_codes[type(exc).__name__] += 1
            health.append((time.perf_counter() - t0) * 1000)
            peak[0] = max(peak[0], rss_mib(server_pid))
            await asyncio.sleep(0.5)

    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60,
                                 limits=limits) as http, httpx.AsyncClient(base_url=base, timeout=60) as probe:
        await asyncio.gather(prober(probe), *(client(i, http) for i in range(clients)))
    return {"clients": clients, "seconds": seconds, "codes": {str(k): v for k, v in sorted(codes.items(), key=str)},
            "served_per_s": round(len(served) / seconds, 2),
            "served_ms_p50": pct(served, 50), "served_ms_p95": pct(served, 95),
            "refused_ms_p50": pct(refused, 50), "refused_ms_p95": pct(refused, 95),
            "healthz": {str(k): v for k, v in health_codes.items()}, "healthz_ms_p95": pct(health, 95),
            "healthz_ms_max": pct(health, 100), "rss_peak_mib": round(peak[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=200)
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
        single = asyncio.run(alone(base, key, questions, 2 * len(questions)))
        after_single = rss_mib(server.pid)
        health_idle = []
        for _ in range(20):
            t0 = time.perf_counter()
            httpx.get(f"{base}/healthz", timeout=10)
            health_idle.append((time.perf_counter() - t0) * 1000)
        loaded = asyncio.run(flood(base, key, questions, args.clients, args.seconds, server.pid))
        after_flood = rss_mib(server.pid)
        time.sleep(args.idle)
        idle = rss_mib(server.pid)
        out = {
            "database": conninfo_to_dict(make_conninfo(url)).get("dbname"), "questions": len(questions),
            "alone": {"requests": len(single), "ms_p50": pct(single, 50), "ms_p95": pct(single, 95)},
            "healthz_idle_ms_p95": pct(health_idle, 95), "flood": loaded,
            "rss_mib": {"started": round(started, 1), "after_one_client": round(after_single, 1),
                        "peak": loaded["rss_peak_mib"], "after_flood": round(after_flood, 1),
                        f"after_{args.idle:g}s_idle": round(idle, 1)},
        }
        print(json.dumps(out, indent=1))
        ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "n/a"  # noqa: E731
        print(f"served p95 under {args.clients} clients vs one client alone: {loaded['served_ms_p95']} / "
              f"{out['alone']['ms_p95']} ms = {ratio(loaded['served_ms_p95'], out['alone']['ms_p95'])}")
        print(f"/healthz p95 while flooded vs idle: {loaded['healthz_ms_p95']} / {out['healthz_idle_ms_p95']} ms = "
              f"{ratio(loaded['healthz_ms_p95'], out['healthz_idle_ms_p95'])}")
        print(f"RSS after idle vs after one client: {idle:.0f} / {after_single:.0f} MiB = {ratio(idle, after_single)}")
        print(f"5xx other than 503: {sum(v for k, v in loaded['codes'].items() if k.startswith('5') and k != '503')}")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    with recorded("load"):
        main()
