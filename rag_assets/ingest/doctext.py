"""One text per document with page offsets, so any character span maps back to pages and in-page offsets."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from rag_serving.answer.sentences import join_pages

# Pages are joined with a blank line: a page break is a natural place for a chunk edge.
PAGE_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class PagePosition:
    page_index: int  # physical, 1-based
    offset: int  # character offset inside that page's text


class DocText:
    def __init__(self, page_texts: list[str], page_labels: list[str] | None = None):
        self.page_texts = page_texts
        self.page_labels = page_labels or [str(i) for i in range(1, len(page_texts) + 1)]
        self.starts: list[int] = []
        pos = 0
        for text in page_texts:
            self.starts.append(pos)
            pos += len(text) + len(PAGE_SEPARATOR)
        self.text = PAGE_SEPARATOR.join(page_texts)

    def __len__(self) -> int:
        return len(self.text)

    def page_of(self, char: int) -> int:
        """Physical page (1-based) holding global offset char; a separator belongs to the page before it."""
        return bisect.bisect_right(self.starts, char)

    def position(self, char: int) -> PagePosition:
        page = self.page_of(char)
        offset = min(char - self.starts[page - 1], len(self.page_texts[page - 1]))
        return PagePosition(page, offset)

    def end_position(self, char_end: int) -> PagePosition:
        """Position of an exclusive end offset: the page of its last character."""
        if char_end <= 0:
            return PagePosition(1, 0)
        last = self.position(char_end - 1)
        return PagePosition(last.page_index, min(last.offset + 1, len(self.page_texts[last.page_index - 1])))

    def global_offset(self, page_index: int, offset: int) -> int:
        return self.starts[page_index - 1] + offset

    def fragments(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """(page, start offset, end offset) for each page the global span [start, end) touches."""
        out = []
        first, last = self.page_of(start), self.page_of(max(end - 1, start))
        for page in range(first, last + 1):
            page_start = self.starts[page - 1]
            a = max(start - page_start, 0)
            b = min(end - page_start, len(self.page_texts[page - 1]))
            if b > a:
                out.append((page, a, b))
        return out

    def span_text(self, start: int, end: int) -> str:
        """The span's text, its page fragments joined as sentences.join_pages does (page breaks are not text)."""
        return join_pages([self.page_texts[p - 1][a:b] for p, a, b in self.fragments(start, end)])
