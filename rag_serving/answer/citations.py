"""Cites each quote at its own pages: the fewest consecutive pages of its chunk whose text holds the quote."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rag_serving.answer.responses import Draft, Source
from rag_serving.answer.sentences import squish
from rag_serving.search.hits import Hit
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

SECTION_REACH = 5  # pages searched on each side of a parent's own pages
Page = tuple[int, str, str]  # physical index, printed label, whitespace-squished text


def holder(quote: str, chunk_id: str, hits: Sequence[Hit], context: Sequence[Hit] = ()) -> tuple[Hit, bool] | None:
    """The hit a quote is taken from, and whether it is a parent (a section or window wider than its pages say):
    the cited chunk when it holds the quote, else the first retrieved chunk that does, else the context entry that
    does, else the cited entry as it is."""
    chunks = [h for h in hits if h.chunk_id == chunk_id] + list(hits)
    found = next((h for h in chunks if quote and quote in squish(h.body)), None)
    if found is not None:
        return found, False
    parent = next((h for h in context if quote and quote in squish(h.body)), None)
    if parent is not None:
        return parent, True
    cited = next((h for h in [*context, *hits] if h.chunk_id == chunk_id), None)
    return (cited, False) if cited is not None else None


def narrowest(quote: str, pages: Sequence[Page]) -> tuple[Page, Page] | None:
    """The first and last of the shortest run of consecutive pages whose joined text holds the quote."""
    for width in range(1, len(pages) + 1):
        for i in range(len(pages) - width + 1):
            run = pages[i : i + width]
            if quote in " ".join(p[2] for p in run):
                return run[0], run[-1]
    return None


def cite_pages(session: Session, draft: Draft, hits: Sequence[Hit], context: Sequence[Hit] = ()) -> Draft:
    """The draft with every source re-pointed at the pages holding its quote (one query for all of them).

    A chunk, or a parent section given to the generator, can span pages; its first page is not where a quote
    from its middle is printed. A quote across a page break cites both pages; a quote found on no page run (text
    the extractor changed) keeps the chunk's range."""
    plan: dict[int, tuple[Hit, int, int]] = {}  # id(source) -> (holder, first and last page to search)
    for sentence in draft.sentences:
        for src in sentence.sources:
            held = holder(squish(src.quote), src.chunk_id, hits, context)
            if held is not None:
                hit, parent = held
                # A parent's pages are its hits' pages; the section's text around them may sit on pages nearby.
                reach = SECTION_REACH if parent else 0
                plan[id(src)] = (hit, max(1, hit.page_start - reach), hit.page_end + reach)
    if not plan:
        return draft
    ranges = {(h.document_id, first, last) for h, first, last in plan.values() if first != last}
    pages: dict[str, dict[int, Page]] = {}  # overlapping ranges of one document return a page more than once
    if ranges:
        documents, firsts, lasts = map(list, zip(*sorted(ranges)))
        for row in session.execute(sql_text("page_texts"), {"documents": documents, "firsts": firsts, "lasts": lasts}):
            pages.setdefault(row["document_id"], {})[row["page_index"]] = (row["page_index"], row["page_label"],
                                                                           squish(row["text"]))
    sentences = []
    for sentence in draft.sentences:
        sources = []
        for src in sentence.sources:
            if id(src) not in plan:
                sources.append(src)
                continue
            hit, first_page, last_page = plan[id(src)]
            span = [p for i, p in sorted(pages.get(hit.document_id, {}).items()) if first_page <= i <= last_page]
            found = narrowest(squish(src.quote), span) if span else None
            if found is not None:
                (first, first_label, _), (last, last_label, _) = found
                hit = dataclasses.replace(hit, page_start=first, page_label_start=first_label, page_end=last,
                                          page_label_end=last_label)
            sources.append(Source.of(hit, src.quote))
        sentences.append(sentence.model_copy(update={"sources": sources}))
    return draft.model_copy(update={"sentences": sentences})
