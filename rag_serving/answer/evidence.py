"""Evidence that retrieved text answers a question: key-term coverage, the expected kind of answer, mismatched years and codes, and the confidence score built from them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from rag_serving.answer import measures
from rag_serving.answer.kinds import HOW_MEASURES, MONTHS, QUESTION_WORDS, AnswerKind, Asks, has_kind, kind_of
from rag_serving.answer.parts import missing_for, pointers, sides
from rag_serving.answer.sentences import (LEADER, ROW_SEPARATOR, YEAR, introduced, is_row, list_entry,
                                          numbered_heading, opens_list, periods_line, signatures,
                                          split_sentences)
from rag_serving.answer.terms import (IDENTIFIER, code_names, contains_term, either_paths, normalize, paths,
                                     setting_names, standards, strict_identifier, versions)
from rag_serving.answer.text import lexemes, stem, stems, stop_words, words
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.editions import superseded
from rag_serving.search.hits import Hit
from rag_serving.search.query import Query

_HOW_WORKS = re.compile(r"\bhow (does|do|did|will|would|should|can)\b.*\bworks?\W*$", re.I)
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
    either: tuple[str, ...] = ()  # strict terms of which a passage naming one is enough: paths, releases compared
    paths: tuple[str, ...] = ()  # the file paths among the strict terms
    code: tuple[str, ...] = ()  # the names written as code or called a setting, and the release numbers, among them

    @property
    def vague(self) -> bool:
        return len(self.key_terms) < 2

    @cached_property
    def asks(self) -> Asks:
        """What the kind check reads, once per question: every candidate sentence is checked against it."""
        return Asks.of(self.text, self.kind, self.measure)


_OPTION = re.compile(r"(?<![\w-])--?([A-Za-z][\w-]*)")
# A capital inside a word marks a product's own spelling ("macOS", "WordPress", "OpenCV"), even opening a sentence; a
# unit's ("kB", "MiB", "kHz", "mAh") is three letters at most.
_CAMEL = re.compile(r"(?=[A-Za-z]{4})[A-Za-z]*[a-z][A-Z][A-Za-z]*")


def proper_names(text: str) -> list[str]:
    """Capitalized words not opening a sentence (a place, product or site such as "South Yard") and words with a capital
    inside, possessives stripped; months, question words, "I" forms and command-line options ("-Wall") are not names."""
    names = []
    for sentence in re.split(r"(?<=[.?!])\s+", text):
        options = {m.group(1) for m in _OPTION.finditer(sentence)}
        for i, token in enumerate(words(sentence)):
            token = re.sub(r"['’]s$", "", token)
            if token in options:
                continue
            if _CAMEL.fullmatch(token) or (i and len(token) > 2 and token[:1].isupper() and token[1:].islower()
                                           and token.isalpha() and not re.fullmatch(MONTHS, token, re.I)
                                           and token.lower() not in QUESTION_WORDS):
                names.append(token)
    return names


def identifiers(text: str) -> list[str]:
    """The codes a normalized text names (part numbers, error codes, forms: letters and digits mixed), as strict
    terms; not years, not amounts."""
    return [ident for m in IDENTIFIER.finditer(text)
            if not YEAR.fullmatch(m.group(0)) and (ident := strict_identifier(text, m.start(), m.end()))]


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
    tokens = [t for i, t in enumerate(tokens) if not (i and tokens[i - 1] == "how" and t in HOW_MEASURES)]
    # A lone letter names nothing by itself: the "k" of "401(k)" would weigh as much as the plan's number.
    content = [t for t in tokens if t not in stop and t not in QUESTION_WORDS and not (len(t) == 1 and t.isalpha())]
    key = tuple(dict.fromkeys(stem(t) for t in content))
    plain = normalize(question)  # "10‑K" with a non-breaking hyphen is the identifier 10-K
    released = versions(question)
    named_paths, code = paths(plain), list(dict.fromkeys(code_names(question) + setting_names(question) + released))
    strict = tuple(dict.fromkeys(
        [m.group(0).lower() for m in YEAR.finditer(question)] + identifiers(plain) + standards(question)
        + named_paths + code
        + [w.lower() for w in proper_names(question) if w.lower() not in re.split(r"[-_\s]+", owner.lower())]
    ))
    kind = kind_of(question)
    # "Why does copying an array cost the same however big it is?" asks for a reason, in no measure.
    measure = measures.measure(question) if kind != "reason" else None
    return QuestionProfile(question, key, strict, kind, bool(INJECTION.search(question)),
                           bool(set(tokens[:4]) & pointers(question)) and len(key) <= 3,
                           measure, either_paths(question) + (tuple(released) if len(released) > 1 else ()),
                           tuple(named_paths), tuple(code))


# Dot leaders as printed, or as ingest writes them (sentences.LEADER) before a page number.
# A contents line may end at its leader, its page number cut off into the next sentence ("5.20.3 Port Forwarding ...").
_LEADERS = re.compile(rf"(\.\s*){{4,}}|{re.escape(LEADER)}\s*[0-9ivxlc]+\b|{re.escape(LEADER.rstrip())}$", re.I)
# "5.3.2Configuring Matrix Synapse": a PDF setting the number apart by position reads with none.
_HEADING = re.compile(r"^\d+(\.\d+)*(\s+\S|\.?[A-Z])")
# A heading set in capitals, unnumbered: "FISCAL 2021 NIKE BRAND REVENUE HIGHLIGHTS" names a topic and states nothing.
# A figure other than a year is something stated ("CALL 555-0100 FOR HELP").
CAPS_HEADING_WORDS = 12
# A release's number is no section's: "Version 2.3 Released March 2019" may answer when 2.3 came out.
_NUMBERED_WITHIN = re.compile(r"(?<![Vv]ersion )(?<![Rr]elease )(?<![Rr]evision )(?<![Ee]dition )\b\d+(\.\d+)+\s+[A-Z]")
HEADING_RUN_WORDS = 10
_CAPS_HEADING = re.compile(r"[^a-z\d.?!:;]*[A-Z][^a-z\d.?!:;]*")


def answer_like(sentence: str) -> bool:
    """Whether a sentence could answer anything: not a contents line with dot leaders, not a bare numbered heading or
    one in capitals, not a line of periods heading a table, not a Markdown heading, not a question (an FAQ's "What are
    your standard payment terms?" asks, it does not answer)."""
    if _LEADERS.search(sentence) or sentence.lstrip().startswith("#") or sentence.rstrip().endswith("?"):
        return False
    n = len(words(sentence))
    if n < 3:
        return False
    if _CAPS_HEADING.fullmatch(YEAR.sub("", sentence).strip()) and n <= CAPS_HEADING_WORDS and not is_row(sentence):
        return False
    if periods_line(sentence):
        return False
    # Two headings run together, a subsection's number between them ("I2C Modules 8.3 MPU6050"): no word in lower case,
    # so nothing is said.
    if (n <= HEADING_RUN_WORDS and _NUMBERED_WITHIN.search(sentence) and not is_row(sentence)
            and not any(w[:1].islower() for w in words(sentence))):
        return False
    # "2.10. Storing the MIME type …" is a subsection's title too (`numbered_heading`); "1. Remove the cover" a step.
    return not (_HEADING.match(sentence) and n <= 8 and not sentence.rstrip().endswith((".", "?", "!"))
                or numbered_heading(sentence))


def coverage(question: QuestionProfile, found: set[str]) -> float:
    """Share of the question's key terms present; years and identifiers weigh double."""
    if not question.key_terms:
        return 0.0
    # Key terms are stems and strict terms are words: "officer" weighs double as its stem "offic".
    strict = {stem(t) for t in question.strict_terms} | set(question.strict_terms)
    weights = {t: (2.0 if t in strict else 1.0) for t in question.key_terms}
    return sum(w for t, w in weights.items() if t in found) / sum(weights.values())


def looked_up(row: str, question: QuestionProfile) -> bool:
    """Whether the question names a table row's label and one of its columns, as a look-up in the table would: "How
    much net income did Nike report for fiscal 2021?" names "Net income | 2021: $5,727 | 2020: $2,539". A row is mostly
    figures, so its meaning sits far from the question's even when it is the answer."""
    if not is_row(row):
        return False
    label, *cells = row.split(ROW_SEPARATOR)
    asked = set(question.key_terms)
    named = stems(label)
    if not named or not named <= asked:
        return False
    headers = [cell.split(": ", 1)[0].lower() for cell in cells if ": " in cell]
    return any(contains_term(h, t) for h in headers for t in question.strict_terms) or any(
        (own := stems(h)) and own <= asked for h in headers)


# "Is X allowed?" is answered by "X is allowed.", which says nothing the question does not; any other question is not.
_CLOSED = re.compile(r"^\W*(is|are|was|were|am|does|do|did|can|could|should|would|will|may|must|has|have|had)\b", re.I)


def restates(sentence: str, asked: set[str]) -> bool:
    """Whether a sentence says nothing but words of the question (its lexemes `asked`): "Rerun to get captions
    right." for "what do i do about the warning "… Rerun to get captions right."?"."""
    return not (lexemes(sentence) - asked)


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
    listed: str = ""  # the sentence with the list items or rows it introduces (`with_entries`), as it is quoted


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
    documents are data, and headings or contents lines answer nothing, nor does a sentence introducing a list whose
    entries are not in the passage. Ingest stores these sentences' vectors."""
    split = split_sentences(body)
    return [(index, para, text) for index, (para, text) in enumerate(split)
            if not INJECTION.search(text) and answer_like(text)
            and not (opens_list(text) and not (index + 1 < len(split) and list_entry(split[index + 1][1])))]


def lead_ins(body: str) -> dict[int, str]:
    """Sentence index (as in `quotable`) → the sentence before it in the same paragraph."""
    split = split_sentences(body)
    return {i: split[i - 1][1] for i in range(1, len(split)) if split[i - 1][0] == split[i][0]}


def with_entries(c: Candidate, split: Sequence[tuple[int, str]]) -> str:
    """A sentence with what it introduces, as it is quoted (`sentences.introduced`): "You should forward the following
    ports for Matrix:" holds the port its item names. split: its passage's `split_sentences`."""
    return " ".join([c.text, *(split[i][1] for i in introduced(split, c.index))])


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
    either = sides(query.text, [h.title for h in hits]) + q.either
    evidence = Evidence(q)
    top = list(hits[:passages])
    old = superseded(top, q.strict_terms)
    candidates: list[Candidate] = []
    for rank, hit in enumerate(top, start=1):
        candidates.extend(Candidate(hit, rank, para, index, text) for index, para, text in quotable(hit.body))
    if candidates:
        for c, cos in zip(candidates, vectors([c.text for c in candidates]) @ query.vector):
            c.cosine = float(cos)
    asked, open_question = lexemes(query.text), not _CLOSED.match(query.text)
    seen: set[str] = set()  # stems of every passage's text, for the union coverage
    for rank, hit in enumerate(top, start=1):
        context = f"{hit.title} {hit.heading_path or ''} {hit.source_path} {hit.body}"
        text_stems = lexemes(f"{hit.title} {hit.heading_path or ''} {hit.body}")
        seen |= text_stems
        found = text_stems | lexemes(hit.source_path)  # the stems of context: words never span the spaces joining it
        lowered = context.lower()
        missing = missing_for([t for t in q.strict_terms if not contains_term(lowered, t)], either)
        mine = [c for c in candidates if c.rank == rank]
        split = split_sentences(hit.body)
        for c in mine:
            c.listed = with_entries(c, split)
            c.kind_ok = has_kind(c.listed, q.asks)
        kind_ok = any(c.kind_ok for c in mine)
        best_cos = max((c.cosine for c in mine), default=0.0)
        cov = coverage(q, found)
        age = SUPERSEDED_FACTOR if hit.document_id in old else 1.0
        score = age * (0.0 if missing else 1.0) * (1.0 if kind_ok else 0.5) * (0.5 * cov + 0.5 * semantic(best_cos))
        evidence.passages.append(PassageEvidence(hit, rank, cov, kind_ok, missing, best_cos, score))
        before = lead_ins(hit.body)
        heads = signatures(split)
        titled = lexemes(hit.title)
        for c in mine:
            # A sentence is read with the one before it in its paragraph, which often names what it is about:
            # "Core time runs from 10:00 to 15:00" after "Office-based teams at HQ operate flexible hours around core
            # time", a table's "Response 15 minutes, target resolution 4 hours" after "P1 - Critical: …"; and with the
            # name of the manual's entry it describes ("\\gappto⟨hook⟩{⟨code⟩}" over "Similar to \\appto except …").
            head = split[heads[c.index]][1] if c.index in heads else ""
            c.coverage = coverage(q, lexemes(c.text) | lexemes(before.get(c.index, "")) | lexemes(head) | titled)
            meaning = 1.0 if looked_up(c.text, q) else semantic(c.cosine)
            # A sentence repeating the question tells the asker nothing, whatever it scores for meaning and words.
            echo = 0.5 if open_question and restates(c.listed or c.text, asked) else 1.0
            c.score = age * (0.5 * c.coverage + 0.5 * meaning) * (1.0 if c.kind_ok else 0.5) * echo
    evidence.candidates = candidates
    evidence.union_coverage = coverage(q, seen)
    return evidence
