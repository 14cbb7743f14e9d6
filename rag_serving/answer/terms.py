"""Strict question terms (years, codes, fiscal periods, filing forms) and the other spellings that name the same thing."""

from __future__ import annotations

import re
from types import MappingProxyType

from rag_serving.answer.text import stop_words

# Filings and PDFs spell one hyphen many ways ("10‑K" with U+2011, "fiscal–year"), and curly apostrophes ("Q2’23").
_DASHES = re.compile("[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_APOSTROPHES = re.compile("[\u2018\u2019\u02bc\u2032`]")
_SPACE = re.compile(r"\s+")

_WORDS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
          "eleventh", "twelfth")
_PERIOD = re.compile(r"q[1-4]|[1-4]q|h[12]|[12]h")
# A period joined to its year: Q2FY23, Q2-2023, 2Q23, 1H22, FY23Q2, 2023Q2. A letter-first code takes a bare year
# only after a hyphen or apostrophe, so a model name such as "H100" is not read as "H1 '00".
_JOINED = (r"(?P<p>q[1-4]|h[12]|[1-4]q|[12]h)(?P<s>-?(?:fy|cy)-?'?|-'?|'?)(?P<y>\d{4}|\d{2})"
           r"|(?P<s2>(?:fy|cy)-?'?|)(?P<y2>\d{4}|\d{2})-?(?P<p2>q[1-4]|h[12]|[1-4]q|[12]h)")
_JOINED_TERM = re.compile(_JOINED)
_JOINED_TEXT = re.compile(rf"(?<![a-z0-9])(?:{_JOINED})(?![a-z0-9])")
_FISCAL = re.compile(r"(?P<c>fy|cy)-?'?(?P<y>\d{4}|\d{2})")
# SEC forms; their official titles name the same document ("Annual Report on Form 10-K").
_FORMS = MappingProxyType({"10k": "annual report", "10q": "quarterly report", "8k": "current report",
                           "20f": "annual report", "40f": "annual report", "6k": "", "11k": ""})
_FORM = re.compile(r"(?P<n>10|8|6|20|40|11)(?P<h>-?)(?P<l>[kqf])")  # only the pairs in _FORMS count: see _form
_ORDINAL = re.compile(r"(?P<n>\d{1,2})(?:st|nd|rd|th)")
# An amount: a number with a magnitude, a multiple or a rate ("$1.2B", "3.5M", "1,200M", "10x", "5pct", "50bps").
_AMOUNT = re.compile(r"(?P<c>[$€£¥]?)(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?P<d>\.\d+)?(?P<u>k|mm|mn|m|bn|b|tn|t|x|pct|pc|bps|bp)")
_UNITS = MappingProxyType({"k": ("k", "thousand"), "m": ("m", "mm", "mn", "million"), "b": ("b", "bn", "billion"),
                           "t": ("t", "tn", "trillion"), "x": ("x", "times"),
                           "pct": ("%", "pct", "percent", "per cent"), "bp": ("bp", "bps", "basis points")})
_UNIT_OF = MappingProxyType({"mm": "m", "mn": "m", "bn": "b", "tn": "t", "pc": "pct", "bps": "bp"})
_MEASURE = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<u>[a-z]{1,3})")
# A number ending or broken by "." or "," just before an identifier match: the match is the tail of an amount
# ("$1.2B" is matched as "2B").
_LEAD = re.compile(r"(?:(?<![a-z0-9.,])[$€£¥]?\d+(?:[.,]\d+)*[.,]|[$€£¥])$")
_BARE_YEAR = re.compile(r"(?:19|20)\d\d")
# Identifiers: part numbers, error codes, memo numbers, model names (letters and digits mixed).
IDENTIFIER = re.compile(r"\b(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\b")
# A standard or regulation named by its body's acronym and number: "ISO 9001", "EN 378", "IEC 60335-2-89".
# Fiscal and calendar years ("FY 2022") have forms of their own; a body joined to its number ("X200") is an identifier.
# A product and its release count as one too: "KDE 3", "FHS 3.0".
_STANDARD = re.compile(r"\b(?!(?:FY|CY)\b)(?P<a>[A-Z]{2,6})[\s-](?P<n>\d{2,}(?:[-:.]\d+)*|\d(?:\.\d+)*)\b")
_STANDARD_TERM = re.compile(r"(?P<a>[a-z]{2,6}) (?P<n>\d{2,}(?:[-:.]\d+)*|\d(?:\.\d+)*)")
# A file or directory path: absolute ("/boot/efi", "~/.config") or three names deep ("debian/upstream/metadata"). One
# slash between two words is as often "and/or" or "kB/s" as a path.
_PATH = re.compile(r"(?<![\w/.:~])~?/[\w.+-]*[a-z][\w.+-]*(?:/[\w.+-]+)*|(?<![\w/.:])[\w.+-]+(?:/[\w.+-]+){2,}", re.I)
# A name written as code: a dotted or underscored identifier ("warning.length", "read.table", "INSTALL_DATA"), a long
# option ("--timeout") or a TeX macro ("\LTcapwidth"). Like a part number it names one thing, and a passage without it
# is about another. A single-dash option is none: questions give them as examples ("flags such as -Wall").
_CODE_NAME = re.compile(r"(?<![\w.\\/-])(?:--[a-z][\w-]*[a-z0-9]|\\[a-z@]{2,}|[a-z][a-z0-9]*(?:_[a-z0-9]+)+"
                        r"|[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]+)+)(?![\w/-])", re.I)
_DEEP_PATH = re.compile(r"~?/?[\w.+-]+(?:/[\w.+-]+){2,}")  # three names deep


def normalize(text: str) -> str:
    """Lowercase, one kind of hyphen and apostrophe, single spaces, no soft hyphens."""
    text = _APOSTROPHES.sub("'", _DASHES.sub("-", text.replace("\u00ad", "")))
    return _SPACE.sub(" ", text).strip().lower()


def is_amount(token: str) -> bool:
    """Whether a token is a quantity ("1.2b", "$10k", "10x", "5pct"): what a question asks about, not a name.
    "10k" and "8k" alone are filing forms as often as amounts, so they are not."""
    return bool(_AMOUNT.fullmatch(token)) and not _form(token)


def _form(token: str) -> re.Match | None:
    m = _FORM.fullmatch(token)
    return m if m and f"{m['n']}{m['l']}" in _FORMS else None


def code_names(question: str) -> list[str]:
    """The names a question writes as code, lowercased, as a passage names them however its PDF set the marks: an option
    without its dashes ("--timeout" is printed "–timeout" as often), a macro without its backslash."""
    return list(dict.fromkeys(m.group(0).lower().lstrip("-\\") for m in _CODE_NAME.finditer(question)))


# A word the question calls a key, option, argument or command is that setting's name, printed as such in the manual:
# "the emptylines key", "the parskip= option", "the nrows argument", "the globstar shell option", "the read builtin".
# Words that describe rather than name ("the same option", "the default setting", "the upstream key", "the enclosing
# function") are not, nor are plurals ("the arrow keys", "the formal arguments"), which describe a kind. Nor is a
# package's name: "the caption package" is the title of every page of its manual and tells no passage from another.
_SETTING = re.compile(r"\b(?:the|its|their|this|that)\s+(?P<n>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)=?\s+"
                      r"(?:(?:shell|command-line|configuration|boolean|global|package|class)\s+)?(?:key|option|argument|"
                      r"parameter|setting|variable|flag|macro|field|keyword|target|command|function|method|builtin|"
                      r"environment)\b")
_NOT_NAMES = frozenset("same default new following first last other global local optional required main whole only "
                       "current previous next given above below corresponding relevant appropriate specific standard "
                       "usual command-line shell package document configuration config environment upstream public "
                       "private secret signing primary master right correct original entire binary source final latest "
                       "older newer official base core separate single underlying built-in builtin external internal "
                       "said enclosing calling parent child".split())


def setting_names(question: str) -> list[str]:
    """The names a question gives a key, option or argument ("the emptylines key" → "emptylines"), lowercased: strict
    terms, as names written as code are."""
    stop = stop_words()
    return list(dict.fromkeys(n for m in _SETTING.finditer(question)
                              if (n := m["n"]) not in _NOT_NAMES and n not in stop))


# A release the question names by its number ("version 3.5", "v1.6.4", "release 2.9"): a passage about another
# release is about something else. A single number ("version 2") is too common a string to tell passages apart.
_VERSION = re.compile(r"\b(?:versions?|releases?|revisions?|v)\s?(\d+(?:\.\d+)+[a-z]?)\b", re.I)


def versions(question: str) -> list[str]:
    """The release numbers a question names after "version", "release" or "v": strict terms."""
    return list(dict.fromkeys(m.group(1).lower() for m in _VERSION.finditer(question)))


def standards(question: str) -> list[str]:
    """The standards a question names by acronym and number ("ISO 9001" → "iso 9001"): strict terms, as codes are."""
    return [f"{m['a'].lower()} {m['n']}" for m in _STANDARD.finditer(question)]


def paths(question: str) -> list[str]:
    """The file paths a question names, lowercased, with no trailing slash or full stop: strict terms, as codes are."""
    return [p for m in _PATH.finditer(question) if "/" in (p := m.group(0).rstrip("/.").lower())]


def either_paths(question: str) -> tuple[str, ...]:
    """The paths of a question naming several, of which a passage naming one is enough: it sets the asker's own beside
    the document's ("put R under /opt/R rather than /usr/local")."""
    found = paths(normalize(question))
    return tuple(found) if len(found) > 1 else ()


def strict_identifier(text: str, start: int, end: int) -> str | None:
    """The strict term for an identifier found at text[start:end] of a normalized question, with the digits of a
    number it is the tail of ("1.2b" for the "2b" of "$1.2B"); None when that is an amount."""
    lead = _LEAD.search(text[:start])
    token = (lead.group(0) if lead else "") + text[start:end]
    return None if is_amount(token) else token.lstrip("$€£¥")


def _year(digits: str) -> int:
    # Two-digit fiscal years: FY99 is 1999, FY23 is 2023.
    return int(digits) if len(digits) == 4 else (2000 if int(digits) < 70 else 1900) + int(digits)


def _joined(match: re.Match) -> tuple[str, str, int] | None:
    """(period code as q2/h1, fy or cy, year) of a period joined to a year, or None if it only looks like one."""
    period, sep, digits = match["p"] or match["p2"], match["s"] if match["p"] else match["s2"], match["y"] or match["y2"]
    if match["p"] and period[0] in "qh" and not sep:
        return None  # "h100" is a model, not H1 2000
    if match["p2"] and not sep and len(digits) == 2:
        return None  # "23q2" could be anything
    code = period if period[0] in "qh" else period[1] + period[0]
    return code, "cy" if "cy" in sep else "fy", _year(digits)


def _parts(term: str) -> tuple[str, str] | None:
    """A period-and-year term as its two strict terms: "q2fy23" → ("q2", "fy2023")."""
    m = _JOINED_TERM.fullmatch(term)
    found = _joined(m) if m else None
    return (found[0], f"{found[1]}{found[2]}") if found else None


def _split_joined(text: str) -> str:
    """Text with periods joined to years written apart, so "2Q23" holds the terms "q2" and "'23"."""
    def apart(m: re.Match) -> str:
        if not _joined(m):
            return m.group(0)
        digits, sep = m["y"] or m["y2"], (m["s"] if m["p"] else m["s2"]).strip("-'")
        written = f"{sep}{digits}" if sep else digits if len(digits) == 4 else f"'{digits}"
        return f"{m['p'] or m['p2']} {written}" if m["p"] else f"{written} {m['p2']}"
    return _JOINED_TEXT.sub(apart, text)


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _period_forms(code: str, *, named_only: bool = False) -> tuple[str, ...]:
    n = int(code[1])
    if code[0] == "q":
        named = (f"q{n}", f"{n}q", f"{_WORDS[n]} quarter", f"{_nth(n)} quarter", f"{_WORDS[n]} fiscal quarter",
                 f"{_nth(n)} fiscal quarter", f"quarter {n}")
        # A 10-Q calls the quarter "three months ended June 30"; which quarter that is depends on the fiscal
        # calendar, so such a passage is not a mismatch for any quarter.
        period = ("three months ended", "three month period ended", "13 weeks ended")
    else:
        named = (f"h{n}", f"{n}h", f"{_WORDS[n]} half", f"{_nth(n)} half")
        # The first half is always the year to date of the second quarter: "six months ended".
        period = ("first six months", "six months ended", "six month period ended", "26 weeks ended") if n == 1 else ()
    return named if named_only else named + period


def _year_forms(kind: str, year: int) -> tuple[str, ...]:
    yy = f"{year % 100:02d}"
    word = "fiscal" if kind == "fy" else "calendar"
    forms = (f"{kind}{year}", f"{kind}{yy}", f"{kind} {year}", f"{kind} {yy}", f"{word} {year}", f"{word} year {year}")
    forms += (f"financial year {year}",) if kind == "fy" else ()
    # A fiscal year is named by its year as well ("year ended December 31, 2022", "fiscal year ended September
    # 24, 2022"), so FY2022 asks no more than "2022" does; FY2021 against a passage on 2022 is still missing.
    return forms + (f"'{yy}", str(year))


def _amount_forms(m: re.Match) -> tuple[str, ...]:
    number = m["n"] + (m["d"] or "")
    unit = _UNIT_OF.get(m["u"], m["u"])
    forms = tuple(f"{number}{' ' if len(u) > 3 else ''}{u}" for u in _UNITS[unit])
    if unit == "k" and not m["d"]:
        whole = int(m["n"].replace(",", "")) * 1000
        forms += (f"{whole:,}", str(whole))
    return forms


def strict_variants(term: str) -> tuple[str, ...]:
    """The lowercase surface forms that count as the same strict term, the term first.

    A space or hyphen inside a form also matches a space, a hyphen or nothing in the text (see `contains_term`).
    """
    t = normalize(term)
    forms: tuple[str, ...] = (t,)
    if parts := _parts(t):
        # The usual ways of writing the two together; `contains_term` also accepts them apart, in any form.
        kind, year = parts[1][:2], int(parts[1][2:])
        years = (str(year), f"{kind}{year % 100:02d}", f"{'fiscal' if kind == 'fy' else 'calendar'} {year}",
                 f"'{year % 100:02d}")
        periods = _period_forms(parts[0], named_only=True)[:3]  # "q2", "2q", "second quarter"
        forms += tuple(f"{p}{joint}{y}" for p in periods for y in years
                       for joint in ((" ", " of ") if " " in p else (" ",)))
    elif _PERIOD.fullmatch(t):
        forms += _period_forms(t if t[0] in "qh" else t[1] + t[0])
    elif m := _FISCAL.fullmatch(t):
        forms += _year_forms(m["c"], _year(m["y"]))
    elif m := _form(t):
        name = f"{m['n']}-{m['l']}"
        title = _FORMS[f"{m['n']}{m['l']}"]
        forms += (name, f"form {name}") + ((title,) if title else ())
        if not m["h"] and m["l"] == "k":  # unhyphenated "10k" may be ten thousand
            forms += _amount_forms(_AMOUNT.fullmatch(t))
    elif m := _AMOUNT.fullmatch(t):
        forms += _amount_forms(m)
    elif m := _STANDARD_TERM.fullmatch(t):
        forms += (f"{m['a']}-{m['n']}",)  # "ISO 9001", "ISO-9001", "ISO9001": a form's space matches all three
    elif _DEEP_PATH.fullmatch(t):
        # Three names deep, the last is often the asker's own ("/etc/cron.d/foo.cleanup"): its directory is named.
        forms += (t.rsplit("/", 1)[0],)
    elif (m := _ORDINAL.fullmatch(t)) and 0 < int(m["n"]) < len(_WORDS):
        forms += (_WORDS[int(m["n"])],)
    elif m := _MEASURE.fullmatch(t):
        forms += (f"{m['n']} {m['u']}",)  # "16GB" is "16 GB"
    elif "_" in t.strip("_"):
        forms += (t.replace("_", " "),)  # a PDF may print "dense_heads" as "dense heads": its space matches none
    return tuple(dict.fromkeys(forms))


def _pattern(form: str) -> str:
    """A form as a regex bounded like a word: "q2" is not inside "faq2x", "2 billion" not inside "1.2 billion"."""
    body = "".join(r"[\s-]?" if c in " -" else re.escape(c) for c in form)
    left = (r"(?<![a-z0-9])" if form[0].isalnum() else "") + (r"(?<!\d[.,])" if form[0].isdigit() else "")
    right = r"s?(?![a-z0-9])" if form[-1].isalpha() else r"(?![a-z0-9])(?![.,]\d)" if form[-1].isdigit() else ""
    return left + body + right


def contains_term(text_lower: str, term: str) -> bool:
    """Whether text names a strict term in any of its forms.

    A term without other forms (a proper name, a year, a code like "e-104") is a plain substring, as before; the
    forms of one that has them match at word boundaries. A period joined to a year ("q2fy23") is also present
    when the period and the year both are, apart ("second quarter … fiscal 2023").
    """
    text = normalize(text_lower)
    t = normalize(term)
    forms = strict_variants(t)
    if forms == (t,):
        return t in text
    if any(f in text for f in forms if _BARE_YEAR.fullmatch(f)):
        return True  # a bare year matches as a year in the question does: anywhere, "20221231" included
    bounded = [_pattern(f) for f in forms if not _BARE_YEAR.fullmatch(f)]
    if re.search("|".join(bounded), _split_joined(text)):
        return True
    parts = _parts(t)
    return bool(parts) and all(contains_term(text, p) for p in parts)
