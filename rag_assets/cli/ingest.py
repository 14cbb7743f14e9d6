"""`rag ingest`, `rag docs`, `rag errors`, `rag corpus`: files into the asset graph, and what came out of it."""

from __future__ import annotations

import time
from pathlib import Path

import click

from rag_assets.cli.context import fail, say, settings
from rag_assets.settings import Settings
from rag_serving.store import catalog
from rag_serving.store.bootstrap import bootstrap, connect


def print_summary(url: str) -> None:
    with connect(url) as conn:
        rows = catalog.tenant_summary(conn)
    say(f"{'tenant':<24} {'documents':>9} {'pages':>7} {'sections':>8} {'chunks':>7}")
    for r in rows:
        say(f"{r['organization_id'] + '/' + r['rooftop_id']:<24} {r['documents']:>9} {r['pages']:>7} "
            f"{r['sections']:>8} {r['chunks']:>7}")


def collect_targets(paths: list[str], org: str | None, rooftop: str | None, tenant_folders: bool):
    from rag_assets.ingest.targets import path_targets, tenant_folder_targets

    resolved = []
    for raw in paths:
        path = Path(raw).expanduser().resolve()
        if not path.exists():
            raise fail(f"rag ingest: {raw}: no such file or directory")
        if tenant_folders and not path.is_dir():
            raise fail(f"rag ingest: {raw}: --tenant-folders needs a directory laid out as <organization>/<rooftop>/...")
        resolved.append(path)
    if tenant_folders:
        return [t for p in resolved for t in tenant_folder_targets(p)]
    if not org or not rooftop:
        raise fail("rag ingest: --org and --rooftop are required (or use --tenant-folders)")
    return path_targets(resolved, org, rooftop)


def unchanged_batch(targets, s: Settings, url: str):
    """The batch, when every file's exact version is already live and no live chunk lacks vectors: found without
    Dagster, whose import and instance were most of an unchanged re-ingest's time. None when anything is to do.
    Runs a dead ingest left unfinished are marked failed by the next ingest that runs anything."""
    from rag_assets.ingest.registration import chunking_digest, live_sha256
    from rag_assets.ingest.targets import BatchResult, FileOutcome, label, unchanged_line
    from rag_assets.ingest.vectors import vectors_missing
    from rag_serving.models.embedders import makes_token_vectors
    from rag_serving.models.tokenization import load_tokenizer, tokenizer_digest

    digest = chunking_digest(s.chunk_size, s.chunk_overlap, s.chunk_snap, tokenizer_digest(load_tokenizer()))
    lines, batch = [], BatchResult()
    with connect(url) as conn:
        for i, t in enumerate(targets, start=1):
            try:
                sha = live_sha256(conn, t.path, organization_id=t.organization_id, rooftop_id=t.rooftop_id,
                                  source_path=t.source_path, digest=digest)
            except OSError:
                return None  # the graph's registration reports it, as for any file it cannot read
            if sha is None:
                return None
            lines.append(unchanged_line(label(i, len(targets), t), sha))
            batch.outcomes.append(FileOutcome(t, "unchanged", sha256=sha))
        if vectors_missing(conn, tokens=makes_token_vectors(s.embedder)):
            return None
    for line in lines:
        say(line)
    return batch


def run_ingest(targets, s: Settings, *, kind: str | None = None, published_on: str | None = None):
    """Each file through the Dagster asset graph (one run per file), then token vectors for chunks that lack them."""
    url = bootstrap(s)
    skipped = unchanged_batch(targets, s, url)
    if skipped is not None:
        return skipped
    from dagster import DagsterInstance

    from rag_assets.definitions import build_resources
    from rag_assets.ingest.runner import ingest_targets
    from rag_assets.ingest.vectors import backfill_sentence_vectors, backfill_token_vectors, vectors_missing
    from rag_assets.instance import prepare_dagster_env
    from rag_serving.models.embedders import makes_token_vectors

    prepare_dagster_env(s)
    resources = build_resources(s)
    resources["database"] = resources["database"].model_copy(update={"url": url})
    instance = DagsterInstance.get()
    # Dagster's PostgreSQL storage opens a new connection for every event it writes unless told, as its webserver
    # tells it, to keep a pool: ~280 connections per file, a second of a small file's 3 s (docs/decisions.md,
    # "Dagster's storage keeps its connections in `rag ingest`"). No statement timeout, as without the pool.
    instance.optimize_for_webserver(statement_timeout=0, pool_recycle=3600, max_overflow=4)
    batch = ingest_targets(targets, url=url, resources=resources, instance=instance,
                           kind=kind, published_on=published_on, say=say)
    if batch.stopped:
        return batch
    # Files ingested before token or sentence vectors were stored are skipped as unchanged; give their chunks both.
    with connect(url, autocommit=True) as conn:
        if not vectors_missing(conn, tokens=makes_token_vectors(s.embedder)):
            return batch  # nothing to backfill: do not spend a second loading the encoder
        report = backfill_token_vectors(conn, resources["embedder"].get())
        sentences = backfill_sentence_vectors(conn, resources["embedder"].get())
    if report.counts.get("encoded"):
        say(f"token vectors added for {report.counts['encoded']} chunks ingested before late interaction")
    if sentences.counts.get("chunks"):
        say(f"sentence vectors added for {sentences.counts['chunks']} chunks ingested before they were stored")
    return batch


def batch_line(batch, seconds: float) -> str:
    return (
        f"{len(batch.outcomes)} files: {batch.count('new')} new, {batch.count('changed')} changed, "
        f"{batch.count('retry')} retried, {batch.count('unchanged')} unchanged (skipped), "
        f"{batch.count('failed')} failed; {batch.pages} pages ingested in {seconds:.1f} s"
    )


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True)
@click.option("--org", help="organization the files belong to")
@click.option("--rooftop", help="collection (site, team) within the organization")
@click.option("--kind", help="document kind for every file, e.g. handbook, policy")
@click.option("--published-on", help="publication date for every file (YYYY-MM-DD)")
@click.option("--tenant-folders", is_flag=True, help="paths are laid out as <organization>/<rooftop>/...")
@click.option("--allow-failures", is_flag=True, help="exit 0 even if some files failed")
def ingest(paths, org, rooftop, kind, published_on, tenant_folders, allow_failures) -> None:
    """Ingest files or folders through the Dagster assets (unchanged files are skipped)."""
    s = settings()
    targets = collect_targets(list(paths), org, rooftop, tenant_folders)
    if not targets:
        raise fail("nothing to ingest: no .pdf, .md or .txt files found", 1)
    started = time.perf_counter()
    batch = run_ingest(targets, s, kind=kind, published_on=published_on)
    say(batch_line(batch, time.perf_counter() - started))
    if batch.stopped or (batch.count("failed") and not allow_failures):
        raise click.exceptions.Exit(2)


@click.command("docs")
@click.option("--org", help="only this organization's documents")
@click.option("--rooftop", help="only this collection's (with --org)")
def docs(org, rooftop) -> None:
    """List live documents."""
    with connect(bootstrap(settings())) as conn:
        rows = catalog.list_documents(conn, org, rooftop)
    if not rows:
        say("no live documents")
        return
    say(f"{'tenant':<18} {'source':<34} {'kind':<9} {'published':<10} {'pages':>5} {'sect':>5} {'chunks':>6}  sha256")
    for d in rows:
        extra = [f"{d['ocr_pages']} OCR"] * bool(d["ocr_pages"]) + [f"{d['unreadable_pages']} unreadable"] * bool(
            d["unreadable_pages"]) + ["no text: never found by a search"] * (not d["chunks"])
        say(f"{d['organization_id'] + '/' + d['rooftop_id']:<18} {d['source_path'][:34]:<34} {(d['kind'] or '-'):<9} "
            f"{str(d['published_on'] or '-'):<10} {d['page_count'] or 0:>5} {d['sections']:>5} {d['chunks']:>6}  "
            f"{d['sha256'][:12]}{'  (' + ', '.join(extra) + ')' if extra else ''}")


@click.command("errors")
@click.option("--limit", type=int, default=20, show_default=True, help="newest first, this many")
def errors(limit) -> None:
    """Recent ingest errors and warnings."""
    with connect(bootstrap(settings())) as conn:
        for e in catalog.recent_errors(conn, limit):
            page = f" page {e['page_index']}" if e["page_index"] else ""
            say(f"{e['occurred_at']:%Y-%m-%d %H:%M:%S} {e['severity']:<7} {e['organization_id']}/{e['rooftop_id']} "
                f"{e['source_path']}{page} [{e['stage']}/{e['error_class']}] {e['message']}")


@click.command("corpus")
@click.argument("action", type=click.Choice(["generate"]))
@click.argument("out", type=click.Path(file_okay=False))
def corpus(action, out) -> None:
    """Write the sample corpus (PDFs, Markdown, text and their .meta.yaml) under OUT."""
    from rag_assets.samples import generate

    started = time.perf_counter()
    paths = generate(Path(out))
    say(f"wrote {len(paths)} documents under {out} in {time.perf_counter() - started:.1f} s")
