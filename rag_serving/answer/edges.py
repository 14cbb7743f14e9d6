"""Whole sentences at chunk edges: a retrieved chunk widened to finish the sentences its window cut, from its pages."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from rag_serving.answer.sentences import FINISHED, is_row
from rag_serving.search.hits import Hit
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

# Characters read on each side of a chunk: a sentence cut further from its end than this stays cut.
REACH = 400
# Where a sentence ends: closing punctuation (with a closing quote or bracket) before a space, or a blank line.
_END = re.compile(r"[.!?][\"”’)]?(?=\s)|\n\s*\n")


def opens_mid_sentence(body: str) -> bool:
    """Whether the chunk window cut its first sentence (it opens in lower case)."""
    return body.lstrip()[:1].islower()


def ends_mid_sentence(body: str) -> bool:
    """Whether the chunk window cut its last sentence (no closing punctuation; a table row ends without one)."""
    last = body.rstrip().rsplit("\n", 1)[-1]
    return bool(last) and not last.endswith(FINISHED) and not is_row(last)


def widened(body: str, before: str, after: str) -> str:
    """body with the start of its first sentence from `before` and the end of its last from `after`, where the
    window cut them and the sentence's edge is within reach; otherwise as it is."""
    if opens_mid_sentence(body):
        ends = list(_END.finditer(before))
        if ends:
            body = before[ends[-1].end():].lstrip() + body
    if ends_mid_sentence(body):
        end = _END.search(after)
        if end:
            body = body + after[: end.end()].rstrip()
    return body


def cut(body: str) -> bool:
    """Whether the chunk window cut its first or last sentence."""
    return opens_mid_sentence(body) or ends_mid_sentence(body)


def edge_texts(execute: Callable, ids: Sequence[str], reach: int = REACH) -> dict[str, tuple[str, str]]:
    """Chunk id → the page text just before and just after it, through `execute` (a session's, or ingest's
    connection's, so the sentence vectors ingest stores are those of the sentences the answer step reads)."""
    if not ids:
        return {}
    rows = execute(sql_text("chunk_edges"), {"ids": list(ids), "reach": reach}).fetchall()
    return {r["chunk_id"]: (r["before"], r["after"]) for r in rows}


def whole_sentences(session: Session, hits: Sequence[Hit], reach: int = REACH) -> list[Hit]:
    """The hits with every sentence the chunk window cut made whole from the page text around it (one query)."""
    edges = edge_texts(session.execute, [h.chunk_id for h in hits if cut(h.body)], reach)
    return [dataclasses.replace(h, body=widened(h.body, *edges[h.chunk_id])) if h.chunk_id in edges else h
            for h in hits]
