"""Parent sections: each hit's enclosing section (or a window of neighbouring chunks) as generator context, deduplicated, within a token budget."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from tokenizers import Tokenizer

from rag_serving.answer.sentences import join_pages
from rag_serving.search.hits import Hit
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

MAX_SECTION_TOKENS = 2000
CONTEXT_BUDGET = 8000
NEIGHBOURS = 1  # chunks on each side when a hit has no section or its section is too long


@dataclass(frozen=True)
class ParentPlan:
    max_section_tokens: int = MAX_SECTION_TOKENS
    budget: int = CONTEXT_BUDGET
    neighbours: int = NEIGHBOURS


def count_tokens(tokenizer: Tokenizer, text: str) -> int:
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def parents(session: Session, hits: Sequence[Hit], tokenizer: Tokenizer,
            plan: ParentPlan = ParentPlan()) -> list[Hit]:
    """The generator's context for ranked hits: one entry per parent (section, or neighbour window), ordered by its
    best hit, whose body is the parent's text and whose pages are its hits' own pages (not the section's first
    page). Parents are added while the total stays within the budget; one that does not fit falls back to its
    best hit's chunk when that fits."""
    if not hits:
        return []
    rows = {r["chunk_id"]: r for r in session.execute(sql_text("parent_spans"),
                                                   {"ids": [h.chunk_id for h in hits], "neighbours": plan.neighbours})}
    spans: dict[str, tuple] = {}
    owner: dict[str, list[Hit]] = {}
    for h in hits:
        r = rows.get(h.chunk_id)
        if r is None:
            continue
        if r["section_id"] and r["section_tokens"] <= plan.max_section_tokens:
            key = f"section:{r['section_id']}"
            span = (r["document_id"], r["s_page_start"], r["s_char_start"], r["s_page_end"], r["s_char_end"])
        else:
            key = f"window:{h.chunk_id}"
            span = (r["document_id"], r["w_page_start"], r["w_char_start"], r["w_page_end"], r["w_char_end"])
        spans.setdefault(key, span)
        owner.setdefault(key, []).append(h)
    keys = list(owner)  # insertion order = rank of each parent's best hit
    columns = list(zip(*[spans[k] for k in keys]))
    texts = {r["key"]: join_pages(r["fragments"]) for r in session.execute(sql_text("span_text"), {
        "keys": keys, "documents": list(columns[0]), "page_starts": list(columns[1]), "char_starts": list(columns[2]),
        "page_ends": list(columns[3]), "char_ends": list(columns[4])})}
    out, used, seen_windows = [], 0, set()
    for key in keys:
        best, group = owner[key][0], owner[key]
        text = texts.get(key) or best.body
        if key.startswith("window:") and text in seen_windows:
            continue  # neighbouring hits whose windows came out identical
        tokens = count_tokens(tokenizer, text)
        if used + tokens > plan.budget:
            text, tokens = best.body, count_tokens(tokenizer, best.body)
            if used + tokens > plan.budget:
                break
        seen_windows.add(text)
        used += tokens
        first = min(group, key=lambda h: (h.page_start, h.page_label_start))
        last = max(group, key=lambda h: (h.page_end, h.page_label_end))
        out.append(dataclasses.replace(best, body=text, page_start=first.page_start, page_label_start=first.page_label_start,
                                       page_end=last.page_end, page_label_end=last.page_label_end))
    return out

