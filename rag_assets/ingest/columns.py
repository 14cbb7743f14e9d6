"""A page set in two columns read column by column: layout mode sets both columns' lines side by side."""

from __future__ import annotations

import re
from collections import Counter

# The right column starts after a gutter of at least this many spaces, at the same place on line after line.
GUTTER = 3
DRIFT = 2  # layout mode places characters on a grid of whole spaces; a column's edge drifts by a character or two
# Two columns of prose, not a table: on a paper's page (2303.08559 in MMLongBench-Doc) 43 of 50 lines hold both
# columns, each side 5-9 words; a statement's rows hold one to three figures on the right, a parts table 2-5 lines.
MIN_SPLIT_LINES = 8
MIN_SPLIT_SHARE = 0.5
MIN_SIDE_WORDS = 4.0
# Nor a table: over the pages found two-column among 300 PDFs (54 from MMLongBench-Doc, 246 from Debian's manuals;
# 2026-12-07), a 10-K's officers table set wide gaps between cells on most lines, and a headset's
# table of labels and values filled a third of its left column, where prose fills most of it.
MAX_GAPPED_SHARE = 0.2
MIN_FILL = 0.6
_START = re.compile(rf"(?<= {{{GUTTER}}})\S")
_WIDE_GAP = re.compile(rf"\S {{{GUTTER},}}\S")


def _gutter(lines: list[str]) -> int | None:
    """Where the right column starts, or None when the page is not set in two columns of prose."""
    width = max((len(line) for line in lines), default=0)
    starts = Counter(m.start() for line in lines for m in _START.finditer(line)
                     if 0.3 * width <= m.start() <= 0.7 * width)
    if not starts:
        return None
    # The most lines start near one place: count each start with its neighbours within the drift.
    centre = max(starts, key=lambda s: sum(starts[s + d] for d in range(-DRIFT, DRIFT + 1)))
    edge = min(s for s in starts if abs(s - centre) <= DRIFT)
    split = [line for line in lines if len(line) > edge and not line[edge - GUTTER:edge].strip()
             and line[:edge].strip() and line[edge:].strip()]
    long = [line for line in lines if len(line) > edge]
    if len(split) < MIN_SPLIT_LINES or len(split) < MIN_SPLIT_SHARE * len(long):
        return None
    sides = [(line[:edge].strip(), line[edge:].strip()) for line in split]
    left = sum(len(a.split()) for a, _ in sides) / len(sides)
    right = sum(len(b.split()) for _, b in sides) / len(sides)
    # A table's row holds wide gaps between its cells on either side of any one gap; a column of prose does not.
    gapped = sum(bool(_WIDE_GAP.search(side)) for pair in sides for side in pair)
    if gapped > MAX_GAPPED_SHARE * 2 * len(sides):
        return None
    # Prose fills its column's width; a table's labels ("Ambient Sound Mode: ON") leave most of it empty.
    filled = sum(len(line[:edge].rstrip()) for line in split) / len(split) >= MIN_FILL * edge
    return edge if filled and left >= MIN_SIDE_WORDS and right >= MIN_SIDE_WORDS else None


def split_columns(text: str) -> str:
    """The page's layout text with each run of two-column lines read left column first, then right; a line that runs
    across the gutter (a heading or caption set the full width) stays where it is, between the runs."""
    lines = text.split("\n")
    edge = _gutter(lines)
    if edge is None:
        return text
    out: list[str] = []
    left: list[str] = []
    right: list[str] = []

    def flush() -> None:
        out.extend(left)
        if right and any(r.strip() for r in right):
            out.extend(["", *right])
        left.clear()
        right.clear()

    for line in lines:
        if len(line) > edge - GUTTER and line[edge - GUTTER:edge].strip():
            flush()  # text across the gutter: the full width
            out.append(line)
            continue
        # A line one column leaves empty is no gap in the other: the columns' baselines need not line up, and a blank
        # line there would break the other column's sentence in two.
        sides = (line[:edge].rstrip(), line[edge:].rstrip())
        for side, column in zip(sides, (left, right)):
            if side or not any(sides):
                column.append(side)
    flush()
    return "\n".join(out)
