"""The kind of answer a question asks for (a number, a date, a person, a reason, a place) and whether a text holds it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from rag_serving.answer import measures
from rag_serving.answer.terms import IDENTIFIER
from rag_serving.answer.text import words

AnswerKind = Literal["number", "date", "person", "reason", "place", "any"]

_NUMBER = re.compile(rf"\d|\b({measures.CARDINALS}|thousand|million|half|once|twice|daily|weekly|monthly|annually)\b",
                     re.I)
MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
         "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday")
# "may" is a month only beside a day or a year: "a team may end" holds no date.
_DATE = re.compile(rf"\b(?!may\b)({MONTHS})\b|\b\d{{1,2}}(st|nd|rd|th)? may\b|\bmay \d{{1,2}}\b|\bmay (19|20)\d\d\b|"
                   r"\b(19|20)\d\d\b|\d{1,2}/\d{1,2}", re.I)
_PERSON = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")
# Who answers a "who" question in an organization's documents: a role, team or trade as often as a named person.
_ROLE = re.compile(r"\b(manager|officer|staff|team|department|desk|head|owner|director|contractor|technician|"
                   r"engineer|employee|supervisor|committee|board|colleague|member|administrator|coordinator|"
                   r"representative|specialist|operator|inspector|auditor|advisor|consultant|partner|vendor|supplier|"
                   r"provider|user|holder|person|people|anyone|someone|nobody)s?\b", re.I)
# A quantity's noun within the first words after "what"/"which" ("what's the internal phone extension", "which error
# codes"), or money asked about anywhere ("is there an annual pot of money for …").
QUANTITY = (r"percentage|percent|number|amount|fee|price|cost|rate|limit|maximum|minimum|temperature|phone|extension|"
            r"length|(?<!dress )code|stipend|allowance|budget|deductible|match|bonus|salary|wage|hours|speed|distance|"
            r"weight|load|size|capacity|interval|duration|frequency|threshold|quota|total|age|height|width|depth|"
            r"volume|pressure|voltage|port")
# What "how" asks for a number with: "many", "much", and the measure words that, like them, shape the question rather
# than name what it is about ("how long is the leave?").
HOW_MEASURES = frozenset("many much long often far old soon large big heavy fast wide tall high deep thick".split())
_NUMBER_Q = re.compile(rf"\bhow ({'|'.join(sorted(HOW_MEASURES))})\b"
                       rf"|\b(what|which)(['’]s|\s+(is|are|was|were))?\s+((the|a|an|our|my|your|its|their)\s+)?"
                       rf"([\w()'’-]+\s+){{0,3}}?({QUANTITY})s?\b"
                       r"|\b(money|allowance|stipend|budget)\b", re.I)
# "What date format …" and "what time zone …" ask for a format and a zone: the noun after "date" is what is asked for.
_NOT_A_DATE = r"(?!\s+(formats?|fields?|stamps?|strings?|syntax|types?|columns?|zones?)\b)"
_DATE_Q = re.compile(rf"^\s*when\b|\b(what|which) (date|day|year|month|time)\b{_NOT_A_DATE}|\bdeadline\b", re.I)
# "When did the allowance stop?" asks for a date; "When do I need a doctor's note?" and "When are accounts disabled?" are
# answered by a condition, a span or an event ("for absences of more than five working days", "by the end of their
# last working day") as often as by a date.
# "On what date was 1.6 released?" names the date as what it asks for, as "when did" does: "removed in 4.52" is none.
_DATED = re.compile(rf"\bwhen (did|was|were|had)\b|\b(what|which) (date|year|month)\b{_NOT_A_DATE}", re.I)
_WHEN_WRITTEN = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b(before|after|by the end of|within|during|immediately|as soon as|once|"
                           r"upon|prior to|following|until|every|each time|whenever|if|on your (first|last))\b", re.I)
_REASON_Q = re.compile(r"^\s*why\b|\bwhat (was|is) the (reason|explanation)\b|\bhow come\b|\bexplain why\b", re.I)
# A purpose opening the sentence gives the reason too: "To make such scripts portable among different systems, it is
# advantageous to standardize the interpreter locations." So does a consequence drawn from a cause: "… is managed using
# a reference counting scheme, so the cost of this operation is independent of the size", "… which is rounded to 3,
# hence \ifnumcomp will expand to true". "Thus:" opens an example.
_REASON = re.compile(r"\b(because|due to|owing to|so that|in order to|as a result|reason|since|to (avoid|prevent|protect|"
                     r"reduce|allow|ensure|keep|comply)|(hence|therefore|thus|consequently)(?!\s*:)|(which|that|this) is "
                     r"why|caused by)\b|, so\b|^\W*to [a-z]+\b[^.;:]*,", re.I)
# "Where do I find my asset tag?" is answered by a place ("on the silver sticker on your laptop"), a portal or an address,
# not by "Have your asset tag number ready."
_PLACE_Q = re.compile(r"^\s*where\b|\bwhere (can|do|does|did|should|is|are|will|would|must|may)\b", re.I)
_PLACE = re.compile(r"\b(in|on|at|to|from|under|behind|beside|next to|inside|near|via|through|into|onto|above|below|"
                    r"outside|opposite|around)\b|https?://|\S@\S|\bext(ension|\.)", re.I)
# "Which departments …" is answered by naming them, as "who" is: a sentence saying "two departments" names none.
_PERSON_Q = re.compile(r"^\s*who\b|\bwhose\b|\bwhich (person|manager|department|team|division|unit|office|company|"
                       r"companies|organi[sz]ation|supplier|vendor|contractor)s?\b", re.I)
# Words that shape a question but are never what it is about.
QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how does do did is are was were can could should would will shall may "
    "might must please tell explain describe give list say says according document documents doc docs".split()
)
_OPENING = re.compile(r"\s*(when|who|whom|why|where)\b", re.I)
# Read-only: shared by every request thread.
_OPENING_KINDS: Mapping[str, AnswerKind] = MappingProxyType(
    {"when": "date", "who": "person", "whom": "person", "why": "reason", "where": "place"})


# "When" opening a clause that sets the scene ("When automatic wrapping splits a line, how far in are the pieces
# shifted?") asks nothing: a question's "when" is followed by a verb ("When does it end?", "When is the deadline?").
_AUXILIARY = r"(do|does|did|is|are|was|were|will|would|can|could|should|shall|must|may|might|has|have|had|am|to)"
SCENE_OPENING = rf"^\s*(when|whenever|once|after|before|while)\s+(?!{_AUXILIARY}\b)"
_SCENE = re.compile(rf"{SCENE_OPENING}[^,?]*,\s*", re.I)


def kind_of(question: str) -> AnswerKind:
    """The kind of answer a question asks for. The word it opens with decides before any word inside it: "When did
    Acme stop paying the allowance?" asks for a time, though "allowance" names money; a clause setting the scene
    before a comma is no opening."""
    question = question[scene.end():] if (scene := _SCENE.match(question)) else question
    opening = _OPENING.match(question)
    if opening:
        return _OPENING_KINDS[opening.group(1).lower()]
    for pattern, kind in ((_NUMBER_Q, "number"), (_DATE_Q, "date"), (_PERSON_Q, "person"), (_REASON_Q, "reason"),
                          (_PLACE_Q, "place")):
        if pattern.search(question):
            return kind
    return "any"


# A number is read whole, decimals and thousands with it: "1.0" in a question does not blank the "0.1" of an answer.
_NUMERAL = re.compile(r"\b\w*\d(?:[.,]\d+|\w)*")
# A physical measure is written in digits: "two mini frame icons" and "two Piezo buzzers" count things, they give no
# size or frequency; nor does "more than one Debian machine" give a port. "How far in advance" and "how big is the
# team" are answered in words as often.
_MEASURED_Q = re.compile(r"\bhow (wide|tall|high|deep|thick|heavy)\b|\b(what|which)(['’]s|\s+(is|are|was|were))?\s+"
                         r"((the|a|an|its|their)\s+)?([\w()'’-]+\s+){0,3}?(frequency|temperature|speed|weight|width|"
                         r"height|depth|pressure|distance|size|voltage|port)\b", re.I)
_CARDINAL = re.compile(rf"\b({measures.CARDINALS}|thousand|million)\b", re.I)
_HOW_MANY = re.compile(r"\bhow many\b", re.I)
# A step's own number counts nothing: "1.If your FreedomBox is behind a router, …" names no port.
_STEP = re.compile(r"^\W*\d{1,2}[.)](?!\d)")
# How often is no count: "mirrored daily to many sites" does not say how many sites.
_FREQUENCY = re.compile(r"\b(daily|weekly|monthly|annually)\b", re.I)


# A code written in capitals and digits ("R-452A", "X200-HTR-05", "E-106") is the number asked for only when the
# question asks for a number, code or extension; "What is the warranty on the X200 compressor?" asks for a period.
_CODE_Q = re.compile(r"\b(numbers?|codes?|extensions?|phones?|models?|parts?|ids?|references?|versions?|revisions?|"
                     r"forms?|which)\b", re.I)


# A question asking for a bound ("the maximum number of connections", "how many levels deep … at most", "the largest
# numeral it can convert") is answered by a sentence stating one: "The three terminal connections are always open"
# holds a number and no limit. A superlative asks for a bound only over what can be ("can", "may", "allowed"); over
# what is ("the segment with the highest revenue", "which plan has the lowest deductible") it picks among things, which
# no sentence need call a limit. "At least one paragraph" is a condition, and "a 20 min slot" is minutes. A question
# stating the bound ("allows the maximum of 3 years", "a rated maximum output power of 10 W") asks for something else.
# "What range of values does it accept?" asks for both bounds: "from 0 to 100", "1–99", "between 1 and 99".
_SUPERLATIVE = r"(largest|smallest|highest|lowest|longest|shortest|greatest|biggest)"
_BOUND_Q = re.compile(rf"\b(maximum|minimum|max|limits?)\b(?!(\s+[\w-]+){{0,3}}?\s+(of|is|at|to)\s+[$€£]?\d)|"
                      rf"\b{_SUPERLATIVE}\b[^?,;]*\b(can|could|may|might|allowed|accepts?|supports?|permit(s|ted)?)\b|"
                      r"\bhow (deep|many levels)\b|\b(what|which) range\b|\brange of (values|numbers|sizes|widths)\b|"
                      rf"\bhow (many|much|long|far|big|large|high|old)\b[^?]*\bat (most|least)\b(?!\s+(\d|an?\b|"
                      rf"{measures.CARDINALS}))", re.I)
_BOUND = re.compile(r"\b(max(imum|imal|imally)?|min(imum|imal|imally)?|at (most|least)|up to|limit\w*|exceed\w*|largest|"
                    r"smallest|highest|lowest|longest|shortest|greatest|biggest|upper|lower|cap(ped)?|ceiling|within|range|"
                    r"or (more|less|fewer|higher|lower|later|newer|above|below|greater|smaller)|(more|less|fewer|greater|"
                    r"longer|shorter|higher|lower|larger|smaller|bigger) than|as (many|much|long) as|unlimited|"
                    r"arbitrar(y|ily)|any number|only|must not|cannot|can't|beyond|over|under|no (more|less|fewer)|"
                    r"between)\b|±|\d\s?(-|–|\.\.)\s?[-+−]?\d|\bfrom\s+[-+−]?\d[\d.,]*\s*\w*\s+to\s+[-+−]?\d",
                    re.I)


def asks_bound(question: str) -> bool:
    """Whether a question asks for a limit, a maximum or a minimum rather than any value."""
    return bool(_BOUND_Q.search(question))


@dataclass(frozen=True)
class Asks:
    """What a question asks for, read once per question rather than once per candidate sentence: its kind and measure,
    and what its own words settle for the kind check."""

    text: str
    kind: AnswerKind
    measure: str | None  # money, a span of time, …: the measure the answer must be written in (`measures`)
    words: frozenset[str]  # a name or role the question itself says does not answer "who"
    numbers: frozenset[str]  # nor does a number it says: "401(k)" names the plan asked about, it is no amount
    codes: bool  # it asks for a number, code or part, so a code in capitals and digits answers it
    past: bool  # "When did …", "on what date …": only a date answers it
    count: bool = False  # "How many …": a number or number word answers it, a frequency does not
    measured: bool = False  # a physical measure ("what frequency", "how wide"): digits answer it, number words do not
    product: str | None = None  # whose version is asked for ("which Ghostscript version"): `measures.product`
    bound: bool = False  # a limit, maximum or minimum (`asks_bound`): only a sentence stating one answers it

    @classmethod
    def of(cls, question: str, kind: AnswerKind | None = None, measure: str | None = None) -> Asks:
        return cls(question, kind or kind_of(question), measure, frozenset(words(question.lower())),
                   frozenset(m.group(0).lower() for m in _NUMERAL.finditer(question)), bool(_CODE_Q.search(question)),
                   bool(_DATED.search(question)), bool(_HOW_MANY.search(question)),
                   bool(_MEASURED_Q.search(question)), measures.product(question) if measure == "version" else None,
                   asks_bound(question))


def _without(text: str, numbers: frozenset[str]) -> str:
    """text without the numbers the question itself says."""
    lowered = text.lower()
    if not any(n in lowered for n in numbers):  # most sentences hold none of them: skip the substitution
        return text
    return _NUMERAL.sub(lambda m: " " if m.group(0).lower() in numbers else m.group(0), text)


# A number with a unit symbol set against it, which capitals do not make a code: "5V", "40kHz", "512MB", "10mA". A
# bare letter that is also a code's ("Room 2B", "Form 3A", "1C") counts only with its prefix ("kB", "mA", "µF").
_WITH_UNIT = re.compile(r"\d+(?:\.\d+)?(?:[kKMGTmµunp]?(?:Hz|V|W|Wh|Ah|dB|bit|Ω)|[kKMGTP]i?B|[mµukK]A|[mµunp]F)")


def _amount_like(m: re.Match) -> str:
    """An identifier kept only if it reads as an amount: a number first and no capitals ("10-year", "24h"), or a number
    and its unit's symbol ("5V", "40kHz"); a code ("R-452A") or a name ending in digits ("globs2", "utf8", "ipv6") is
    blanked."""
    token = m.group(0)
    return token if (token.islower() and token[0].isdigit()) or _WITH_UNIT.fullmatch(token) else " "


def has_kind(text: str, asks: Asks) -> bool:
    """Whether text holds the kind of answer asked for, in the measure the question names if it names one, stating a
    bound if one is asked for; for a person, a name or role the question itself names does not count."""
    if asks.measure and not measures.written_in(text, asks.measure):
        return False
    if asks.product and not measures.versioned(text, asks.product):
        return False
    if asks.bound and not _BOUND.search(text):
        return False
    if asks.kind == "number":
        plain = _without(measures.REFERENCE.sub(" ", _STEP.sub(" ", text)), asks.numbers)
        if asks.count:
            plain = _FREQUENCY.sub(" ", plain)
        if asks.measured:
            plain = _CARDINAL.sub(" ", plain)
        if not _NUMBER.search(plain):
            return False
        return asks.codes or bool(_NUMBER.search(IDENTIFIER.sub(_amount_like, plain)))
    if asks.kind == "date":
        return bool(_DATE.search(text)) or (not asks.past and (
            bool(_WHEN_WRITTEN.search(text)) or measures.written_in(text, "span")))
    if asks.kind == "person":
        # "Who is the Data Protection Officer?" is not answered by a passage naming the Data Protection Officer.
        return any(set(words(m.group(0).lower())) - asks.words for pattern in (_PERSON, _ROLE)
                   for m in pattern.finditer(text))
    if asks.kind == "reason":
        return bool(_REASON.search(text))
    if asks.kind == "place":
        return bool(_PLACE.search(text))
    return True
