"""The `rag` command line: one click group; commands live in modules by what they work on."""

from __future__ import annotations

import logging
import sys
import warnings

import click

from rag_assets.cli import admin, config, database, demo, evaluate, ingest, query, services
from rag_serving.settings import SettingsError
from rag_serving.spec import WiringError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
def rag() -> None:
    """Retrieval-augmented answers with page citations over an organization's documents.

    Settings come from RAG_* environment variables (`rag config`); the embedded PostgreSQL lives in RAG_HOME
    (default .rag) unless RAG_DATABASE_URL names an external server.
    """


for command in (database.db, ingest.ingest, ingest.docs, ingest.errors, ingest.corpus, demo.demo, query.search,
                query.ask, evaluate.eval_, evaluate.ablate, evaluate.sweep, admin.keys, admin.web, services.serve,
                services.models, services.ui, config.config):
    rag.add_command(command)


def main(argv: list[str] | None = None) -> int:
    """Run a command; a bad setting or an unbuildable pipeline ends it with one line on stderr and exit code 2."""
    warnings.filterwarnings("ignore")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("rag.ingest").setLevel(logging.INFO)
    try:
        # Outside standalone mode click returns an Exit's code instead of calling sys.exit.
        result = rag.main(args=argv, prog_name="rag", standalone_mode=False)
    except (SettingsError, WiringError) as exc:
        click.echo(f"rag: {exc}", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
