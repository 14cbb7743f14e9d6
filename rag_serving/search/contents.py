"""Contents pages: section titles and their page numbers, which share a question's words without answering it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_serving.answer.sentences import DOT_LEADER_PAGE
from rag_serving.search.hits import Hit

# A contents entry ends in its page number after a leader: dots as printed, " ... " as ingest writes them, or a run of
# spaces (a chapter's line in many LaTeX contents, "5   Sound        49"). Spaces alone also end a table's row, so a
# chunk needs leaders among its entries to read as contents.
_LEADER = re.compile(DOT_LEADER_PAGE, re.I)
_SPACED = re.compile(r"\S\s{3,}[0-9ivxlc]{1,5}\s*$", re.I)
MIN_LEADERS = 3
MIN_ENTRIES = 5
SHARE = 0.5
# A title page's chunk runs on into the contents ("This manual is for GNU Libtasn1 (version 4.19.0, …)" above
# "1 Introduction ... 1"): the words outside the entries say something, and the chunk is no contents page.
PROSE_SHARE = 0.4


def reads_as_contents(body: str) -> bool:
    """Whether a chunk is mostly contents entries ("4.5 Can I use Debian packages on my Red Hat system? ... 14")."""
    lines = [line for line in body.split("\n") if line.strip()]
    led = [bool(_LEADER.search(line)) for line in lines]  # each line read once: this runs on every hit of a query
    entries = [line for line, lead in zip(lines, led) if lead or _SPACED.search(line)]
    if sum(led) < MIN_LEADERS or len(entries) < MIN_ENTRIES or len(entries) < SHARE * len(lines):
        return False
    words = sum(len(line.split()) for line in lines)
    prose = words - sum(len(line.split()) for line in entries)
    return prose < PROSE_SHARE * words


def contents_last(hits: Sequence[Hit]) -> list[Hit]:
    """The hits with contents pages moved below every other hit, each group in its order. An FAQ's contents page
    repeats its questions word for word and outranked the answers it points to."""
    contents = [reads_as_contents(h.body) for h in hits]
    return [h for h, c in zip(hits, contents) if not c] + [h for h, c in zip(hits, contents) if c]
