"""What every command shares: printing, the validated settings, and the pipeline they describe."""

from __future__ import annotations

from contextlib import contextmanager

import click

from rag_assets.settings import Settings, load_settings
from rag_serving.spec import PipelineSpec
from rag_serving.store.bootstrap import bootstrap


def say(message: str = "") -> None:
    click.echo(message)


def settings() -> Settings:
    """The environment, validated; a bad value stops the command with one line (rag_assets.cli.main)."""
    return load_settings()


@contextmanager
def pipeline(settings: Settings, spec: PipelineSpec | None = None):
    """The pipeline the settings describe (or a variant spec) on a one-connection serving pool, closed afterwards."""
    # Imported here: the models and answer modules are a third of a second that `rag ingest` and `rag db` never use.
    from rag_serving.wiring import embedder_for, from_settings, serving_database

    database = serving_database(settings, max_size=1, server_url=bootstrap(settings))
    try:
        yield from_settings(settings, database=database, embedder=embedder_for(settings), spec=spec)
    finally:
        database.close()


def fail(message: str, code: int = 2) -> click.exceptions.Exit:
    """Print message to stderr and end the command with code."""
    click.echo(message, err=True)
    return click.exceptions.Exit(code)
