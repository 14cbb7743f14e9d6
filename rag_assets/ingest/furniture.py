"""Page furniture: running headers and footers (a title line, "Page 7") repeated at the edges of a document's pages."""

from __future__ import annotations

import math
import re
from collections import Counter

# A header or footer sits in the first or last few lines of a page; a line further in is content.
EDGE_LINES = 3
# Repeated on this share of the text pages (and on at least MIN_PAGES of them): chapter-specific headers still qualify.
SHARE = 0.3
MIN_PAGES = 3
COUNTER_SHARE = 0.8

_ROMAN = re.compile(r"(?i)^(?=[mdclxvi])m*(c[md]|d?c{0,3})(x[cl]|l?x{0,3})(i[xv]|v?i{0,3})$")
_NUMBER = re.compile(r"\d+")
# A line that is only a page number: "7", "- 7 -", "Page 7", "Page 7 of 12", "7 / 12", "iii".
_PAGE_NUMBER_LINE = re.compile(r"(?i)^[\s\-–—]*(?:page\s+)?([0-9]+|[ivxlcdm]+)(?:\s*(?:of|/)\s*[0-9]+)?[\s\-–—]*$")
# A book's running head prints the current chapter's number and title, often the section's too: "CHAPTER 6.  THE
# DEBIAN ARCHIVES   6.7.  WHAT ARE ALL THOSE …" on one line, or "Chapter 1. Beginner's guide" and "1.2. Brief
# tutorial" on facing pages. Its words change with the chapter, so it is no one repeated line; its mark is.
_CHAPTER_MARK = re.compile(r"(?i)^\s*(?:chapter|appendix)\s+([0-9]+|[a-z])\.\s")
_SECTION_MARK = re.compile(r"^\s*\d+(?:\.\d+)+\.\s+\S")


def key(line: str) -> str:
    """A line with its numbers (arabic or roman) and spacing evened out, so "Page 7" and "Page 12" are one line."""
    return " ".join("#" if _ROMAN.match(w) else _NUMBER.sub("#", w) for w in line.lower().split())


def _numbers(line: str) -> tuple[str, ...]:
    found: list[str] = []
    for word in line.lower().split():
        found.extend([word] if _ROMAN.match(word) else _NUMBER.findall(word))
    return tuple(found)


def _edges(lines: list[str]) -> tuple[list[int], list[int]]:
    """Positions of the first and last EDGE_LINES non-blank lines."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return filled[:EDGE_LINES], filled[-EDGE_LINES:]


def running_keys(pages: list[str]) -> set[str]:
    """Keys of lines printed at a page edge on enough of the pages to be furniture rather than content: the same
    line, or the same line but for a number that differs on every page (a page counter)."""
    seen: dict[str, list[tuple[str, ...]]] = {}
    texts = [p for p in pages if p.strip()]
    for text in texts:
        lines = text.split("\n")
        top, bottom = _edges(lines)
        for k, numbers in {key(lines[i]): _numbers(lines[i]) for i in top + bottom}.items():
            seen.setdefault(k, []).append(numbers)
    need = max(MIN_PAGES, math.ceil(SHARE * len(texts)))
    found = set()
    for k, variants in seen.items():
        same = max(Counter(variants).values())
        # Nearly every page printing its own number is a counter (numbering may restart once per part); a number
        # repeated page after page is content ("Table 2 continued").
        if k and (same >= need or (len(variants) >= need and len(set(variants)) >= COUNTER_SHARE * len(variants))):
            found.add(k)
    return found


def strip_page(text: str, keys: set[str]) -> tuple[str, list[str]]:
    """The page without the furniture lines at its top and bottom edges (a run from each edge, never mid-page),
    and the lines removed."""
    lines = text.split("\n")
    top, bottom = _edges(lines)
    drop = set()
    for run in (top, reversed(bottom)):
        for i in run:
            if key(lines[i]) not in keys:
                break
            drop.add(i)
    removed = [lines[i].strip() for i in sorted(drop)]
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return re.sub(r"\n{3,}", "\n\n", kept).strip("\n"), removed


def printed_number(removed: list[str]) -> str | None:
    """The page number a removed footer or header prints ("Page 7 of 12" → "7"), if one is only that."""
    for line in removed:
        match = _PAGE_NUMBER_LINE.match(line)
        if match:
            return match.group(1)
    return None


def _first_line(lines: list[str]) -> int | None:
    return next((i for i, line in enumerate(lines) if line.strip()), None)


def _marked(line: str) -> bool:
    return bool(_CHAPTER_MARK.match(line) or _SECTION_MARK.match(line))


def strip_running_marks(pages: list[str]) -> list[str]:
    """Each page without a book's running head on its first line: chapter marks ("CHAPTER 6. …") on enough of the
    pages, each chapter's on two pages or more on average (a chapter's own heading prints it on one), and the section
    marks ("1.2. Brief tutorial") of the same heads. A document that prints no chapter mark loses no line: its
    numbered headings ("2.10. Storing the MIME type") may well open a page."""
    firsts = [lines[i] for lines in (p.split("\n") for p in pages) if (i := _first_line(lines)) is not None]
    chapters = [m.group(1).lower() for line in firsts if (m := _CHAPTER_MARK.match(line))]
    marked = sum(1 for line in firsts if _marked(line))
    if len(chapters) < MIN_PAGES or len(chapters) < 2 * len(set(chapters)) or marked < SHARE * len(firsts):
        return list(pages)
    out = []
    for text in pages:
        lines = text.split("\n")
        i = _first_line(lines)
        if i is not None and _marked(lines[i]):
            text = "\n".join(lines[:i] + lines[i + 1:]).strip("\n")
        out.append(text)
    return out


def strip_furniture(pages: list[str]) -> tuple[list[str], list[str | None]]:
    """Each page without its running header and footer, and the page number each printed there (None if none)."""
    keys = running_keys(pages)
    out, numbers = [], []
    for text in pages:
        stripped, removed = strip_page(text, keys) if keys else (text, [])
        out.append(stripped)
        numbers.append(printed_number(removed))
    return strip_running_marks(out), numbers


def printed_labels(physical: list[str], numbers: list[str | None]) -> list[str]:
    """Labels from printed page numbers when the PDF declares none: the arabic numbers printed in the footer agree
    on one offset from the physical page, so every page from the first numbered one takes physical minus that offset;
    pages before it keep what they print (roman front matter) or their physical number."""
    pairs = [(i, int(n)) for i, n in enumerate(numbers, start=1) if n and n.isdigit()]
    if len(pairs) < MIN_PAGES:
        return physical
    offset, agreeing = Counter(i - n for i, n in pairs).most_common(1)[0]
    if agreeing < 0.8 * len(pairs) or offset == 0:
        return physical
    return [str(i - offset) if i - offset >= 1 else (numbers[i - 1] or physical[i - 1])
            for i in range(1, len(physical) + 1)]
