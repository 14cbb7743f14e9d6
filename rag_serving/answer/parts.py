"""What a question asks for in pieces: the parts of a two-part question, and the two sides of a comparison."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag_serving.answer.kinds import SCENE_OPENING
from rag_serving.answer.sentences import YEAR
from rag_serving.search.editions import title_key

# A new clause opening with a question word after a comma, "and", "?" or ";": "When does it end, and who runs it?"
_ASKING = r"(?:what|which|who|whom|whose|when|where|why|how|is|are|am|does|do|did|can|could|should)\b"
_SPLIT = re.compile(rf"(?:\s*[,;?]\s*(?:and\s+|also\s+)?|\s+and\s+|\s+also\s+)(?={_ASKING})", re.I)
_ASKS = re.compile(rf"\b{_ASKING}", re.I)
_SCENE_OPENING = re.compile(SCENE_OPENING, re.I)
# Documents are compared only when the question says so: "do the handbook and the helpdesk sheet agree …?"
_COMPARING = re.compile(r"\b(?:agree|agrees|disagree|compare[ds]?|comparison|differ|differs|difference|different|"
                        r"versus|vs|between|consistent|inconsistent|contradicts?|same)\b", re.I)
# How a question asks about a difference; not what either side's quote is about.
_CHANGE = re.compile(r"\b(?:change[ds]?|changing|go(?:ne)? (?:up|down)|went (?:up|down)|increase[ds]?|decrease[ds]?|"
                     r"rise|rose|risen|fall|fell|fallen|up|down|more|less|fewer|than|from|to)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
_GENERIC = frozenset("the a an of and or for to in on at by with".split())
_KINDS = frozenset("handbook manual policy guide memo faq sheet reference report contract agreement plan procedure "
                   "schedule standard specification brochure newsletter minutes notice letter form".split())
_NAMING = _KINDS | {"edition", "version", "revision", "issue", "document"}
_CONTENT = re.compile(r"[A-Za-z0-9]{3,}")
# Words pointing back at something named earlier: in the conversation, or in an earlier part of the question.
REFERRING = frozenset("it that this they those these them he she its their there".split())


# "What is the difference between a tint and a shade of a color?" asks what each is: two parts, one per term, each
# with the rest of the question ("… what is a tint of a color?"). "Is there a difference between …" asks whether there
# is one, which one quote can answer.
_DIFFERENCE = re.compile(r"\b(?P<ask>what(?:['’]?s|\s+(?:is|are|was|were))?|explain|describe)\s+(?:the\s+)?"
                         r"(?:difference|distinction)s?\s+between\s+(?P<a>[^?,;]+?)\s+and\s+(?P<b>[^?,;]+?)"
                         r"(?=\s+(?:in|of|on|for|when|under|within)\b|\s*[.?,;]|\s*$)", re.I)


def parts(question: str) -> list[str]:
    """The question's parts, each asking something with at least two words of its own ("In the 2024 handbook, how
    long…" is one part); a question that does not split is one part. A difference between two terms asks about each."""
    if (diff := _DIFFERENCE.search(question)) and not YEAR.search(diff.group(0)):
        pieces = [f"{question[:diff.start()]}{diff['ask']} {diff[term]}{question[diff.end():]}" for term in "ab"]
        return [f"{p.rstrip(' .?')}?" for p in pieces]
    pieces = [p.strip(" ,;") for p in _SPLIT.split(question) if p and p.strip(" ,;?")]
    # A clause that asks nothing ("If I'm out on parental leave, does …", "When wrapping splits a line, how …") sets
    # the scene for the part after it.
    while len(pieces) > 1 and (not _ASKS.search(p := pieces[0]) or (_SCENE_OPENING.match(p) and "," not in p)):
        pieces[:2] = [f"{pieces[0]}, {pieces[1]}"]
    if len(pieces) < 2 or any(len(_CONTENT.findall(p)) < 2 or not _ASKS.search(p) for p in pieces):
        return [question]
    return [p if p.endswith("?") else f"{p}?" for p in pieces]


# "Is there a cap on sick days?" and "Is it possible to …" point back to nothing: the "there" and "it" stand in for what
# follows.
_EXISTENTIAL = re.compile(r"\b(is|are|was|were|will|would)\s+there\b", re.I)
_EXPLETIVE = re.compile(r"\b(is|was|will|would)\s+it\s+(be\s+)?(possible|ok|okay|allowed|permitted|true|necessary|"
                        r"required|mandatory|normal|acceptable|fine)\b", re.I)


def pointers(text: str) -> frozenset[str]:
    """The words of text that point back at something named earlier ("does that apply …", "how long does it last?"),
    less an existential "there" or an "it" standing in for what follows."""
    dummies = ({"there"} if _EXISTENTIAL.search(text) else set()) | ({"it"} if _EXPLETIVE.search(text) else set())
    return frozenset(set(re.findall(r"[a-z]+", text.lower())) & REFERRING - dummies)


def refers(piece: str) -> bool:
    """Whether a part leans on what came before it ("how long does it last?", "how often is that part replaced?")."""
    return bool(pointers(piece))


def standalone(pieces: Sequence[str]) -> list[str]:
    """Each part as a question of its own: a part referring back ("how long does it last?") carries the parts
    before it, which say what "it" is."""
    return [" ".join(pieces[: i + 1]) if i and refers(piece) else piece for i, piece in enumerate(pieces)]


def sides(question: str, titles: Iterable[str] = ()) -> tuple[str, ...]:
    """What a question compares: two or more distinct years, in the order named ("the 2025 edition … compared with
    the 2024 edition"); else, when it asks whether documents agree or differ, two or more of the titles given (the
    retrieved documents') that it names (`named`). None for anything else."""
    years = tuple(dict.fromkeys(YEAR.findall(question)))
    if len(years) >= 2:
        return years
    documents = named(question, titles) if compares(question) else ()
    return documents if len(documents) >= 2 else ()


def topic(question: str, compared: Sequence[str]) -> str:
    """What a comparison is about, the same for every side: the question without the sides it names and without
    its comparing words and the kind of document compared ("Did the remote work limit change between the 2024 and
    2025 handbooks?" → "Did the remote work limit the and"), so each side is searched and quoted for the topic,
    not for naming its year, its kind of document or the word "change"."""
    for side in compared:
        question = re.sub(rf"\b{re.escape(side)}\b", " ", question, flags=re.I)
    question = _CHANGE.sub(" ", _COMPARING.sub(" ", question))
    # "the 2024 and 2025 handbooks", "editions": the documents compared, which contents pages name on every line.
    return " ".join(w for w in question.split() if w.lower().strip("?,.;:'").removesuffix("s") not in _NAMING)


def naming(question: str, side: str) -> list[str]:
    """The question's words that name a document side (a title without edition marks, as `named` found it): "IT",
    "helpdesk" of "the IT helpdesk sheet" for "it helpdesk quick reference"."""
    words = set(_WORD.findall(side)) - _GENERIC
    return [w for w in re.findall(r"[\w'’-]+", question) if w.lower() in words]


def compares(question: str) -> bool:
    """Whether a question asks to compare: two years, or words such as "agree", "differ", "versus"."""
    return len(set(YEAR.findall(question))) >= 2 or bool(_COMPARING.search(question))


def named(question: str, titles: Iterable[str]) -> tuple[str, ...]:
    """The documents a question names, by title without edition marks (editions are one document): two words of
    the title ("the IT helpdesk sheet"), or the one word saying what kind of document it is, when no other title
    has it ("the handbook"; "security incident" does not name the Information Security Policy)."""
    asked = set(_WORD.findall(question.lower()))
    keys = {key: set(_WORD.findall(key)) - _GENERIC for key in dict.fromkeys(map(title_key, titles))}
    out = []
    for key, words in keys.items():
        others = set().union(*(w for k, w in keys.items() if k != key))
        found = words & asked
        if len(found) >= 2 or (found - others) & _KINDS:
            out.append(key)
    return tuple(out)


def missing_for(missing: Sequence[str], either: Sequence[str]) -> tuple[str, ...]:
    """The strict terms a passage really lacks. either: terms of which one is enough, as a comparison's passage holds
    one side (the other sides' years count as missing only when every side is) or a passage names one of several paths
    a question sets side by side."""
    if either and not set(either) <= set(missing):
        return tuple(t for t in missing if t not in either)
    return tuple(missing)
