"""Sentence splitting and the whitespace normalization that quotes are compared under."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import takewhile

import pysbd

from rag_serving.answer.kinds import MONTHS

_SPACE = re.compile(r"\s+")
# A paragraph break in chunk text is a blank line; single newlines are layout line wraps.
_PARAGRAPH = re.compile(r"\n\s*\n")
# Ingest writes a table row as one paragraph, cells joined by this; a row is quoted whole, headers and all.
ROW_SEPARATOR = " | "
HEADING_WORDS = 6
# Ingest writes a contents page's dot leaders as this ("2.4 Remote Work ... 7").
LEADER = " ... "
# What ends a contents entry: dots as printed or as ingest writes them, then a page number, arabic or roman.
DOT_LEADER_PAGE = r"(?:\.\s*){3,}\s*[0-9ivxlc]{1,5}\s*$"
# A subsection's number ("3.1 Invoking asn1Parser", "2.10. Storing the MIME type …", "5.13. /var/run : Run-time
# variable data") marks a heading even when its paragraph opens in lower case ("asn1Parser reads …"); a single number
# does not ("10 days of leave are\ngranted …"), nor one before a lower-case word or a sign ("2.5 % of pay"). So does a
# chapter's ("Chapter 3. The Root Filesystem").
_SUBSECTION = re.compile(r"^\d+(\.\d+)+\.?\s+[A-Z/]")
_CHAPTER = re.compile(r"^(?i:chapter|part|appendix|annex)\s+(\d+|[IVXLC]+|[A-Z])\b[.:]?\s+[A-Z/]")
SUBSECTION_WORDS = 12
# A line opening a list item: a bullet (Markdown's "- ", "* " and "+ " among them), or a command-line option ("-c,
# --check checks the syntax only"). Lists set one item per line with no full stop between them, so joined as line
# wraps they read as one long sentence.
_ITEM = re.compile(r"^([•●▪◦■□‣∙·]\s|[*+–-]\s+\S|--?[A-Za-z][\w-]*(,|=|\s))")


def squish(text: str) -> str:
    """Collapse every run of whitespace to one space; quotes are checked under this normalization."""
    return _SPACE.sub(" ", text).strip()


# pysbd's Segmenter keeps the text being split on the instance (original_text): one per thread.
_local = threading.local()


def _segmenter() -> pysbd.Segmenter:
    if not hasattr(_local, "segmenter"):
        _local.segmenter = pysbd.Segmenter(language="en", clean=False)
    return _local.segmenter


def is_row(text: str) -> bool:
    """Whether a paragraph is a table row as ingest writes it (cells after their column headers)."""
    return ROW_SEPARATOR in text


# A page's text ending in one of these has finished its sentence; otherwise the sentence runs on over the break.
FINISHED = (".", "!", "?", ":", ";", ")", '"', "”", "’")


def join_pages(fragments: list[str]) -> str:
    """Page fragments as one text: a sentence running over a page break joined by a line break (one paragraph to
    the answer step), anything after a finished sentence or a table row by a blank line (a new paragraph)."""
    parts = [t for t in (f.strip() for f in fragments) if t]
    out = parts[:1]
    for part in parts[1:]:
        last = out[-1].rsplit("\n", 1)[-1]
        out.append(("\n\n" if last.endswith(FINISHED) or is_row(last) else "\n") + part)
    return "".join(out)


def paragraphs(text: str) -> list[list[str]]:
    """Blank-line separated paragraphs, each as its list items (one, unless lines open items), whitespace squished;
    a heading printed on the line above its paragraph (OCR text and some layouts put no blank line between) is a
    paragraph of its own, not the first sentence's opening words, and so is a numbered subsection title on a line of
    its own anywhere in the paragraph."""
    out = []
    for para in _PARAGRAPH.split(text):
        lines = [line.strip() for line in para.strip().split("\n") if line.strip()]
        if len(lines) > 1 and heading_line(lines[0]) and lines[1][:1].isupper():
            out.append([squish(lines[0])])
            lines = lines[1:]
        items: list[list[str]] = []
        after_heading = True
        for line in lines:
            if numbered_heading(line) and (after_heading or _CHAPTER.match(line) or items[-1][-1].endswith(FINISHED)
                                           or items[-1][-1][-1].isdigit() or _ITEM.match(items[-1][-1])):
                # A layout with no blank lines sets "5.13.2. Requirements" between the paragraphs it separates; the
                # line before has finished its sentence or list item (or ends in a footnote's mark) or is a heading
                # too, so this is no wrapped line. "Chapter 3. The Root Filesystem" says it is a heading itself.
                out.extend([[squish(" ".join(item)) for item in items]] if items else [])
                out.append([squish(line)])
                items, after_heading = [], True
                continue
            after_heading = False
            if not items or _ITEM.match(line):
                items.append([])
            items[-1].append(line)
        if items:
            out.append([squish(" ".join(item)) for item in items])
    return out


def opens_list(sentence: str) -> bool:
    """Whether a sentence introduces what follows it ("The following files must be in /var/log:")."""
    return sentence.rstrip().endswith(":")


# "The following devices must exist under /dev." and "… due to the following reasons." announce what comes next as
# surely as a colon, whether it comes as items, rows or sentences; "the following year" and "within the following 60
# days" name a time.
_ANNOUNCES = re.compile(r"\b(the following|as follows)\b(?!'s|\s+(\d+\s+)?(years?|months?|weeks?|days?|hours?|"
                        r"mornings?|evenings?|nights?|business|working|calendar|quarters?|shifts?|pay|payroll|season|"
                        r"semesters?|terms?|sessions?|releases?|versions?)\b)", re.I)


# "If you need to check for the existence of a command, you should use something like" stops where its example, set
# apart as code, begins.
_UNFINISHED = re.compile(r"\b(like|such as|e\.g\.|for example|for instance)\s*$", re.I)


def announces(sentence: str) -> bool:
    """Whether a sentence says that what follows it is what it is about."""
    return opens_list(sentence) or bool(_ANNOUNCES.search(sentence))


LIST_ENTRIES = 12  # the most items or rows read and quoted after a sentence introducing them
FOLLOWING = 3  # the most sentences quoted after one announcing them ("… due to the following reasons.")


YEAR = re.compile(r"\b(?:19|20)\d\d\b")  # a year anywhere in a text
# What a line heading a table's columns with periods holds besides them: "December 31, 2018 versus (Millions) 2018
# 2017 2017", "Years ended December 31 2021 2020 2019".
_PERIOD_WORDS = re.compile(r"\([^)]*\)|\b\d{1,4}\b|[,.%]|\b(versus|vs|compared|to|and|change|fiscal|years?|ended|ending|"
                           r"quarters?|q[1-4]|as|of|at|months?|weeks?|in|millions|thousands|billions|" + MONTHS + r")\b",
                           re.I)


def periods_line(sentence: str) -> bool:
    """Whether a line only heads a table's columns with periods: it states nothing, and ingest writes each row's
    figures after their periods."""
    return bool(YEAR.search(sentence)) and not re.search(r"[A-Za-z]", _PERIOD_WORDS.sub(" ", sentence))


def list_entry(sentence: str) -> bool:
    """Whether a sentence is a list item or a table row: what a sentence ending in a colon introduces."""
    return bool(_ITEM.match(sentence)) or is_row(sentence)


def introduced(split: Sequence[tuple[int, str]], index: int) -> list[int]:
    """The positions in split (a passage's `split_sentences`) of what the sentence at index introduces, as it is quoted
    and read: the list items or table rows after it, up to LIST_ENTRIES ("The following files must be in /var/log:");
    else, after "the following" without a colon, up to FOLLOWING sentences before the next heading ("… due to the
    following reasons."); the one line that finishes a sentence stopping at "like" or "for example"; nothing after a
    sentence announcing nothing, or a colon whose entries are not there."""
    sentence = split[index][1]
    if _UNFINISHED.search(sentence):
        return [index + 1] if index + 1 < len(split) and not heading_line(split[index + 1][1]) else []
    if not announces(sentence):
        return []
    # The periods heading a table's columns come with each of its rows; the rows are what the sentence brings.
    first = next((i for i in range(index + 1, len(split)) if not periods_line(split[i][1])), len(split))
    after = range(first, min(len(split), first + LIST_ENTRIES))
    if after and list_entry(split[after[0]][1]):
        return list(takewhile(lambda i: list_entry(split[i][1]), after))
    if opens_list(sentence):
        return []
    return list(takewhile(lambda i: not (numbered_heading(split[i][1]) or heading_line(split[i][1])),
                          after[:FOLLOWING]))


# A reference manual's entry opens with what it describes on a line of its own, its arguments written as placeholders:
# a macro ("\\gappto⟨hook⟩{⟨code⟩}"), an option or a key ("framesep=⟨dimension⟩"); or a call ("multi_r2rtime(input,
# numCycles)"). The paragraph under it describes that name without naming it: "Similar to \\appto except that the
# assignment is global." A line of example code ("\\usepackage{microtype}", "\\SetTracking[…]{…}{120} \\textfrak{…}")
# has values, not placeholders, and often more than one macro.
_SIGNATURE = re.compile(r"^(\\[A-Za-z@]+\*?(?![A-Za-z@])|--?[A-Za-z][\w-]*|[A-Za-z_][\w.]*[=(])")
_PLACEHOLDER = re.compile(r"⟨[^⟩]+⟩|〈[^〉]+〉|<[a-z][\w -]*>", re.I)
_CALL = re.compile(r"[A-Za-z_][\w.]*\([^()]*\)")
_MACRO = re.compile(r"\\[A-Za-z@]+")
SIGNATURE_WORDS = 12


def signature(line: str) -> bool:
    """Whether a line names a manual's entry: a name written as code opening a short line that ends no sentence, with
    placeholders for its arguments (or a call alone), and no second macro."""
    return (bool(_SIGNATURE.match(line)) and len(line.split()) <= SIGNATURE_WORDS and not line.endswith((".", ":"))
            and bool(_PLACEHOLDER.search(line) or _CALL.fullmatch(line)) and len(set(_MACRO.findall(line))) <= 1)


def signatures(split: Sequence[tuple[int, str]]) -> dict[int, int]:
    """Sentence index → index of the entry's signature (`signature`) when the sentence is in the paragraph right
    under one: a paragraph of that one line."""
    sizes = Counter(para for para, _ in split)
    heads = {para: i for i, (para, text) in enumerate(split) if sizes[para] == 1 and signature(text)}
    return {i: heads[para - 1] for i, (para, _) in enumerate(split) if para - 1 in heads and para not in heads}


def numbered_heading(line: str) -> bool:
    """A subsection's numbered title: one piece, which sentence splitting would cut after its number ("2.10.")."""
    return (bool(_SUBSECTION.match(line) or _CHAPTER.match(line)) and len(line.split()) <= SUBSECTION_WORDS
            and not line.endswith((".", ",", ";", ":", "!", "?")))


def heading_line(line: str) -> bool:
    """A line that reads as a heading: a few words, opening in upper case or with a number, no closing punctuation.
    A paragraph's first line runs the width of the page; a heading's does not."""
    return (len(line.split()) <= HEADING_WORDS and (line[:1].isupper() or line[:1].isdigit())
            and not line.endswith((".", ",", ";", ":", "!", "?", ")", "-")) and not is_row(line))


# The same chunks come back for many questions, and pysbd takes milliseconds per chunk. Bounded: a chunk's text and
# its sentences are ~5 KB, so ~25 MB at worst; tuples, so no caller can change what the next one reads.
@lru_cache(maxsize=5_000)
def split_sentences(text: str) -> tuple[tuple[int, str], ...]:
    """(paragraph index, sentence) pairs, each sentence whitespace-normalized and verbatim otherwise."""
    out = []
    for i, items in enumerate(paragraphs(text)):
        for item in items:
            if is_row(item) or numbered_heading(item):
                out.append((i, item))
                continue
            for sentence in _segmenter().segment(item):
                sentence = sentence.strip()
                if sentence:
                    out.append((i, sentence))
    return tuple(out)
