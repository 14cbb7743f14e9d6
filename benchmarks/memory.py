"""Where the serving process's memory goes, each case in a fresh process: onnxruntime's arena on and off (300 questions
three times, then 64 long paragraphs), and 8 threads answering the golden dev questions with glibc's default malloc arenas
against MALLOC_ARENA_MAX=2 (RSS, and the Python objects' own growth by tracemalloc)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

from .common import BENCH_DATA, recorded


def rss_mib() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmRSS")


def arena_case(on: bool) -> dict:
    import onnxruntime as ort

    base = ort.SessionOptions

    class Options(base):
        # The embedder turns the arena off itself; this case decides instead.
        def __setattr__(self, name, value):
            super().__setattr__(name, on if name == "enable_cpu_mem_arena" else value)

    ort.SessionOptions = Options  # the embedder builds its session with these
    from rag_serving.models.embedders import get_embedder

    embedder = get_embedder("minilm")
    data = json.loads((BENCH_DATA / "squad2-subset" / "dev-v2.0.subset.json").read_text(encoding="utf-8"))["data"]
    paragraphs = [p["context"] for a in data for p in a["paragraphs"]][:64]
    questions = [q["question"] for a in data for p in a["paragraphs"] for q in p["qas"]][:300]
    embedder.embed(["warm up"])
    before, t0 = rss_mib(), time.perf_counter()
    for _ in range(3):
        embedder.embed(questions)
    embedder.embed(paragraphs)
    return {"arena": on, "rss_before_mib": before, "rss_after_mib": rss_mib(),
            "seconds": round(time.perf_counter() - t0, 2)}


def threads_case() -> dict:
    from rag_assets.evaluation.golden import load_golden
    from rag_serving.settings import load_settings
    from rag_serving.store.sessions import Tenant
    from rag_serving.wiring import from_settings

    from .train_reranker import GOLDEN, golden_database
    from rag_serving.models.embedders import get_embedder

    os.environ["RAG_DATABASE_URL"] = golden_database(get_embedder("minilm"))
    pipeline = from_settings(load_settings())
    cases = [c for c in load_golden(GOLDEN, "dev") if c.expect == "answer" and not c.history and not c.documents]

    def ask(case):
        pipeline.ask(Tenant(case.tenant.organization, tuple(case.tenant.rooftops)), case.question)

    built = rss_mib()
    for case in cases:
        ask(case)
    one = rss_mib()
    tracemalloc.start()
    traced = tracemalloc.get_traced_memory()[0]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(2):
            list(pool.map(ask, cases * 3))
    grown = tracemalloc.get_traced_memory()[0] - traced
    tracemalloc.stop()
    return {"malloc_arena_max": os.environ.get("MALLOC_ARENA_MAX", "glibc default"), "rss_built_mib": built,
            "rss_one_thread_mib": one, "rss_8_threads_mib": rss_mib(), "python_objects_grew_mib": round(grown / 2**20, 1)}


def child(*args: str, env: dict | None = None) -> dict:
    out = subprocess.run([sys.executable, "-m", "benchmarks.memory", "--child", *args], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(arena_case(args.child[1] == "on") if args.child[0] == "arena" else threads_case()))
        return
    with recorded("memory"):
        for on in ("on", "off"):
            print(json.dumps(child("arena", on)))
        default = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
        for env in (default, {**default, "MALLOC_ARENA_MAX": "2"}):
            print(json.dumps(child("threads", env=env)))


if __name__ == "__main__":
    main()
