"""Tables in layout-mode page text rewritten as one paragraph per row, each cell after its column header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rag_serving.answer.sentences import LEADER, ROW_SEPARATOR, YEAR

# Cells in pypdf's layout text are runs of words separated by two or more spaces.
_SEGMENT = re.compile(r"\S+(?: \S+)*")
# A list item's marker is not a first column ("-   Isolate the unit", "2.  Remove the grille").
_MARKER = re.compile(r"^(?:[-–—•*·▪o]|\(?\d{1,2}[.)]|\(?[a-z][.)])$")
TOLERANCE = 2  # layout mode places characters on a grid of whole spaces; edges drift by a character or so
MIN_ROWS = 3  # a header and two rows; fewer is as likely a pair of aligned lines as a table
HEADER_WORDS = 5  # a header cell is a label, not a sentence
_CURRENCY = frozenset("$€£¥")
# "44,538", "(78)", "$(241)", "$ (1,577)", "12.5%", "2.16 %"
_NUMBER = re.compile(r"^[-+–]?\(?[$€£]?\s?\(?[\d.,]+(?:\s?%)?\)?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_MARKS = re.compile(r"[-–—%$€£¥]+")  # what a statement sets in a figure's place or beside it: nil, a sign
# A financial statement sets its periods centred over right-aligned figures, so they line up with no column edge:
# "(In millions)      2021      2020      2019" above "Revenues      $   44,538   $   37,403   $   39,117".
_PERIOD = re.compile(r"^(?:(?:fiscal(?: year)?|fy|year|quarter|q[1-4]|[a-z]{3,9}\.? \d{1,2},)\s*)?(?:19|20)\d\d"
                     r"(?: \(\d\))?$", re.IGNORECASE)  # a footnote's mark may follow: "2017 (1)"
PERIOD_LOOKBACK = 3  # lines above a table searched for its periods
# How far beside a column's figures its period may sit: centred over a column whose widest cells ("$      6,021")
# reach far left of its narrow ones ("2.6  %"), it can end a dozen places before them.
REACH = 16


# The last periods read on the page for each number of columns, with where their columns end: a statement's later
# sections take them, while a narrower table between (a sales change analysis under two of three periods) keeps its own.
Carried = dict[int, tuple[list[str], list[int]]]


@dataclass
class _Table:
    columns: list[tuple[int, int]]  # (start, end) of each column, left to right
    rows: list[list[str]] = field(default_factory=list)
    first: int = 0  # index of the first and last line the table occupies
    last: int = 0
    header: list[str] | None = None  # each column's header, once the table is read
    body: list[list[str]] = field(default_factory=list)


def _segments(line: str) -> list[tuple[int, int, str]]:
    """The line's cells with their start and end columns. A currency sign set apart from its figure, as filings set it
    ("$         44,538"; "1.63 $            2.55"; "Cash and cash equivalents ... $         876,560"), goes with the
    figure, and so does a percent sign after it."""
    found = [(m.start(), m.end(), m.group()) for m in _SEGMENT.finditer(line)]
    cells: list[tuple[int, int, str]] = []
    for k, (start, end, text) in enumerate(found):
        # A sign closing a cell belongs to the figure after it (or, after a figure, to the one in the next column).
        sign = text[-2:-1] == " " and text[-1] in _CURRENCY and (
            bool(_NUMBER.match(text[:-2])) or (k + 1 < len(found) and bool(_NUMBER.match(found[k + 1][2]))))
        if sign:
            end, text = end - 2, text[:-2]
        if (text[:1] == "%" and set(text[1:]) <= _CURRENCY and len(text) <= 2 and cells and _numeric(cells[-1][2])
                and not cells[-1][2].endswith("%")):
            # A percent sign set in a column of its own belongs to the figure before it ("19   %" is "19%"), and a
            # currency sign run into it to the figure after it ("16   %$   1,906").
            before = cells.pop()
            cells.append((before[0], start + 1, before[2] + "%"))
            if len(text) == 2:
                cells.append((end - 1, end, text[1]))
            continue
        if cells and cells[-1][2] in _CURRENCY and _NUMBER.match(text):
            start, text = cells[-1][0], cells.pop()[2] + text
        cells.append((start, end, text))
        if sign:
            cells.append((end + 1, end + 2, found[k][2][-1]))
    return cells


def _column_of(seg: tuple[int, int, str], columns: list[tuple[int, int]]) -> int | None:
    """The column a cell belongs to: its left edge (left-aligned text) or its right edge (right-aligned figures)
    lines up with the column's, within TOLERANCE."""
    start, end, _ = seg
    for i, (a, b) in enumerate(columns):
        if abs(start - a) <= TOLERANCE or abs(end - b) <= TOLERANCE:
            return i
    return None


def _row(line: str) -> list[tuple[int, int, str]] | None:
    segs = _segments(line)
    if len(segs) < 2 or _MARKER.match(segs[0][2]):
        return None
    return segs


def _indented(seg: tuple[int, int, str], columns: list[tuple[int, int]]) -> bool:
    """Whether a cell sits inside the first column, right of its edge: a statement indents the rows under a label."""
    return len(columns) > 1 and columns[0][0] < seg[0] and seg[1] < columns[1][0] - TOLERANCE


def _figures(cells: list[str]) -> bool:
    """Whether every cell after the label is a figure: a statement's row, whose label, if wrapped, ends on its line.
    A dash is a figure there (nil), and a sign set in a column of its own ("19 | %") goes with one."""
    rest = [c for c in cells[1:] if c]
    return any(map(_numeric, rest)) and all(_numeric(c) or _MARKS.fullmatch(c) for c in rest)


def _grow(lines: list[str], i: int, carried: Carried | None = None) -> _Table | None:
    """The table whose first row (its header) is line i, or None when the lines below do not line up with it.
    carried: the periods heading tables of figures above it on the page (`Carried`)."""
    head = _row(lines[i])
    if head is None:
        return None
    table = _Table(columns=[(a, b) for a, b, _ in head], rows=[[t for _, _, t in head]], first=i, last=i)
    # A financial statement: its first row is figures under periods, or is the periods. There a label alone under a row
    # starts the next, and rows indented under it belong to the table; elsewhere, as in a contents page or a table of
    # percentages, a line alone under a row wraps it.
    statement = bool(_figures(table.rows[0]) and _periods(lines, table, carried)) or (
        len(head) > 1 and all(_PERIOD.match(t) for _, _, t in head[1:]))
    spaced: bool | None = None  # whether a blank line separates rows (then a line right under a row wraps it)
    # Labels heading the rows indented under them: (text, the label's indent, the rows' indent), outermost first.
    groups: list[tuple[str, int, int]] = []
    pending: tuple[str, int] | None = None  # label lines alone under a row of figures, and their indent
    gap, j = False, i + 1
    while j < len(lines):
        if not lines[j].strip():
            gap, j = True, j + 1
            continue
        segs = _segments(lines[j])
        where = [_column_of(s, table.columns) for s in segs]
        figures = _figures(table.rows[-1])
        if where[0] is None and statement and figures and _indented(segs[0], table.columns):
            where[0] = 0
        if None in where or len(set(where)) != len(where):
            break
        starts_row = where[0] == 0 and len(segs) >= 2
        if len(table.rows) > 1 or starts_row:
            spaced = gap if spaced is None else spaced
        if (gap if spaced else starts_row) and starts_row:
            cells = [""] * len(table.columns)
            for s, k in zip(segs, where):
                cells[k] = s[2]
            indent = segs[0][0]
            groups = [g for g in groups if indent >= g[2]]
            if pending and indent > pending[1]:
                # "Earnings per common share:" heads "  Basic" and "  Diluted", until a row less indented.
                groups = [g for g in groups if g[1] < pending[1]] + [(pending[0], pending[1], indent)]
            elif pending:  # a label wrapped over lines, its figures on the last
                cells[0] = f"{pending[0]} {cells[0]}"
            cells[0] = " ".join([*(g[0] for g in groups), cells[0]])
            pending = None
            table.rows.append(cells)
        elif not gap and where == [0] and (pending or figures and (statement or segs[0][2].endswith(":"))):
            # Under a row of figures a label alone starts what comes next; it does not go on from the row above. Outside
            # a statement only a label ending in a colon does ("Revenues by:").
            text, indent = segs[0][2], segs[0][0]
            pending = (f"{pending[0]} {text}", pending[1]) if pending else (text, indent)
            gap, j = False, j + 1
            continue
        elif not gap and not pending:
            for s, k in zip(segs, where):  # a wrapped cell goes on under its own column
                table.rows[-1][k] = f"{table.rows[-1][k]} {s[2]}".strip()
        else:
            break
        table.last, gap, j = j, False, j + 1
    if _plausible(table):
        table.header, table.body = ((table.rows[0], table.rows[1:]) if _headed(table)
                                    else (_periods(lines, table, carried), table.rows))
        return table
    # A statement's one or two rows of figures under their periods are a table too ("Purchases of property, plant and
    # equipment (PP&E)   $ (1,577)   $ (1,373)   $ (1,420)" under "2018   2017   2016").
    table.header, table.body = _periods(lines, table, carried), table.rows
    return table if table.header and len(table.columns) >= 2 else None


def _numeric(cell: str) -> bool:
    return bool(_NUMBER.match(cell)) and not _YEAR.match(cell)


def _label(cell: str) -> bool:
    """Whether a header cell reads as a column label: short, not opening in lower case (the middle of a sentence
    in the other column of a two-column page, or a word of spaced-out text), not hyphenated across a line, not a
    sentence."""
    words = cell.split()
    return (len(words) <= HEADER_WORDS and not cell[:1].islower() and not cell.endswith("-")
            and not (len(words) >= 3 and cell.endswith(".")))


def _plausible(table: _Table) -> bool:
    if len(table.rows) < MIN_ROWS or len(table.columns) < 2:
        return False
    if any(LEADER in cell or cell.endswith(LEADER.strip()) for row in table.rows for cell in row):
        return False  # a table of contents: titles and page numbers joined by leaders, left as lines
    return not _headed(table) or all(_label(c) for c in table.rows[0] if c)


def _headed(table: _Table) -> bool:
    """Whether the first row is a header: not when it holds a figure in a column of figures (a list of names and
    numbers with no header row, such as a grade scale; a year heads a column of figures), nor when one of its
    cells recurs below it in its column (a table carried on from the previous page, its header left there)."""
    for k, head in enumerate(table.rows[0]):
        body = [row[k] for row in table.rows[1:] if row[k]]
        if head and head in body:
            return False
        if body and sum(map(_numeric, body)) * 3 >= len(body) * 2 and _numeric(head):
            return False
    return True


def _periods(lines: list[str], table: _Table, carried: Carried | None = None) -> list[str] | None:
    """Headers for a table with no header row of its own: a line just above it with a period ("2021", "Fiscal 2020",
    "December 31, 2022") set over each column after the first (`_over`), when those columns hold figures; else
    the periods carried from a table above it on the page whose figure columns end where its own do (a statement's
    sections under one line of periods)."""
    figures = [sum(map(_numeric, col)) * 2 > len(col) for col in ([r[k] for r in table.rows if r[k]]
                                                                 for k in range(1, len(table.columns)))]
    if not figures or not all(figures):
        return None
    seen = 0
    for j in range(table.first - 1, max(-1, table.first - 1 - 2 * PERIOD_LOOKBACK), -1):
        if not lines[j].strip():
            continue
        cells = _segments(lines[j])
        periods = _over(table.columns[1:], cells)
        # Where figures stand apart from their periods, as in a layout broken by dot leaders ("Revenue ... $4,795,511$
        # 4,147,065   $  4,055,240"), periods closing the line head the columns from the right.
        named = [c for c in cells if _PERIOD.match(c[2])]
        if not periods and len(named) >= len(table.columns) - 1 and cells[len(cells) - len(named):] == named:
            periods = named[len(named) - len(table.columns) + 1:]
        if periods:
            return ["", *_stacked(lines[j - 1] if j else "", periods)]
        seen += 1
        if seen == PERIOD_LOOKBACK:
            break
    header, ends = (carried or {}).get(len(table.columns), (None, []))
    if header and all(abs(end - b) <= TOLERANCE for end, (_, b) in zip(ends, table.columns[1:])):
        return header
    return None


def _over(columns: list[tuple[int, int]], cells: list[tuple[int, int, str]]) -> list[tuple[int, int, str]] | None:
    """The period set over each column of figures: the line's cell nearest the column's middle, within REACH of it;
    None unless each column has a period of its own ("Total" over a column heads it, not the period beside it). A
    statement may give fewer columns than periods: 3M's sales change analysis has figures under 2018 and 2017 only, not
    under the last two of "2018  2017  2016"."""
    picked = []
    for a, b in columns:
        middle = (a + b) / 2
        best = min(cells, key=lambda p: abs((p[0] + p[1]) / 2 - middle), default=None)
        if best is None or not _PERIOD.match(best[2]) or best[1] < a - REACH or best[0] > b + REACH or best in picked:
            return None
        picked.append(best)
    return picked


def _stacked(above: str, periods: list[tuple[int, int, str]]) -> list[str]:
    """The periods with what is set over them on the line above: "2018 versus" over "2017" heads a column of changes
    as "2018 versus 2017". Only a cell holding a year, over one period alone, is such a top; "For the Year Ended
    December 31, 2019", centred over several, is not."""
    texts = [text for _, _, text in periods]
    for start, end, text in _segments(above):
        under = [k for k, (a, b, _) in enumerate(periods) if a <= end and start <= b]
        if len(under) == 1 and YEAR.search(text):
            texts[under[0]] = f"{text} {texts[under[0]]}"
    return texts


def render_row(header: list[str] | None, cells: list[str]) -> str:
    """One row, each cell after its column header if it has one: "Part number: X200-SNS-11 | Description: …".
    The key column's header too: a question names it ("which classification level…", "part number X…")."""
    labels = header or [""] * len(cells)
    return ROW_SEPARATOR.join(f"{label}: {cell}" if label else cell for label, cell in zip(labels, cells) if cell)


def render_tables(text: str) -> str:
    """The page text with each table found replaced by its rows, one paragraph per row, headers carried into
    every row; everything else unchanged. A quoted row then names its columns, and a window boundary between
    rows never separates a value from its header."""
    lines = text.split("\n")
    out: list[str] = []
    carried: Carried = {}
    i = 0
    while i < len(lines):
        table = _grow(lines, i, carried)
        if table is None:
            out.append(lines[i])
            i += 1
            continue
        if table.header and not table.header[0]:
            carried[len(table.columns)] = table.header, [b for _, b in table.columns[1:]]
        rows = [render_row(table.header, cells) for cells in table.body]
        if out and out[-1].strip():
            out.append("")
        out.append("\n\n".join(r for r in rows if r))
        i = table.last + 1
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)
