"""Editions: a document replaced by a newer one with the same title ranks below it unless the question names its year;
the edition a question names ranks above the others."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_serving.search.hits import Hit

# What tells editions of one title apart: a year, a version number, the words edition, version or revision.
_EDITION = re.compile(r"\b(19|20)\d\d\b|\bv?\d+(\.\d+)+\b|\b(edition|version|rev\.?\s*\w+)\b", re.I)


_NAMED = re.compile(r"\b(?:19|20)\d\d\b|\b(?=[a-z0-9.-]*\d)[a-z0-9]+(?:[.-][a-z0-9]+)+\b|\b(?:v|rev)\s?\d+\b|"
                    r"\b(?:first|second|third|fourth|fifth|\d+(?:st|nd|rd|th))\s+edition\b")


def named(question: str) -> list[str]:
    """What in a question can name an edition: years, version numbers, "rev 3", "second edition" (lower-cased)."""
    return [m.group(0) for m in _NAMED.finditer(question.lower())]


def title_key(title: str) -> str:
    """The title without its edition marks: "Employee Handbook 2024" and "Employee Handbook 2025" share one."""
    return " ".join(_EDITION.sub(" ", title).lower().split())


def superseded(hits: Sequence[Hit], named: Sequence[str]) -> set[str]:
    """Documents among the hits that another edition with the same title outranks: the edition whose title holds
    one of the named terms (the question's years and identifiers, lower-cased) when the question names one, else
    the one published last."""
    newest: dict[str, Hit] = {}
    chosen: dict[str, set[str]] = {}
    for h in hits:
        key = title_key(h.title)
        if h.published_on and (key not in newest or h.published_on > newest[key].published_on):
            newest[key] = h
        if any(term in h.title.lower() for term in named):
            chosen.setdefault(key, set()).add(h.document_id)
    out = set()
    for h in hits:
        key = title_key(h.title)
        if key in chosen:
            if h.document_id not in chosen[key]:
                out.add(h.document_id)  # the question names another edition of this title
            continue
        latest = newest.get(key)
        if latest and h.published_on and h.published_on < latest.published_on:
            out.add(h.document_id)
    return out


def current_first(hits: Sequence[Hit], named: Sequence[str]) -> list[Hit]:
    """The hits with each outranked edition's hits moved to just below the first hit of the edition preferred over
    it (the named one, else the newest); everything else keeps its order."""
    old = superseded(hits, named)
    if not old:
        return list(hits)
    out: list[Hit] = []
    waiting: dict[str, list[Hit]] = {}
    for h in hits:
        key = title_key(h.title)
        if h.document_id in old:
            waiting.setdefault(key, []).append(h)
            continue
        out.append(h)
        out.extend(waiting.pop(key, []))
    return out + [h for rest in waiting.values() for h in rest]
