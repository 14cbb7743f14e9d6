"""What a question asks for in pieces: the parts of a two-part question, and the two sides of a comparison."""

from __future__ import annotations

import re
from collections.abc import Sequence

# A new clause opening with a question word after a comma, "and", "?" or ";": "When does it end, and who runs it?"
_ASKING = r"(?:what|which|who|whom|whose|when|where|why|how|is|are|does|do|did|can|could|should)\b"
_SPLIT = re.compile(rf"(?:\s*[,;?]\s*(?:and\s+|also\s+)?|\s+and\s+|\s+also\s+)(?={_ASKING})", re.I)
_ASKS = re.compile(rf"\b{_ASKING}", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_CONTENT = re.compile(r"[A-Za-z0-9]{3,}")
# Words pointing back at something named earlier: in the conversation, or in an earlier part of the question.
REFERRING = frozenset("it that this they those these them he she its their there".split())


def parts(question: str) -> list[str]:
    """The question's parts, each asking something with at least two words of its own ("In the 2024 handbook, how
    long…" is one part); a question that does not split is one part."""
    pieces = [p.strip(" ,;") for p in _SPLIT.split(question) if p and p.strip(" ,;?")]
    if len(pieces) < 2 or any(len(_CONTENT.findall(p)) < 2 or not _ASKS.search(p) for p in pieces):
        return [question]
    return [p if p.endswith("?") else f"{p}?" for p in pieces]


def standalone(pieces: Sequence[str]) -> list[str]:
    """Each part as a question of its own: a part referring back ("how long does it last?") carries the parts
    before it, which say what "it" is."""
    out = []
    for i, piece in enumerate(pieces):
        refers = bool(set(re.findall(r"[a-z]+", piece.lower())) & REFERRING)
        out.append(" ".join(pieces[: i + 1]) if refers and i else piece)
    return out


def sides(question: str) -> tuple[str, ...]:
    """The years a question compares ("the 2025 edition … compared with the 2024 edition"): two or more distinct
    years, in the order named; none for a question naming one year or none."""
    years = tuple(dict.fromkeys(_YEAR.findall(question)))
    return years if len(years) >= 2 else ()


def missing_for(missing: Sequence[str], compared: Sequence[str]) -> tuple[str, ...]:
    """The strict terms a passage really lacks: a comparison's passage holds one side, so the other sides' years
    count as missing only when every side is."""
    if compared and not set(compared) <= set(missing):
        return tuple(t for t in missing if t not in compared)
    return tuple(missing)
