"""`rag serve`, `rag models` and `rag ui` as a user runs them: real servers on 127.0.0.1, stopped as a user stops them."""

import json
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from rag_assets.cli.services import UI_STOP_SECONDS
from tests.rag_assets.cli.commands import RAG, REPO, run
from tests.servers import free_port, stop, wait_ready


def _ignore_stop_signals() -> None:
    """As a shell's background job (or a CI runner's) starts a command: SIGINT and SIGTERM ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def test_ui_serves_on_localhost_and_stops_cleanly(embedded_env):
    port = free_port()
    proc = subprocess.Popen(RAG + ["ui", "--port", str(port)], env=embedded_env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                            preexec_fn=_ignore_stop_signals)
    banner = proc.stdout.readline()
    group = int(banner.split("process group ")[1].split(";")[0])
    try:
        deadline = time.time() + 300
        ready = False
        while time.time() < deadline and not ready:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/server_info", timeout=2).status_code == 200
            except httpx.HTTPError:
                time.sleep(1)
        assert ready, "dagster UI did not come up"
        graphql = httpx.post(f"http://127.0.0.1:{port}/graphql", timeout=30,
                             json={"query": "{ assetNodes { assetKey { path } } }"}).json()
        keys = {n["assetKey"]["path"][0] for n in graphql["data"]["assetNodes"]}
        assert {"source_documents", "pages", "sections", "chunks", "published_documents"} <= keys
    finally:
        stopping = time.time()
        proc.send_signal(signal.SIGINT)
        proc.wait(90)
    # dagster dev stopped on `rag ui`'s SIGTERM, not on the SIGKILL that follows UI_STOP_SECONDS without it.
    assert time.time() - stopping < UI_STOP_SECONDS
    # Nothing of dagster dev's process group (webserver, daemon, code servers) outlives the command.
    assert subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split() == []
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/server_info", timeout=2)


def test_serve_answers_with_a_created_key(external_env, tmp_path):
    (tmp_path / "faq.md").write_text("# FAQ\n\nInvoices are paid net 45.\n")
    assert run(["ingest", str(tmp_path / "faq.md"), "--org", "acme", "--rooftop", "hq"], external_env).returncode == 0
    created = run(["keys", "create", "--org", "acme", "--rooftop", "hq", "--label", "test"], external_env)
    key = created.stdout.splitlines()[0].strip()
    assert key.startswith("rag_")
    listed = run(["keys", "list"], external_env).stdout
    assert "acme/hq  active" in listed and "test" in listed and key not in listed  # the key itself is never stored
    port = free_port()
    log = tmp_path / "serve.log"
    proc = subprocess.Popen(RAG + ["serve", "--port", str(port)], env=external_env, cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        deadline, response = time.time() + 300, None
        while time.time() < deadline:
            try:
                response = httpx.post(f"http://127.0.0.1:{port}/retrieve", json={"question": "when are invoices paid"},
                                      headers={"Authorization": f"Bearer {key}"}, timeout=30)
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        assert response is not None and response.status_code == 200
        assert response.json()["hits"][0]["source_path"] == "faq.md"
        # Re-executed with two malloc arenas, under the same pid the caller knows.
        assert b"MALLOC_ARENA_MAX=2" in Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
    finally:
        proc.terminate()
        proc.wait(30)
    # Its log is JSON lines (RAG_LOG_FORMAT's default), the access line carrying the request's id.
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "uvicorn.access" and "/retrieve" in line["message"]]
    assert access and access[-1]["request_id"] == response.headers["x-request-id"]


def test_ask_through_a_local_gguf_model_served_by_models_llm(external_env, tmp_path):
    (tmp_path / "faq.md").write_text("# Payments\n\nInvoices are paid within 45 days of receipt.\n")
    assert run(["ingest", str(tmp_path / "faq.md"), "--org", "acme", "--rooftop", "hq"], external_env).returncode == 0
    port = free_port()
    proc = subprocess.Popen(RAG + ["models", "llm", "--port", str(port)], env=external_env, cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}/health", proc)
        env = {**external_env, "RAG_GENERATOR": "openai", "RAG_GENERATOR_URL": f"http://127.0.0.1:{port}/v1",
               "RAG_MAX_ANSWER_TOKENS": "60", "RAG_ANSWER_THRESHOLD": "0"}
        result = run(["ask", "How many days until invoices are paid?", "--org", "acme", "--rooftop", "hq", "--json"],
                     env, timeout=300)
    finally:
        stop(proc)
    assert proc.returncode == 0  # SIGTERM stopped it; a kill would show -9
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    # A 135M model's wording is not checked; that the answer went through the adapter and the check is.
    assert body["generator"] == "openai" and body["route"] in ("answer", "abstain")
    assert body["grounding"] is None or body["grounding"]["judge"] == "lexical"


def test_models_serve_speaks_tei_info_and_embed(external_env):
    port = free_port()
    proc = subprocess.Popen(RAG + ["models", "serve", "--port", str(port)], env=external_env, cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, info = time.time() + 300, None
        while time.time() < deadline and info is None:
            try:
                info = httpx.get(f"http://127.0.0.1:{port}/info", timeout=5).json()
            except httpx.HTTPError:
                time.sleep(0.5)
        assert info["model_id"].startswith("all-MiniLM-L6-v2/onnx-int8/") and info["max_input_length"] == 256
        vectors = httpx.post(f"http://127.0.0.1:{port}/embed", json={"inputs": ["hello"]}, timeout=30).json()
        assert len(vectors) == 1 and len(vectors[0]) == 384
    finally:
        proc.terminate()
        proc.wait(30)
