"""Evidence that retrieved text answers a question: key-term coverage, the expected kind of answer, mismatched years and codes, and the confidence score built from them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import numpy as np

from rag_serving.answer import measures
from rag_serving.answer.parts import REFERRING, missing_for, sides
from rag_serving.answer.sentences import LEADER, split_sentences
from rag_serving.answer.terms import contains_term, normalize, standards, strict_identifier
from rag_serving.answer.text import stem, stems, stop_words, words
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.editions import superseded
from rag_serving.search.hits import Hit
from rag_serving.search.query import Query

AnswerKind = Literal["number", "date", "person", "reason", "place", "any"]

_YEAR = re.compile(r"\b(19|20)\d\d\b")
# Identifiers: part numbers, error codes, memo numbers, model names (letters and digits mixed).
_IDENTIFIER = re.compile(r"\b(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\b")
_NUMBER = re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(thir|four|fif|six|seven|eigh|nine)teen|"
                     r"(twen|thir|for|fif|six|seven|eigh|nine)ty|hundred|thousand|million|half|once|twice|daily|weekly|"
                     r"monthly|annually)\b", re.I)
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday")
# "may" is a month only beside a day or a year: "a team may end" holds no date.
_DATE = re.compile(rf"\b(?!may\b)({_MONTHS})\b|\b\d{{1,2}}(st|nd|rd|th)? may\b|\bmay \d{{1,2}}\b|\bmay (19|20)\d\d\b|"
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
            r"volume|pressure|voltage")
_NUMBER_Q = re.compile(r"\bhow (many|much|long|often|far|old|soon|large|big|heavy|fast)\b"
                       rf"|\b(what|which)(['’]s|\s+(is|are|was|were))?\s+((the|a|an|our|my|your|its|their)\s+)?"
                       rf"([\w()'’-]+\s+){{0,3}}?({QUANTITY})s?\b"
                       r"|\b(money|allowance|stipend|budget)\b", re.I)
# A cross-reference's number points elsewhere and is not an amount: "the rules in section 2.4 continue to apply".
_REFERENCE = re.compile(r"(\b(sections?|chapters?|clauses?|articles?|pages?|pp?\.|appendix|annex|tables?|figures?|fig\.|"
                        r"steps?|paragraphs?|items?)|§)\s*\d+(\.\d+)*[a-z]?\b", re.I)
_DATE_Q = re.compile(r"^\s*when\b|\bwhat (date|day|year|month|time)\b|\bwhich (date|day|year|month)\b|\bdeadline\b", re.I)
# "When did the allowance stop?" asks for a date; "When do I need a doctor's note?" and "When are accounts disabled?" are
# answered by a condition, a span or an event ("for absences of more than five working days", "by the end of their
# last working day") as often as by a date.
_PAST_WHEN = re.compile(r"\bwhen (did|was|were|had)\b", re.I)
_WHEN_WRITTEN = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b(before|after|by the end of|within|during|immediately|as soon as|once|"
                           r"upon|prior to|following|until|every|each time|whenever|if|on your (first|last))\b", re.I)
_REASON_Q = re.compile(r"^\s*why\b|\bwhat (was|is) the reason\b|\bhow come\b", re.I)
_REASON = re.compile(r"\b(because|due to|owing to|so that|in order to|as a result|reason|since|to (avoid|prevent|protect|"
                     r"reduce|allow|ensure|keep|comply))\b", re.I)
# "Which departments …" is answered by naming them, as "who" is: a sentence saying "two departments" names none.
# "Where do I find my asset tag?" is answered by a place ("on the silver sticker on your laptop"), a portal or an address,
# not by "Have your asset tag number ready."
_PLACE_Q = re.compile(r"^\s*where\b|\bwhere (can|do|does|did|should|is|are|will|would|must|may)\b", re.I)
_PLACE = re.compile(r"\b(in|on|at|to|from|under|behind|beside|next to|inside|near|via|through|into|onto|above|below|"
                    r"outside|opposite|around)\b|https?://|\S@\S|\bext(ension|\.)", re.I)
_PERSON_Q = re.compile(r"^\s*who\b|\bwhose\b|\bwhich (person|manager|department|team|division|unit|office|company|"
                       r"companies|organi[sz]ation|supplier|vendor|contractor)s?\b", re.I)
_HOW_ADJECTIVES = frozenset("long far old soon large big heavy fast early late".split())
_HOW_WORKS = re.compile(r"\bhow (does|do|did|will|would|should|can)\b.*\bworks?\W*$", re.I)
# Words that shape a question but are never what it is about.
_QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how does do did is are was were can could should would will shall may "
    "might must please tell explain describe give list say says according document documents doc docs".split()
)
# Requests aimed at the assistant's rules rather than the documents.
INJECTION = re.compile(
    r"\b(ignore|disregard|forget|override)\b[^.?!]{0,40}\b(instructions?|rules|prompt|guidelines)\b|"
    r"\b(system|hidden|secret|initial)\s+(prompt|instructions?)\b|\breveal\b[^.?!]{0,30}\b(prompt|instructions?)\b",
    re.I,
)


@dataclass(frozen=True)
class QuestionProfile:
    text: str
    key_terms: tuple[str, ...]  # stems the answer's passage should contain
    strict_terms: tuple[str, ...]  # years and identifiers: a passage without them is about something else
    kind: AnswerKind
    injection: bool
    referring: bool  # leans on an earlier turn ("does that apply …")
    measure: str | None = None  # what the answer must be written in, if the question names it (`measures.measure`)

    @property
    def vague(self) -> bool:
        return len(self.key_terms) < 2


def proper_names(text: str) -> list[str]:
    """Capitalized words not opening a sentence (a place, product or site such as "South Yard"), possessives
    stripped; months, question words and "I" forms are not names."""
    names = []
    for sentence in re.split(r"(?<=[.?!])\s+", text):
        for token in words(sentence)[1:]:
            token = re.sub(r"['’]s$", "", token)
            if (len(token) > 2 and token[:1].isupper() and token[1:].islower() and token.isalpha()
                    and not re.fullmatch(_MONTHS, token, re.I) and token.lower() not in _QUESTION_WORDS):
                names.append(token)
    return names


def identifiers(text: str) -> list[str]:
    """The codes a normalized text names (part numbers, error codes, forms: letters and digits mixed), as strict
    terms; not years, not amounts."""
    return [ident for m in _IDENTIFIER.finditer(text)
            if not _YEAR.fullmatch(m.group(0)) and (ident := strict_identifier(text, m.start(), m.end()))]


_OPENING = re.compile(r"\s*(when|who|whom|why|where)\b", re.I)
# Read-only: shared by every request thread.
_OPENING_KINDS: Mapping[str, AnswerKind] = MappingProxyType(
    {"when": "date", "who": "person", "whom": "person", "why": "reason", "where": "place"})
# "Is there a cap on sick days?" and "Is it possible to …" point back to nothing: the "there" and "it" stand in for
# what follows.
_EXISTENTIAL = re.compile(r"\b(is|are|was|were|will|would)\s+there\b", re.I)
_EXPLETIVE = re.compile(r"\b(is|was|will|would)\s+it\s+(be\s+)?(possible|ok|okay|allowed|permitted|true|necessary|"
                        r"required|mandatory|normal|acceptable|fine)\b", re.I)


def _dummies(question: str) -> set[str]:
    """The pronouns of a question that refer to nothing earlier."""
    return ({"there"} if _EXISTENTIAL.search(question) else set()) | ({"it"} if _EXPLETIVE.search(question) else set())


def profile(question: str, owner: str = "") -> QuestionProfile:
    """owner: the asking organization's id; its own name is no strict term, as every passage it can read is its own
    ("What prefix do Acme asset tag numbers start with?" is answered by a sheet that never says "Acme")."""
    # "what's" and "Acme's" lose the 's so the stopword and question-word lists see the word itself.
    tokens = [re.sub(r"['’]s$", "", w.lower()) for w in words(question)]
    stop = stop_words()
    # "How does the sabbatical program work?" asks about the program; its "work" shapes the question, as "how" does.
    if _HOW_WORKS.search(question):
        tokens = tokens[:-1] if tokens and tokens[-1] in ("work", "works") else tokens
    # "How long" asks for a span as "how many" asks for a count: "long" shapes the question and, kept, would favour
    # sentences about long-term disability for a question about short-term disability.
    tokens = [t for i, t in enumerate(tokens) if not (i and tokens[i - 1] == "how" and t in _HOW_ADJECTIVES)]
    # A lone letter names nothing by itself: the "k" of "401(k)" would weigh as much as the plan's number.
    content = [t for t in tokens if t not in stop and t not in _QUESTION_WORDS and not (len(t) == 1 and t.isalpha())]
    key = tuple(dict.fromkeys(stem(t) for t in content))
    plain = normalize(question)  # "10‑K" with a non-breaking hyphen is the identifier 10-K
    strict = tuple(dict.fromkeys(
        [m.group(0).lower() for m in _YEAR.finditer(question)] + identifiers(plain) + standards(question)
        + [w.lower() for w in proper_names(question) if w.lower() not in re.split(r"[-_\s]+", owner.lower())]
    ))
    # The word a question opens with says what it asks for before any word inside it does: "When did Acme stop paying
    # the allowance?" asks for a time, though "allowance" names money.
    opening = _OPENING.match(question)
    if opening:
        kind: AnswerKind = _OPENING_KINDS[opening.group(1).lower()]
    elif _NUMBER_Q.search(question):
        kind = "number"
    elif _DATE_Q.search(question):
        kind = "date"
    elif _PERSON_Q.search(question):
        kind = "person"
    elif _REASON_Q.search(question):
        kind = "reason"
    elif _PLACE_Q.search(question):
        kind = "place"
    else:
        kind = "any"
    return QuestionProfile(question, key, strict, kind, bool(INJECTION.search(question)),
                           bool(set(tokens[:4]) & REFERRING - _dummies(question)) and len(key) <= 3,
                           measures.measure(question))


# Dot leaders as printed, or as ingest writes them (sentences.LEADER) before a page number.
_LEADERS = re.compile(rf"(\.\s*){{4,}}|{re.escape(LEADER)}\s*[0-9ivxlc]+\b", re.I)
_HEADING = re.compile(r"^\d+(\.\d+)*\s+\S")


def answer_like(sentence: str) -> bool:
    """Whether a sentence could answer anything: not a contents line with dot leaders, not a bare numbered heading,
    not a Markdown heading, not a question (an FAQ's "What are your standard payment terms?" asks, it does not
    answer)."""
    if _LEADERS.search(sentence) or sentence.lstrip().startswith("#") or sentence.rstrip().endswith("?"):
        return False
    n = len(words(sentence))
    if n < 3:
        return False
    return not (_HEADING.match(sentence) and n <= 8 and not sentence.rstrip().endswith((".", "?", "!")))


def _new_to(asked: str, match: str) -> bool:
    """Whether a match says something the question did not: "Who is the Data Protection Officer?" is not answered
    by a passage naming the Data Protection Officer, only by one naming who that is."""
    return bool(set(words(match.lower())) - set(words(asked.lower())))


_NUMERAL = re.compile(r"\b\w*\d\w*\b")


def _own_numbers(text: str, asked: str) -> str:
    """text without the numbers the question itself says: "401(k)" names the plan asked about ("What is the maximum
    company match on the 401(k)?"), it is no amount."""
    said = {m.group(0).lower() for m in _NUMERAL.finditer(asked)}
    return _NUMERAL.sub(lambda m: " " if m.group(0).lower() in said else m.group(0), text) if said else text


_HOW_MANY = re.compile(r"\bhow many\s+(.*)", re.I)


def counted(asked: str) -> frozenset[str]:
    """The stems of what a "how many" question counts: "weeks" in "How many weeks of parental leave …", "trailer" and
    "posit" in "how many trailer positions does North Yard have"; empty for any other question."""
    m = _HOW_MANY.search(asked)
    if not m:
        return frozenset()
    stop, nouns = stop_words(), []
    for w in words(m.group(1).lower()):
        if w in stop or w in _QUESTION_WORDS:
            break
        nouns.append(stem(w))
    return frozenset(nouns[:3])


def _counts(text: str, nouns: frozenset[str]) -> bool:
    """Whether a number in text counts one of nouns: the noun within four words of it ("620 marked trailer positions",
    "Spaces: 280"). "Within their first two weeks" does not count forklifts."""
    tokens = words(text.lower())
    return any(_NUMBER.fullmatch(t) or t[:1].isdigit() for t in tokens) and any(
        (t[:1].isdigit() or _NUMBER.fullmatch(t)) and nouns & {stem(u) for u in tokens[max(0, i - 4): i + 5]}
        for i, t in enumerate(tokens))


def has_kind(text: str, kind: AnswerKind, asked: str = "", wanted: str | None = None) -> bool:
    """Whether text holds the kind of answer asked for, in the measure the question names if it names one (`wanted`,
    the profile's: money, a span of time, an email address); for a person, a name or role the question itself names
    does not count."""
    if wanted and not measures.written_in(text, wanted):
        return False
    if kind == "number":
        plain = _own_numbers(_REFERENCE.sub(" ", text), asked)
        nouns = counted(asked)
        return _counts(plain, nouns) if nouns else bool(_NUMBER.search(plain))
    if kind == "date":
        return bool(_DATE.search(text)) or (not _PAST_WHEN.search(asked) and (
            bool(_WHEN_WRITTEN.search(text)) or measures.written_in(text, "span")))
    if kind == "person":
        return any(_new_to(asked, m.group(0)) for pattern in (_PERSON, _ROLE) for m in pattern.finditer(text))
    if kind == "reason":
        return bool(_REASON.search(text))
    if kind == "place":
        return bool(_PLACE.search(text))
    return True


def coverage(question: QuestionProfile, found: set[str]) -> float:
    """Share of the question's key terms present; years and identifiers weigh double."""
    if not question.key_terms:
        return 0.0
    # Key terms are stems and strict terms are words: "officer" weighs double as its stem "offic".
    strict = {stem(t) for t in question.strict_terms} | set(question.strict_terms)
    weights = {t: (2.0 if t in strict else 1.0) for t in question.key_terms}
    return sum(w for t, w in weights.items() if t in found) / sum(weights.values())


def semantic(cosine: float) -> float:
    """Cosine of MiniLM question and sentence vectors mapped to [0, 1]: unrelated text sits near 0.15, a paraphrase of the answer near 0.6."""
    return float(np.clip((cosine - 0.15) / 0.5, 0.0, 1.0))


@dataclass
class Candidate:
    hit: Hit
    rank: int  # 1-based rank of the hit
    paragraph: int
    index: int  # sentence position within the hit
    text: str
    cosine: float = 0.0
    coverage: float = 0.0
    kind_ok: bool = True
    score: float = 0.0


@dataclass
class PassageEvidence:
    hit: Hit
    rank: int
    coverage: float
    kind_ok: bool
    missing_strict: tuple[str, ...]
    best_cosine: float
    score: float


@dataclass
class Evidence:
    question: QuestionProfile
    passages: list[PassageEvidence] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    union_coverage: float = 0.0  # the question's key terms found in any of the passages
    asked: str | None = None  # the user's own question, when the searched text also holds earlier turns

    @property
    def best(self) -> PassageEvidence | None:
        return max(self.passages, key=lambda p: (p.score, -p.rank), default=None)

    @property
    def confidence(self) -> float:
        """Evidence score in [0, 1] of the best passage (see `assess`)."""
        best = self.best
        return round(best.score, 4) if best else 0.0

    def features(self) -> dict:
        best = self.best
        return {
            "confidence": self.confidence,
            "coverage": round(best.coverage, 3) if best else 0.0,
            "kind": self.question.kind,
            "kind_present": best.kind_ok if best else False,
            "missing_terms": list(best.missing_strict) if best else [],
            "best_cosine": round(best.best_cosine, 3) if best else 0.0,
            "passage_rank": best.rank if best else None,
            "passages_over_half": sum(p.score >= 0.5 for p in self.passages),
        }


SUPERSEDED_FACTOR = 0.8


def quotable(body: str) -> list[tuple[int, int, str]]:
    """(sentence index, paragraph index, sentence) of the sentences a passage could be quoted by: instructions inside
    documents are data, and headings or contents lines answer nothing. Ingest stores these sentences' vectors."""
    return [(index, para, text) for index, (para, text) in enumerate(split_sentences(body))
            if not INJECTION.search(text) and answer_like(text)]


def lead_ins(body: str) -> dict[int, str]:
    """Sentence index (as in `quotable`) → the sentence before it in the same paragraph."""
    split = split_sentences(body)
    return {i: split[i - 1][1] for i in range(1, len(split)) if split[i - 1][0] == split[i][0]}


def assess(query: Query, hits: Sequence[Hit], vectors: SentenceVectors, *, passages: int = 5,
           owner: str = "") -> Evidence:
    """Score each of the top passages: mismatch × kind × (½ coverage + ½ semantic).

    coverage: share of the question's key terms in the passage (with its title and heading);
    semantic: the best question–sentence cosine in the passage, mapped by `semantic`;
    kind: 1 when the passage holds the kind of answer asked for (a number for "how many", a date for "when"), else 0.5;
    mismatch: 0 when a year or identifier the question names is missing from the passage, its title and its file name
    (for a comparison of years, one of the years compared is enough);
    an edition replaced by a later one with the same title scores ×0.8 unless the question names its year;
    owner: the asking organization (`profile`).
    """
    q = profile(query.text, owner)
    compared = sides(query.text, [h.title for h in hits])
    evidence = Evidence(q)
    top = list(hits[:passages])
    old = superseded(top, q.strict_terms)
    candidates: list[Candidate] = []
    for rank, hit in enumerate(top, start=1):
        candidates.extend(Candidate(hit, rank, para, index, text) for index, para, text in quotable(hit.body))
    if candidates:
        for c, cos in zip(candidates, vectors([c.text for c in candidates]) @ query.vector):
            c.cosine = float(cos)
    seen: set[str] = set()  # stems of every passage's text, for the union coverage
    for rank, hit in enumerate(top, start=1):
        context = f"{hit.title} {hit.heading_path or ''} {hit.source_path} {hit.body}"
        text_stems = stems(f"{hit.title} {hit.heading_path or ''} {hit.body}")
        seen |= text_stems
        found = text_stems | stems(hit.source_path)  # the stems of context: words never span the spaces joining it
        lowered = context.lower()
        missing = missing_for([t for t in q.strict_terms if not contains_term(lowered, t)], compared)
        mine = [c for c in candidates if c.rank == rank]
        for c in mine:
            c.kind_ok = has_kind(c.text, q.kind, q.text, q.measure)
        kind_ok = any(c.kind_ok for c in mine)
        best_cos = max((c.cosine for c in mine), default=0.0)
        cov = coverage(q, found)
        age = SUPERSEDED_FACTOR if hit.document_id in old else 1.0
        score = age * (0.0 if missing else 1.0) * (1.0 if kind_ok else 0.5) * (0.5 * cov + 0.5 * semantic(best_cos))
        evidence.passages.append(PassageEvidence(hit, rank, cov, kind_ok, missing, best_cos, score))
        before = lead_ins(hit.body)
        titled = stems(hit.title)
        for c in mine:
            # A sentence is read with the one before it in its paragraph, which often names what it is about:
            # "Core time runs from 10:00 to 15:00" after "Office-based teams at HQ operate flexible hours around core
            # time", a table's "Response 15 minutes, target resolution 4 hours" after "P1 - Critical: …".
            c.coverage = coverage(q, stems(c.text) | stems(before.get(c.index, "")) | titled)
            c.score = age * (0.5 * c.coverage + 0.5 * semantic(c.cosine)) * (1.0 if c.kind_ok else 0.5)
    evidence.candidates = candidates
    evidence.union_coverage = coverage(q, seen)
    return evidence
