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
           "acknowledgements", "acknowledgments", "confidential", "draft", "mark one", "user s guide", "users guide",
           "user guide",
           # US government forms (SEC filings) print this header above their own name.
           "united states", "securities and exchange commission", "united states securities and exchange commission"}
# A section heading ("1 Leave", "Chapter 1: ...", "Part I") is a part of the document, not its name.
NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[ivxlc]+\.|(?:chapter|section|part|appendix|article)\b)(?:\s|$)",
                      re.IGNORECASE)
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Running headers carry dates and page numbers; a title carries neither.
DATE = re.compile(rf"\b{MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{MONTH}\s+\d{{4}}\b"  # "May 3, 2018", "3 May 2018"
                  r"|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b", re.IGNORECASE)  # "6/3/2020", "2023-01-05"
PAGE_MARK = re.compile(r"\bpages?\s+(?:[–—-]\s+)?[\divxlc]+\b", re.IGNORECASE)
# An address line ends in a ZIP code ("Washington, D.C. 20549").
ZIP_CODE = re.compile(r"\b\d{5}(?:-\d{4})?$")
# Layout-mode text puts side-by-side columns on one line with a wide gap between them.
COLUMN_GAP = re.compile(r"\s{3,}")
# A form's cover prints the filer's name above the caption "(Exact name of registrant as specified in its charter)".
FILER_CAPTION = re.compile(r"^\((?:exact\s+)?name\s+of\s+(?:the\s+)?(?:registrant|issuer|company|filer)\b",
                           re.IGNORECASE)
FORM_LINE = re.compile(r"^form\s+(\w[\w-]*)$", re.IGNORECASE)
# Some covers print the registrant's name under the commission file number with no caption ("3M COMPANY").
COMMISSION_FILE = re.compile(r"^commission\s+file\s+(?:number|no\.?)\b", re.IGNORECASE)
# A title broken across lines leaves its first line ending on a connecting word, a comma or a hyphen.
DANGLING = re.compile(r"(?:\b(?:a|an|and|for|from|in|of|on|or|the|to|via|with)|,)$", re.IGNORECASE)
MIN_LINE_WORDS, MAX_LINE_WORDS = 2, 15
HEADER_NAME_WORDS = 8  # a registrant's name, not a sentence
# A title sits near the top of its first page; further down is body text.
MAX_LINES_SEARCHED = 20
# A title is set larger than the page's text, over as many as four lines ("Retrieval-Augmented Generation for Large" /
# "Language Models: A Survey", which page one's first line alone cut short). On the arXiv and ACL papers among 54 public
# PDFs (2026-12-07), titles were set 1.2-1.6 times the page's text. Type within a tenth of the largest title-like
# type ties with it, and the first such block from the top wins: a hearing's title (15.1 pt) above the committee's
# name (15.6 pt).
LARGER = 1.15
TIE = 0.9
MAX_TITLE_LINES = 4


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


def _joined(first: str, following: str) -> str:
    if first[-2:-1].isalpha() and first.endswith("-"):
        return first[:-1] + following  # "VIA AB-" / "STRACTION IN ..."
    return f"{first} {following}"


def _body_height(lines: Sequence[tuple[float, float, str]]) -> float:
    """The height most of the page's characters are set in."""
    sizes = sorted((height, len(line)) for height, _, line in lines)
    half, seen = sum(n for _, n in sizes) / 2, 0
    for height, n in sizes:
        seen += n
        if seen >= half:
            return height
    return sizes[-1][0]


def typeset_title(lines: Sequence[tuple[float, float, str]]) -> str | None:
    """The block of lines in page one's largest type that reads as a title, when that type is larger than the page's
    text. `lines`: (height of the type, top below the page's edge, text), as `cover.typeset_lines` reads them."""
    lines = sorted(((height, top, _clean(line)) for height, top, line in lines if _clean(line)), key=lambda x: x[1])
    if not lines:
        return None
    larger = LARGER * _body_height(lines)
    blocks: list[list] = []  # [height, text, lines, last line's height]
    for height, _, line in lines:
        last = blocks[-1] if blocks else None
        # A line continues the block above it in the same type, or in type as large or larger after a connecting
        # word ("THE IMPACTS OF CLIMATE CHANGE ON" / "HUMAN HEALTH", set larger still).
        if last and last[2] < MAX_TITLE_LINES and (abs(last[3] - height) <= 0.05 * height
                                                   or (DANGLING.search(last[1]) and height >= last[3])):
            last[0], last[1], last[2], last[3] = max(last[0], height), _joined(last[1], line), last[2] + 1, height
        else:
            blocks.append([height, line, 1, height])
    # Large type also sets section headings ("1 License") and, in a score, dynamics ("mf f").
    titles = [(height, text) for height, text, _, _ in blocks if height >= larger and _title_line(text)
              and not NUMBERED.match(text) and any(len(w) >= 3 and w.isalpha() for w in text.split())]
    if not titles:
        return None
    largest = max(height for height, _ in titles)
    return next(text for height, text in titles if height >= TIE * largest)


def first_page_title(text: str, typeset: Sequence[tuple[float, float, str]] = ()) -> str | None:
    lines = [_clean(COLUMN_GAP.split(raw.strip())[0]) for raw in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1 and _name_above(lines[0], lines[1]):
        return f"{lines[0]}: {lines[1]}"
    for i in range(1, len(lines)):
        if FILER_CAPTION.match(lines[i]) and looks_human(lines[i - 1]):
            form = next((m.group(1) for line in lines[:i] if (m := FORM_LINE.match(line))), None)
            return f"{lines[i - 1]} Form {form}" if form else lines[i - 1]
    form = next((m.group(1) for line in lines[:MAX_LINES_SEARCHED] if (m := FORM_LINE.match(line))), None)
    filed = next((i for i, line in enumerate(lines[:MAX_LINES_SEARCHED]) if COMMISSION_FILE.match(line)), None)
    if form and filed is not None and filed + 1 < len(lines):
        name = lines[filed + 1]
        if looks_human(name) and ":" not in name and len(name.split()) <= HEADER_NAME_WORDS:
            return f"{name} Form {form}"
    if title := typeset_title(typeset):
        return title
    for i, line in enumerate(lines[:MAX_LINES_SEARCHED]):
        if not _title_line(line):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if (line[-2:-1].isalpha() and line.endswith("-") or DANGLING.search(line)) and _title_line(following):
            return _joined(line, following)
        return line
    return None


def choose_title(
    default: str,
    *,
    explicit: str | None = None,
    metadata: str | None = None,
    outline: Sequence[OutlineEntry] = (),
    first_page: str = "",
    typeset: Sequence[tuple[float, float, str]] = (),
) -> str:
    """The explicit title, else the first of metadata, top outline entry and page-one line that reads like a title
    (`typeset`: page one's lines with their type's height, `cover.typeset_lines`)."""
    return (explicit or metadata_title(metadata) or outline_title(outline) or first_page_title(first_page, typeset)
            or default)
