"""Picks a title a person recognizes: an explicit one, else one the PDF shows that reads as one, else the file name."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.ingest.extraction import OutlineEntry

# Word and PowerPoint write "Microsoft Word - <file name>" as the PDF title when printing to PDF.
OFFICE_PREFIX = re.compile(r"^(?:microsoft\s+)?(?:word|powerpoint|excel|office)\s*-\s+", re.IGNORECASE)
FILE_EXTENSION = re.compile(r"\.(?:docx?|pptx?|xlsx?|rtf|odt|pdf|txt|indd|pages|key)$", re.IGNORECASE)
# Titles writers fill in when nobody gave one (reportlab writes "untitled").
PLACEHOLDERS = {"untitled", "untitled document", "no title", "title", "document", "new document", "presentation",
                "powerpoint presentation", "none", "unknown", "default"}
# Bookmarks and first lines that head many documents and so name none of them.
GENERIC = {"contents", "table of contents", "cover", "cover page", "front cover", "title page", "introduction",
           "preface", "foreword", "abstract", "summary", "executive summary", "overview", "getting started",
           "acknowledgements", "acknowledgments", "confidential", "draft", "mark one",
           # US government forms (SEC filings) print this header above their own name.
           "united states", "securities and exchange commission", "united states securities and exchange commission"}
# A section heading ("1 Leave", "Chapter 1: ...", "Part I") is a part of the document, not its name.
NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[ivxlc]+\.|(?:chapter|section|part|appendix|article)\b)(?:\s|$)",
                      re.IGNORECASE)
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Running headers carry dates and page numbers; a title carries neither.
DATE = re.compile(rf"\b{MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{MONTH}\s+\d{{4}}\b"  # "May 3, 2018", "3 May 2018"
                  r"|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b", re.IGNORECASE)  # "6/3/2020", "2023-01-05"
PAGE_MARK = re.compile(r"\bpages?\s+[\divxlc]+\b", re.IGNORECASE)
# An address line ends in a ZIP code ("Washington, D.C. 20549").
ZIP_CODE = re.compile(r"\b\d{5}(?:-\d{4})?$")
# Layout-mode text puts side-by-side columns on one line with a wide gap between them.
COLUMN_GAP = re.compile(r"\s{3,}")
# A form's cover prints the filer's name above the caption "(Exact name of registrant as specified in its charter)".
FILER_CAPTION = re.compile(r"^\((?:exact\s+)?name\s+of\s+(?:the\s+)?(?:registrant|issuer|company|filer)\b",
                           re.IGNORECASE)
FORM_LINE = re.compile(r"^form\s+(\w[\w-]*)$", re.IGNORECASE)
# A title broken across lines leaves its first line ending on a connecting word, a comma or a hyphen.
DANGLING = re.compile(r"(?:\b(?:a|an|and|for|from|in|of|on|or|the|to|via|with)|,)$", re.IGNORECASE)
MIN_LINE_WORDS, MAX_LINE_WORDS = 2, 15
# A title sits near the top of its first page; further down is body text.
MAX_LINES_SEARCHED = 20


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", "").split())


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def looks_human(text: str) -> bool:
    """Mostly letters, not an identifier, not a placeholder: something a person would call the document."""
    letters = sum(c.isalpha() for c in text)
    visible = sum(not c.isspace() for c in text)
    if len(text) < 4 or letters < 3 or letters / visible < 0.5:
        return False  # "UG", "0000004962-23-000006", "10-K - 02/07/2019"
    if " " not in text and any(c.isdigit() for c in text):
        return False  # one token with digits is an id: "INS1-972072899", "R2023_45A"
    return _key(text) not in PLACEHOLDERS | GENERIC


def metadata_title(raw: str | None) -> str | None:
    title = _clean(raw or "")
    title = FILE_EXTENSION.sub("", OFFICE_PREFIX.sub("", title)).strip()
    return title if looks_human(title) else None


def outline_title(outline: Sequence[OutlineEntry]) -> str | None:
    if not outline:
        return None
    top = min(e.level for e in outline)
    title = _clean(next(e.title for e in outline if e.level == top))
    if NUMBERED.match(title) or len(title.split()) > MAX_LINE_WORDS:
        return None
    return title if looks_human(title) else None


def _title_line(line: str) -> bool:
    words = len(line.split())
    if not MIN_LINE_WORDS <= words <= MAX_LINE_WORDS or not looks_human(line):
        return False
    if len(line.replace(" ", "")) < 2 * words:
        return False  # letter-spaced display type ("f u r m a n  c e n t e r") reads as one-letter words
    if line.endswith(":") or line.startswith("(") or "©" in line or "@" in line:
        return False  # a label, a caption, a copyright or an e-mail line
    lowered = line.lower()
    if "http" in lowered or "www." in lowered:
        return False
    return not (DATE.search(line) or PAGE_MARK.search(line) or ZIP_CODE.search(line))


def _name_above(first: str, following: str) -> bool:
    """A one-word name atop page one with a title under it ("Libtasn1" above "Abstract Syntax Notation One (ASN.1)
    library …"): a product or project named, then described."""
    letters = sum(c.isalpha() for c in first)
    # A name may end in a digit ("Libtasn1"), where an id is mostly digits ("INS1-972072899").
    return (len(first.split()) == 1 and len(first) >= 4 and first[:1].isupper() and not first.isupper()
            and letters >= 0.75 * len(first) and _key(first) not in PLACEHOLDERS | GENERIC
            and following[:1].isupper() and _title_line(following))


def first_page_title(text: str) -> str | None:
    lines = [_clean(COLUMN_GAP.split(raw.strip())[0]) for raw in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1 and _name_above(lines[0], lines[1]):
        return f"{lines[0]}: {lines[1]}"
    for i in range(1, len(lines)):
        if FILER_CAPTION.match(lines[i]) and looks_human(lines[i - 1]):
            form = next((m.group(1) for line in lines[:i] if (m := FORM_LINE.match(line))), None)
            return f"{lines[i - 1]} Form {form}" if form else lines[i - 1]
    for i, line in enumerate(lines[:MAX_LINES_SEARCHED]):
        if not _title_line(line):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line[-2:-1].isalpha() and line.endswith("-") and _title_line(following):
            return line[:-1] + following  # "VIA AB-" / "STRACTION IN ..."
        if DANGLING.search(line) and _title_line(following):
            return f"{line} {following}"
        return line
    return None


def choose_title(
    default: str,
    *,
    explicit: str | None = None,
    metadata: str | None = None,
    outline: Sequence[OutlineEntry] = (),
    first_page: str = "",
) -> str:
    """The explicit title, else the first of metadata, top outline entry and page-one line that reads like a title."""
    return explicit or metadata_title(metadata) or outline_title(outline) or first_page_title(first_page) or default
