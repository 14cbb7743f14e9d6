"""Finds a document's sections: from the PDF outline where there is one, otherwise from headings in the text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.ingest.doctext import DocText
from rag_assets.ingest.extraction import MARKDOWN, PLAIN, OutlineEntry

PATH_SEPARATOR = " › "
NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t]+([A-Z][^\n]{1,90})$")
MARKDOWN_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*$")
CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9 &/\-,'()]{2,60}$")
TOC_LINE = re.compile(r"(\.{3,}\s*|\s{2,})\S{1,6}$")  # "2.1 Mounting ........ 4": a contents entry, not a heading
MAX_HEADING_WORDS = 12


@dataclass(frozen=True)
class Heading:
    title: str
    level: int
    start: int  # global character offset of the heading line
    source: str  # "outline" | "heading"


@dataclass
class Section:
    ordinal: int
    title: str
    level: int
    heading_path: str
    parent: int | None  # ordinal of the parent section
    start: int
    end: int
    source: str


def _title_pattern(title: str) -> re.Pattern:
    return re.compile(r"\s+".join(re.escape(w) for w in title.split()), re.IGNORECASE)


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def headings_from_outline(doc: DocText, outline: list[OutlineEntry]) -> list[Heading]:
    """Place each bookmark at its title's line on its page, keeping document order."""
    if not outline:
        return []
    base = min(e.level for e in outline) - 1
    headings: list[Heading] = []
    previous = 0
    for entry in outline:
        if not 1 <= entry.page_index <= len(doc.page_texts):
            continue
        page_start = doc.starts[entry.page_index - 1]
        page_end = page_start + len(doc.page_texts[entry.page_index - 1])
        pattern = _title_pattern(entry.title)
        floor = max(page_start, previous)
        match = pattern.search(doc.text, floor, page_end) if floor <= page_end else None
        start = _line_start(doc.text, match.start()) if match else floor
        start = max(start, floor)
        headings.append(Heading(entry.title, entry.level - base, start, "outline"))
        previous = start
    return headings


def _numbering(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


def _follows(previous: tuple[int, ...] | None, candidate: tuple[int, ...]) -> bool:
    """Whether candidate can be the next heading number after previous (next sibling at any depth, or first child)."""
    if previous is None:
        return candidate[0] in (0, 1) and all(c == 1 for c in candidate[1:])
    if candidate == previous + (1,):
        return True
    for depth in range(1, len(previous) + 1):
        if candidate == previous[: depth - 1] + (previous[depth - 1] + 1,):
            return True
    return False


def headings_from_text(doc: DocText, media_type: str) -> list[Heading]:
    headings: list[Heading] = []
    last_number: tuple[int, ...] | None = None
    pos = 0
    lines = doc.text.split("\n")
    prev_blank = True
    for line in lines:
        start = pos
        pos += len(line) + 1
        stripped = line.strip()
        if not stripped:
            prev_blank = True
            continue
        was_blank, prev_blank = prev_blank, False
        if media_type == MARKDOWN:
            m = MARKDOWN_HEADING.match(stripped)
            if m:
                headings.append(Heading(m.group(2).strip(), len(m.group(1)), start, "heading"))
                continue
        if not was_blank or len(stripped.split()) > MAX_HEADING_WORDS or "   " in stripped or TOC_LINE.search(stripped):
            continue
        m = NUMBERED_HEADING.match(stripped)
        if m and not m.group(2).rstrip().endswith((".", ",", ";", ":")):
            number = _numbering(m.group(1))
            if _follows(last_number, number):
                last_number = number
                headings.append(Heading(stripped, len(number), start, "heading"))
            continue
        if media_type == PLAIN and CAPS_HEADING.match(stripped) and any(c.isalpha() for c in stripped):
            headings.append(Heading(stripped, 1, start, "heading"))
    return headings


def build_sections(doc: DocText, headings: list[Heading]) -> list[Section]:
    sections: list[Section] = []
    stack: list[Section] = []
    seen: set[tuple[str, int]] = set()
    for i, h in enumerate(headings):
        while stack and stack[-1].level >= h.level:
            stack.pop()
        parent = stack[-1] if stack else None
        level = parent.level + 1 if parent else 1
        end = len(doc.text)
        for later in headings[i + 1 :]:
            if later.level <= h.level:
                end = later.start
                break
        path = (parent.heading_path + PATH_SEPARATOR if parent else "") + h.title
        if (path, h.start) in seen:
            continue  # a duplicated bookmark: same heading, same place
        seen.add((path, h.start))
        section = Section(len(sections), h.title, level, path, parent.ordinal if parent else None, h.start, max(end, h.start), h.source)
        sections.append(section)
        stack.append(section)
    return sections


def detect_sections(doc: DocText, outline: list[OutlineEntry], media_type: str) -> list[Section]:
    headings = headings_from_outline(doc, outline) if outline else headings_from_text(doc, media_type)
    return build_sections(doc, headings)


def top_level_segments(doc: DocText, sections: list[Section]) -> list[tuple[int, int]]:
    """Character ranges no chunk may cross: the preamble before the first section, then each top-level section.
    Disjoint by construction: an outline can list one passage under two top-level entries (a filing's bookmarks
    repeated, or two for one page), and chunking it twice gave two chunks with the same content id."""
    tops = sorted((s for s in sections if s.parent is None), key=lambda s: (s.start, -s.end))
    bounds: list[tuple[int, int]] = []
    first = tops[0].start if tops else len(doc.text)
    if doc.text[:first].strip():
        bounds.append((0, first))
    covered = first
    for s in tops:
        start = max(s.start, covered)
        if s.end > start:
            bounds.append((start, s.end))
            covered = s.end
    return bounds


def deepest_section_at(sections: list[Section], char: int) -> int | None:
    best = None
    for s in sections:
        if s.start <= char < s.end and (best is None or s.level > sections[best].level):
            best = s.ordinal
    return best


def common_ancestor(sections: list[Section], a: int | None, b: int | None) -> int | None:
    if a is None or b is None:
        return None
    chain = []
    node = a
    while node is not None:
        chain.append(node)
        node = sections[node].parent
    node = b
    while node is not None:
        if node in chain:
            return node
        node = sections[node].parent
    return None
