"""What an answer must be written in when the question says so: money, a span of time, a share, an email address, a
web address, a voltage, a current, a resistance, a size in bytes, a mass, a version, or the unit the question names."""

from __future__ import annotations

import re
from types import MappingProxyType

# A question asking for a quantity's value names it right after its question word, with at most two words between
# ("what's the max voltage", "below what voltage", "how much current can it supply"), unlike "What resolution does the
# voltage measurement have?" (bits) or "Why is the measured resistance of tap water so different?" (a reason).
_VALUE = (r"\b(what|which|how much)(['’]?s|\s+(is|are|was|were))?\s+((the|a|an|its|their|my|your)\s+)?"
          r"([\w-]+\s+){0,2}?")
# A cross-reference's number points elsewhere and is no value: "the rules in section 2.4 continue to apply", "(see
# Section 8.26 [graph], page 98)" holds no version.
REFERENCE = re.compile(r"(\b(sections?|chapters?|clauses?|articles?|pages?|pp?\.|appendix|annex|tables?|figures?|fig\.|"
                       r"steps?|paragraphs?|items?)|§)\s*\d+(\.\d+)*[a-z]?\b", re.I)
# Numbers written as words, one to the hundreds: a regex alternation shared by the measures and the answer kinds.
CARDINALS = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(thir|four|fif|six|seven|eigh|nine)teen|"
             r"(twen|thir|for|fif|six|seven|eigh|nine)ty|hundred")
_COUNT = rf"\d+(?:[.,]\d+)?|an?|{CARDINALS}|half|several|few|couple of"
# Asked for (question patterns) and written as (answer patterns), per measure; checked in this order. Read-only
# mappings of compiled patterns: every request thread reads them, none writes.
_ASKED = MappingProxyType({
    "email": re.compile(r"\be-?mail\s+address(es)?\b", re.I),
    "web": re.compile(r"\b(website|web\s+(site|address|page)|url)s?\b", re.I),
    # "How long" in an organization's documents is a span of time (a leave, a retention period, a defrost), or a
    # length (a cable; a name or a line: "exactly 6 characters", "4096 bytes").
    # "How many years …" asks for a count of a unit of time, written with the unit as "how long" is answered: a date
    # ("Debian testing-security-announce 2008-12") says nothing of how many years.
    # So is a timeout, a delay or a duration asked for by name ("What is the default connection timeout …?").
    "span": re.compile(r"\bhow long\b|\bhow many\s+([\w-]+\s+){0,2}?(seconds|minutes|hours|days|nights|weeks|months|"
                       rf"years|shifts)\b|{_VALUE}(time-?outs?|delays?|durations?)\b", re.I),
    "percent": re.compile(r"\b(percentage|percent|per cent|what (share|proportion|fraction))\b", re.I),
    # Money words only: "how much leave" asks for days, "how much does the gym membership cost" for money.
    # "At the cost of slower compression" names a trade-off, not a price.
    "money": re.compile(r"\b(money|(?<!at the )cost|costs|price|fee|fees|salary|salaries|wage|wages|stipend|budget|"
                        r"deductible|reimburse\w*|refund\w*|dollars?|euros?)\b", re.I),
    # A technical manual's quantities, each answered in its unit: "Can be set to any value in the 0 to +5V range"
    # does not say how much current the source supplies.
    "voltage": re.compile(rf"{_VALUE}voltages?\b|\bhow many volts\b", re.I),
    # "What is the current policy?" is no question about amperes: "current" is asked for only as the thing supplied.
    "current": re.compile(r"\bhow much (current|amperage)\b|\bwhat current (can|does|do|is|will|flows?)\b|"
                          r"\b(maximum|max|minimum|min|output|supply|load|peak)\s+current\b|"
                          r"\bcurrent\s+(limit|rating|draw|consumption|capacity)\b|\bhow many amps\b", re.I),
    "resistance": re.compile(rf"{_VALUE}(input\s+|output\s+)?(impedance|resistance)\b", re.I),
    # "How much space does LetterSpace=1.0 put between letters?" asks for a length: space is storage only when
    # something takes, needs or leaves it.
    "bytes": re.compile(rf"{_VALUE}(ram|memory|disk space|free space|storage|file size|"
                        r"size of [^?!]{0,30}?\bfiles?)\b|\bhow much (ram|memory|disk|storage)\b|"
                        r"\bhow much space\b(?=[^?]*\b(takes?|needs?|uses?|occup(y|ies)|requires?|left|free|available)\b)|"
                        r"\bhow many\s+((kilo|mega|giga|tera)?bytes|[kmgt]i?b)\b", re.I),
    # "Which minimum version of OpenCV does AMC require?" is not answered by a list of the packages it requires, nor
    # "What is the minimum Python 3 version xasy needs?" by "it requires Python": a name or number may stand between
    # the words as well ("what's new in this version" asks for no number). "From which release on …" asks for one
    # too; "what is the release date" does not.
    "version": re.compile(rf"{_VALUE}(minimum\s+|required\s+|oldest\s+|latest\s+)?((?-i:[A-Z0-9])[\w.-]*\s+)?"
                          r"(versions?|releases?(?!\s+(date|notes?|cycle|schedule|process|team|manager|form|of)\b))\b",
                          re.I),
    # "How heavy is the iron ball?" is answered by a mass: "f = 1/(2π√g/l)" is none. A weight is as often a glob's
    # or a font's ("The default weight value is 50") as a mass.
    "mass": re.compile(rf"\bhow heavy\b|{_VALUE}mass\b", re.I),
    # A question naming the unit it wants ("the default thickness, in points, of the frame", "what wavelength in
    # nanometres") is answered by a quote written in that unit: "height=4" with no unit is no height in inches.
    "points": re.compile(r"\bin\s+(points|pt|big points|bp)\b", re.I),
    "inches": re.compile(r"\bin\s+inch(es)?\b|\bhow many inches\b", re.I),
    "nanometres": re.compile(r"\bin\s+(nanomet(er|re)s?|nm)\b|\bhow many nanomet(er|re)s\b", re.I),
    "millimetres": re.compile(r"\bin\s+(millimet(er|re)s?|mm)\b|\bhow many millimet(er|re)s\b", re.I),
    "centimetres": re.compile(r"\bin\s+(centimet(er|re)s?|cm)\b|\bhow many centimet(er|re)s\b", re.I),
    "pixels": re.compile(r"\bin\s+pixels\b|\bhow many pixels\b", re.I),
    "degrees": re.compile(r"\bin\s+degrees\b|\bhow many degrees\b", re.I),
})
_WRITTEN = MappingProxyType({
    "email": re.compile(r"\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b"),
    "web": re.compile(r"\bhttps?://\S+|\bwww\.\S+|\b[\w-]+(\.[\w-]+)*\.(com|org|net|gov|edu|io|example|eu|co)\b(/\S*)?",
                      re.I),
    # "%" after a brace opens a TeX comment ("{% \ifstrequal…"); after a number, in a heading ("Margin (%)") or
    # escaped in TeX ("50\%"), it is a share.
    "percent": re.compile(rf"\d\\%|(?<![{{}}\\])%|\b({_COUNT})[\s-]+(percent|per cent)\b|"
                          r"\b(half|one third|a third|a quarter)\b", re.I),
    # The sign before the amount or, as much of Europe writes it, after it ("500 €").
    "money": re.compile(r"[$€£¥]\s?\d|\d\s?[€£¥]|\b\d[\d,.]*\s?(k|m|bn)?\s?(usd|eur|gbp|chf|cad|aud|dollars?|euros?|pounds?|cents?)\b|"
                        r"\b(usd|eur|gbp|chf|cad|aud)\s?\d|\bfree of charge\b|\bat no (extra |additional )?cost\b|"
                        r"\bno (fee|charge)\b", re.I),
    # "once a year", "twice a week", "10 times a day" say how often, not how long.
    # One word may describe the unit after a number: "up to five unused days", "16 paid weeks"; "1 per day" is a rate,
    # and "a planning week" the kind of week, not its length.
    "span": re.compile(rf"(?<!once )(?<!twice )(?<!times )(?<!per )\b({_COUNT})[\s-]+"
                       rf"((?<!\ba\s)(?<!\ban\s)(?!(per|times|a|an|each|every|of)\b)[a-z]+[\s-]+)?"
                       rf"((business|working|calendar|consecutive|full)[\s-]+){{0,2}}(milliseconds?|seconds?|minutes?|"
                       r"mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|quarters?|shifts?|decades?|"
                       r"metres?|meters?|centimetres?|cm|mm|km|feet|foot|ft|inches?|characters?|digits?|letters?|"
                       r"bytes?)\b|"
                       r"\b\d+(\.\d+)?\s?(ms|s|h|min|d|m)\b|\b(indefinitely|permanently|until)\b|"
                       # a range: "from 3 March to 14 March 2025", "between 07:00 and 19:00"
                       r"\b(from|between)\s[^.;]{0,30}?\d[^.;]{0,30}?\s(to|and|until|till|through)\s", re.I),
    "voltage": re.compile(r"\d\s?(m|k)?v\b|\b(milli|kilo)?volts?\b", re.I),
    "current": re.compile(r"\d\s?(m|µ|u|k)?a\b|\b(milli|micro)?amp(ere)?s?\b", re.I),
    "resistance": re.compile(r"[Ωω]|\b(k|m|kilo|mega)?ohms?\b", re.I),
    "bytes": re.compile(r"\d\s?([kmgtp]i?b|bytes?)\b|\b(kilo|mega|giga|tera)?bytes?\b", re.I),
    "version": re.compile(r"\b\d+(\.\d+)+\b|\d+\.x\b|\bv\d+\b|\bversions?\s+\d", re.I),
    "mass": re.compile(r"\d\s?(mg|g|kg|t|lbs?|oz)\b|\b(milli|kilo)?grams?\b|\b(pounds?|ounces?|tonnes?|tons?)\b", re.I),
    # The unit by name anywhere ("the width and height of the graphics region in inches … default 7"), or by its
    # symbol after a number.
    "points": re.compile(r"\d\s?(pt|bp|dd)\b|\bpoints?\b", re.I),
    "inches": re.compile(r"\binch(es)?\b|\d\s?(\"|″|in\.)", re.I),
    "nanometres": re.compile(r"\d\s?nm\b|\bnanomet(er|re)s?\b", re.I),
    "millimetres": re.compile(r"\d\s?mm\b|\bmillimet(er|re)s?\b", re.I),
    "centimetres": re.compile(r"\d\s?cm\b|\bcentimet(er|re)s?\b", re.I),
    "pixels": re.compile(r"\d\s?px\b|\bpixels?\b", re.I),
    "degrees": re.compile(r"°|\bdegrees?\b", re.I),
})
# Read-only: shared by every request thread.
NAMES = MappingProxyType({"email": "an email address", "web": "a web address", "percent": "a percentage",
                          "money": "an amount of money", "span": "a length of time", "voltage": "a voltage",
                          "current": "a current", "resistance": "a resistance", "bytes": "a size in bytes",
                          "version": "a version number", "points": "a length in points", "inches": "a length in inches",
                          "nanometres": "a length in nanometres", "millimetres": "a length in millimetres",
                          "centimetres": "a length in centimetres", "pixels": "a size in pixels",
                          "degrees": "an angle or temperature in degrees", "mass": "a mass"})


# Words before "version" that say which version, not whose: "the minimum version", "which release".
_NOT_A_NAME = frozenset("minimum required oldest latest earliest newest first last current stable supported specific "
                        "exact new same which what the a an this that its their my your our older recent released major "
                        "minor compatible package software release lowest highest least most default".split())
_RELEASE_NUMBER = re.compile(r"\d+(\.\d+)*")


def product(question: str) -> str | None:
    """Whose version the question asks for, lowercased, when it names it before "version" ("which Ghostscript
    version", "the minimum Python 3 version"): a version of anything else does not answer it ("Files from versions 5
    up to 12 of Stata" for "up to which SPSS version")."""
    asked = _ASKED["version"].search(question)
    if not asked or measure(question) != "version":
        return None
    named = re.findall(r"[\w.+-]+", asked.group(0))[:-1]
    while named and _RELEASE_NUMBER.fullmatch(named[-1]):
        named.pop()
    return named[-1].lower() if named and named[-1].lower() not in _NOT_A_NAME else None


def versioned(text: str, name: str) -> bool:
    """Whether text gives a version of that product: its number after the name, at most three words between
    ("Ghostscript version 9.56", "CLisp (2.29", "Bash-5.0"), or before it ("versions 5 up to 12 of Stata")."""
    n = re.escape(name)
    return bool(re.search(rf"\b{n}\b(?:[\s(,-]+[a-z]+){{0,3}}?[\s(-]*v?\d+(\.\d+)*|"
                          rf"\d+(\.\d+)*(?:\s+[a-z]+){{0,3}}\s+(of|for)\s+{n}\b", text, re.I))


def measure(question: str) -> str | None:
    """The measure the question asks its answer in, if it names one."""
    return next((name for name, pattern in _ASKED.items() if pattern.search(question)), None)


def written_in(text: str, name: str) -> bool:
    """Whether text states something in that measure, not counting a cross-reference's number."""
    return bool(_WRITTEN[name].search(REFERENCE.sub(" ", text)))
