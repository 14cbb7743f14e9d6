"""Real HTTP servers on 127.0.0.1 for tests: uvicorn in a background thread on a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(app, ready_path: str = "/openapi.json"):
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            if httpx.get(base + ready_path, timeout=1).status_code < 500:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(30)


def stop(proc, timeout: float = 20) -> None:
    """Terminate a server process; kill it if it has not exited within timeout seconds."""
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)


def stop_group(proc, timeout: float = 30) -> None:
    """Stop a process started with start_new_session and everything it started: SIGINT, then SIGTERM, then SIGKILL
    to the whole group, each given timeout seconds (`dagster dev` may sit on SIGINT while its code servers wind
    down, longer on a busy machine)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout)
            return
        except subprocess.TimeoutExpired:
            continue
    proc.wait(timeout)


def wait_ready(url: str, proc=None, timeout: float = 300) -> None:
    """Poll url until it answers 200; fail at once if proc (the server's process) has exited."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"server process exited with {proc.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} did not answer within {timeout} s")
