"""`rag db`: the embedded PostgreSQL's lifecycle (start, stop, status, url); an external server is only reported."""

from __future__ import annotations

import time

import click

from rag_assets.cli.context import fail, say, settings
from rag_serving.store import embedded
from rag_serving.store.bootstrap import APP_DATABASE, bootstrap, connect
from rag_serving.store.migrate import migration_files


@click.command("db")
@click.argument("action", type=click.Choice(["start", "stop", "status", "url", "migrate"]))
def db(action: str) -> None:
    """Embedded PostgreSQL: start, stop, status, url; migrate brings either server's schema up to date (a deployment's
    one-off step before the servers start)."""
    s = settings()
    if action == "migrate":
        bootstrap(s)  # applies whatever is pending, each migration in its own transaction, or fails naming it
        say(f"schema up to date: {migration_files()[-1][0]}")
        return
    if s.database_url and action in ("start", "stop"):
        say(f"RAG_DATABASE_URL is set: using the external server; nothing to {action}")
        return
    if action == "start":
        started = time.perf_counter()
        url = bootstrap(s)
        say(f"embedded PostgreSQL running in {s.pgdata} ({time.perf_counter() - started:.1f} s); schema migrated")
        say(url)
    elif action == "stop":
        say("stopped" if embedded.stop(s.pgdata) else f"not running ({s.pgdata})")
    elif action == "status":
        if s.database_url:
            with connect(s.database_url) as conn:
                say(f"external server: {conn.execute('SELECT version() AS v').fetchone()['v']}")
            return
        st = embedded.status(s.pgdata)
        say(f"{'running' if st.running else 'not running'}: {st.detail} (pgdata {st.pgdata}, pid {st.pid})")
        if not st.running:
            raise click.exceptions.Exit(3)
    else:
        url = s.database_url or embedded.uri(s.pgdata, APP_DATABASE)
        if not url:
            raise fail("not running; start it with `rag db start`", 3)
        say(url)
