"""`rag demo`: the sample corpus generated, ingested through the asset graph, searched, asked, and measured."""

from __future__ import annotations

import time

import click

from rag_assets.cli.context import pipeline, say, settings
from rag_assets.cli.evaluate import run_ablate
from rag_assets.cli.ingest import batch_line, collect_targets, print_summary, run_ingest
from rag_assets.cli.query import run_ask, run_search
from rag_serving.store.bootstrap import bootstrap

SEARCHES = [
    ("How many weeks of parental leave do full-time staff get?", "acme", "hq"),
    ("What does error E-104 mean?", "acme", "hq"),
    ("What is the new yard gate code?", "acme", "north-yard"),
]
# One answered, one abstained (a false premise), one clarified (a follow-up with nothing to follow).
ASKS = [
    ("How many weeks of parental leave do full-time staff get?", "acme", "hq"),
    ("Why was the 2023 bonus cancelled?", "acme", "hq"),
    ("Does that apply to part-time staff too?", "acme", "hq"),
]


@click.command("demo")
@click.option("--no-ablation", is_flag=True, help="skip the closing ablation table")
def demo(no_ablation) -> None:
    """Generate the sample corpus, ingest it, search and ask it, and print the shipped rows of the ablation."""
    from rag_assets.samples import generate

    started = time.perf_counter()
    s = settings()
    corpus = s.home / "sample-corpus"
    paths = generate(corpus)
    say(f"sample corpus: {len(paths)} documents under {corpus}")
    url = bootstrap(s)
    say(f"database: {'external (RAG_DATABASE_URL)' if s.database_url else 'embedded PostgreSQL in ' + str(s.pgdata)}")
    say(f"pipeline {s.pipeline().digest}: {s.pipeline().summary()}")
    ingest_started = time.perf_counter()
    batch = run_ingest(collect_targets([str(corpus)], None, None, True), s)
    ingest_seconds = time.perf_counter() - ingest_started
    say("")
    print_summary(url)
    say(batch_line(batch, ingest_seconds))
    with pipeline(s) as served:  # built once: every question below goes through the same stack
        for question, org, rooftop in SEARCHES:
            say("")
            say(f"$ rag search {question!r} --org {org} --rooftop {rooftop} --k 3")
            run_search(question, org, [rooftop], k=3, served=served)
        for question, org, rooftop in ASKS:
            say("")
            say(f"$ rag ask {question!r} --org {org} --rooftop {rooftop}")
            run_ask(question, org, [rooftop], served=served)
    if not no_ablation:
        say("")
        # The held-out split: what the demo reports is measured on questions nothing was tuned on (and it is a
        # quarter of dev's size, so the demo stays short).
        say("$ rag ablate --split heldout --rows shipped")
        run_ablate(split="heldout", rows="shipped")
        say("(the shipped rows only; `rag ablate` measures every component, including those left off)")
    say(f"\ndemo took {time.perf_counter() - started:.1f} s")
    say(next_steps(s.api_host, s.api_port))
    if batch.count("failed"):
        raise click.exceptions.Exit(2)


def next_steps(host: str, port: int) -> str:
    """What to try after the demo: the answer page, the API and the Dagster UI, with the commands that start them."""
    return f"""
What to try next:
  rag keys create --org acme --rooftop hq     an API key for the sample tenant (shown once)
  rag serve                                   the answer page at http://{host}:{port}/ (paste the key, ask,
                                              click a citation), the API docs at http://{host}:{port}/docs
  rag ui                                      the Dagster UI at http://127.0.0.1:3000/ (re-ingest, sweeps, the
                                              nightly benchmark)
  rag ingest <folder> --org <org> --rooftop <rooftop>    your own PDFs"""
