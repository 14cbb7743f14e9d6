"""`rag search` and `rag ask`: the served pipeline from the terminal, scoped to one tenant."""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import TYPE_CHECKING

import click

from rag_assets.cli.context import fail, pipeline, say, settings
from rag_serving.store.sessions import Tenant

# The search and answer modules load when a command runs (cli/context.pipeline says why).
if TYPE_CHECKING:
    from rag_serving.answer.responses import Response
    from rag_serving.search.hits import Filters

tenant_options = [
    click.option("--org", required=True, help="organization"),
    click.option("--rooftop", "rooftops", multiple=True, required=True, help="collection; repeat for several"),
]


def with_tenant(command):
    for option in reversed(tenant_options):
        command = option(command)
    return command


def run_search(question: str, org: str, rooftops, *, k: int = 10, mode=None, sparse=None, rerank: bool = True,
               filters: Filters | None = None, served=None) -> None:
    """Print the hits; served is a pipeline to reuse (the demo asks several questions of one)."""
    from rag_serving.search.legs import IndexModelMismatch

    with (nullcontext(served) if served else pipeline(settings())) as p:
        started = time.perf_counter()
        try:
            hits = p.search(Tenant(org, tuple(rooftops)), question, k=k, filters=filters, rerank=rerank, mode=mode,
                            sparse=sparse)
        except IndexModelMismatch as exc:
            raise fail(f"rag search: {exc}")
        ran = "legs only" if not rerank or (mode or p.spec.mode, sparse or p.spec.sparse) != (p.spec.mode, p.spec.sparse) \
            else f"pipeline {p.spec.digest}"
    say(f"{len(hits)} hits ({mode or p.spec.mode}, {ran}, {(time.perf_counter() - started) * 1000:.0f} ms) "
        f"for {org}/{','.join(rooftops)}")
    for i, h in enumerate(hits, start=1):
        ranks = f"dense #{h.dense_rank or '-'} sparse #{h.sparse_rank or '-'}"
        rerank_note = f"  reranker {h.rerank_score:.3f}" if h.rerank_score is not None else ""
        say(f"{i:>2}. {h.score:.4f}  {h.title}, {h.pages}  [{h.link}]  {ranks}{rerank_note}")
        if h.heading_path:
            say(f"    {h.heading_path}")
        say("    " + " ".join(h.body.split())[:200])


@click.command("search")
@click.argument("question")
@with_tenant
@click.option("--k", type=int, default=10, show_default=True, help="hits to show")
@click.option("--mode", type=click.Choice(["dense", "sparse", "hybrid"]), help="legs; default: the pipeline's")
@click.option("--sparse", type=click.Choice(["bm25", "tsrank"]), help="sparse leg; default: the pipeline's")
@click.option("--no-rerank", is_flag=True, help="the fused legs as they are, without the pipeline's reranker")
@click.option("--kind", multiple=True, help="only documents of this kind (repeat for several)")
@click.option("--year", type=int, help="only documents published that year")
@click.option("--published-from", help="only documents published on or after (YYYY-MM-DD)")
@click.option("--published-to", help="only documents published on or before (YYYY-MM-DD)")
@click.option("--document", multiple=True, help="document id or source path")
@click.option("--section", help="heading path prefix")
def search(question, org, rooftops, k, mode, sparse, no_rerank, kind, year, published_from, published_to, document,
           section) -> None:
    """Ranked, tenant-scoped chunks for a question, as POST /retrieve returns them."""
    from rag_serving.search.hits import Filters

    filters = Filters(kinds=list(kind) or None, year=year, documents=list(document) or None, section=section,
                      published_from=published_from, published_to=published_to)
    run_search(question, org, rooftops, k=k, mode=mode, sparse=sparse, rerank=not no_rerank, filters=filters)


def render_response(r: Response) -> list[str]:
    """A response as terminal lines: the answer with footnotes, or the abstention with the closest sources."""
    lines = [f"route: {r.route} (confidence {r.confidence:.2f}; {r.evidence.get('reason', '')})"]
    if r.answer is not None:
        notes: list[str] = []
        text = []
        for sentence in r.answer:
            marks = []
            for src in sentence.sources:
                notes.append(f"[{len(notes) + 1}] {src.title}, {src.pages} ({src.link}): “{src.quote}”")
                marks.append(f"[{len(notes)}]")
            text.append(sentence.text + "".join(marks))
        lines.append(" ".join(text))
        lines.extend(notes)
        if r.message:  # e.g. the side of a comparison the documents lack
            lines.append(r.message)
        if r.grounding:
            lines.append(f"grounding: passed ({r.grounding.judge} support check, cited ratio {r.grounding.cited_ratio:.2f})")
        return lines
    lines.append(r.message)
    if r.grounding and not r.grounding.passed:
        lines.append(f"grounding failed ({r.grounding.failed_check}): " + "; ".join(r.grounding.problems[:3]))
    for w in r.web_results:
        lines.append(f"[web] {w.title} <{w.url}>")
    if r.route in ("abstain", "answer") and r.sources:
        lines.append("closest sources:")
        lines.extend(f"  - {s.title}, {s.pages} ({s.link})" for s in r.sources)
    return lines


def run_ask(question: str, org: str, rooftops, *, history=(), as_json: bool = False, served=None) -> None:
    from rag_serving.answer.generators import GeneratorError
    from rag_serving.search.legs import IndexModelMismatch

    with (nullcontext(served) if served else pipeline(settings())) as p:
        try:
            response = p.ask(Tenant(org, tuple(rooftops)), question, history=list(history))
        except (IndexModelMismatch, GeneratorError) as exc:
            raise fail(f"rag ask: {exc}")
    if as_json:
        say(response.model_dump_json(indent=2))
    else:
        for line in render_response(response):
            say(line)


@click.command("ask")
@click.argument("question")
@with_tenant
@click.option("--history", multiple=True, help="an earlier user turn; repeat in order")
@click.option("--json", "as_json", is_flag=True, help="print the full response as JSON")
def ask(question, org, rooftops, history, as_json) -> None:
    """An answer with page citations, or an honest abstention (the pipeline POST /query serves)."""
    run_ask(question, org, rooftops, history=history, as_json=as_json)
