"""Token windows over a document: fixed size and overlap, edges snapped to paragraph or heading breaks, never across top-level sections."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from tokenizers import Tokenizer

from rag_assets.ingest.doctext import DocText
from rag_assets.ingest.sections import Section, common_ancestor, deepest_section_at, top_level_segments


class ChunkingConfigError(ValueError):
    pass


@dataclass(frozen=True)
class ChunkerConfig:
    size: int = 500
    overlap: int = 50
    snap: int = 50

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ChunkingConfigError(f"chunk size must be positive, got {self.size}")
        if not 0 <= self.overlap < self.size:
            raise ChunkingConfigError(f"chunk overlap ({self.overlap}) must be at least 0 and smaller than the chunk size ({self.size})")
        if self.snap < 0:
            raise ChunkingConfigError(f"snap distance must be at least 0, got {self.snap}")

    @property
    def max_window(self) -> int:
        """Longest window the chunker can emit: snapping may move an edge out by up to `snap` tokens."""
        return self.size + self.snap


@dataclass(frozen=True)
class ChunkSpan:
    ordinal: int
    start: int  # global character offsets into DocText.text
    end: int
    token_count: int
    page_start: int
    page_end: int
    char_start: int  # offset into the text of page_start
    char_end: int  # exclusive offset into the text of page_end
    body: str
    section: int | None  # ordinal of the lowest section containing the whole chunk


# How far an edge may move to reach a whole word. Text extracted without spaces (some PDFs' tables, URLs,
# scripts without word spaces) makes "words" hundreds of tokens long; unbounded moves then made windows
# that grew to the end of the run and restarted one token later, duplicating the run quadratically.
WORD_SLACK = 16


def windows(
    n: int, config: ChunkerConfig, breaks: list[bool] | None = None, word_starts: list[bool] | None = None
) -> list[tuple[int, int]]:
    """Token index windows [start, end) over n tokens.

    breaks[i] is True when a paragraph or heading break precedes token i. Windows start at 0 and
    step by size - overlap; an interior end moves to the nearest break within ±snap (ties go to the
    longer window), never so close to the start that the next window would not move forward.
    word_starts[i] is False for a word piece continuing the previous token's word: edges then move
    to whole words, so no chunk starts with "##ing", by at most WORD_SLACK tokens; inside a longer
    run the edge cuts the run instead.
    """
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end = min(start + config.size, n)
        if end < n and config.snap and breaks is not None:
            lo = max(start + config.overlap + 1, end - config.snap)
            hi = min(n, end + config.snap)
            best = None
            for b in range(lo, hi + 1):
                if b == n or breaks[b]:
                    if best is None or abs(b - end) < abs(best - end) or (abs(b - end) == abs(best - end) and b > best):
                        best = b
            if best is not None:
                end = best
        if word_starts is not None:
            moved = end
            while moved < n and moved - end < WORD_SLACK and not word_starts[moved]:
                moved += 1
            if moved >= n or word_starts[moved]:
                end = moved
        out.append((start, end))
        if end >= n:
            break
        previous, start = start, end - config.overlap
        if word_starts is not None:
            moved = start
            while moved > previous + 1 and start - moved < WORD_SLACK and not word_starts[moved]:
                moved -= 1
            if word_starts[moved]:
                start = moved
    return out


def token_offsets(tokenizer: Tokenizer, doc: DocText) -> list[tuple[int, int]]:
    """Global character offsets of every token, encoding page by page (no token crosses a page)."""
    encodings = tokenizer.encode_batch(doc.page_texts, add_special_tokens=False)
    offsets: list[tuple[int, int]] = []
    for base, enc in zip(doc.starts, encodings):
        offsets.extend((base + a, base + b) for a, b in enc.offsets)
    return offsets


def _breaks(doc: DocText, offsets: list[tuple[int, int]], heading_starts: list[int]) -> list[bool]:
    out = [False] * len(offsets)
    for i in range(1, len(offsets)):
        gap_start, gap_end = offsets[i - 1][1], offsets[i][0]
        if "\n\n" in doc.text[gap_start:gap_end]:
            out[i] = True
            continue
        k = bisect.bisect_left(heading_starts, gap_start)
        out[i] = k < len(heading_starts) and heading_starts[k] <= gap_end
    return out


def section_token_counts(offsets: list[tuple[int, int]], sections: list[Section]) -> list[int]:
    starts = [a for a, _ in offsets]
    return [bisect.bisect_left(starts, s.end) - bisect.bisect_left(starts, s.start) for s in sections]


def chunk_document(
    doc: DocText,
    tokenizer: Tokenizer,
    config: ChunkerConfig,
    sections: list[Section] | None = None,
    offsets: list[tuple[int, int]] | None = None,
) -> list[ChunkSpan]:
    sections = sections or []
    offsets = offsets if offsets is not None else token_offsets(tokenizer, doc)
    starts = [a for a, _ in offsets]
    breaks = _breaks(doc, offsets, sorted(s.start for s in sections))
    segments = top_level_segments(doc, sections) if sections else [(0, len(doc.text))]
    chunks: list[ChunkSpan] = []
    for seg_start, seg_end in segments:
        first = bisect.bisect_left(starts, seg_start)
        last = bisect.bisect_left(starts, seg_end)
        n = last - first
        if n == 0:
            continue
        local_breaks = [False] + breaks[first + 1 : last]
        word_starts = [True] + [offsets[i - 1][1] < offsets[i][0] or breaks[i] for i in range(first + 1, last)]
        for s, e in windows(n, config, local_breaks, word_starts):
            start, end = offsets[first + s][0], offsets[first + e - 1][1]
            begin, finish = doc.position(start), doc.end_position(end)
            section = common_ancestor(sections, deepest_section_at(sections, start), deepest_section_at(sections, end - 1))
            chunks.append(
                ChunkSpan(
                    ordinal=len(chunks),
                    start=start,
                    end=end,
                    token_count=e - s,
                    page_start=begin.page_index,
                    page_end=finish.page_index,
                    char_start=begin.offset,
                    char_end=finish.offset,
                    body=doc.span_text(start, end),
                    section=section,
                )
            )
    return chunks
