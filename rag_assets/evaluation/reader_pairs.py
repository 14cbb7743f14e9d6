"""Training pairs for the answer reader: (question, sentence, does the sentence answer it), from SQuAD 2.0 train and
the golden dev split through the shipped pipeline (never SQuAD dev, MMLongBench or golden held-out)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rag_assets.evaluation.golden import GoldenCase
from rag_serving.answer.evidence import assess
from rag_serving.answer.sentences import split_sentences, squish
from rag_serving.search.hits import Filters
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Pipeline

SEED = 20261203
SQUAD_NEGATIVES = 3  # other sentences of the answering paragraph: the hard negatives a reader must tell apart
OTHER_PARAGRAPH = 1  # a sentence of another paragraph of the same article: on topic, not the answer


@dataclass(frozen=True)
class Pair:
    source: str  # squad2-train, golden-dev
    group: str  # a SQuAD article or a golden case: held out whole
    question: str
    sentence: str
    label: int  # 1: the sentence holds the answer
    formula: float = 0.0  # the hand-set sentence score, where the pipeline computed one (golden cases)


def _spans(context: str) -> list[tuple[int, int, str]]:
    """Each sentence of a paragraph with its character span in the paragraph (-1 when the split changed it)."""
    out, at = [], 0
    for _, sentence in split_sentences(context):
        start = context.find(sentence, at)
        if start < 0:
            out.append((-1, -1, sentence))
            continue
        out.append((start, start + len(sentence), sentence))
        at = start + len(sentence)
    return out


def _holds(span: tuple[int, int, str], answer: dict) -> bool:
    start, end, sentence = span
    if start >= 0:
        return start <= answer["answer_start"] < end
    return squish(answer["text"]).lower() in sentence.lower()


def squad_pairs(path: Path, *, seed: int = SEED) -> list[Pair]:
    """Per answerable question: the sentence holding the answer, up to SQUAD_NEGATIVES other sentences of its
    paragraph and OTHER_PARAGRAPH from elsewhere in its article. Per impossible question (written to look answerable
    by its paragraph): every sentence of the paragraph, each a negative."""
    rng = random.Random(seed)
    out: list[Pair] = []
    for article in json.loads(Path(path).read_text(encoding="utf-8"))["data"]:
        title = article["title"]
        spans = [_spans(p["context"]) for p in article["paragraphs"]]
        for own, paragraph in enumerate(article["paragraphs"]):
            others = [s for i, ss in enumerate(spans) if i != own for s in ss]
            for qa in paragraph["qas"]:
                question = qa["question"].strip()
                if qa.get("is_impossible"):
                    out.extend(Pair("squad2-train", title, question, s[2], 0) for s in spans[own])
                    continue
                answers = qa["answers"]
                holding = [s for s in spans[own] if any(_holds(s, a) for a in answers)]
                if not holding:
                    continue
                rest = [s for s in spans[own] if s not in holding]
                out.extend(Pair("squad2-train", title, question, s[2], 1) for s in holding[:1])
                out.extend(Pair("squad2-train", title, question, s[2], 0)
                           for s in rng.sample(rest, min(SQUAD_NEGATIVES, len(rest))))
                out.extend(Pair("squad2-train", title, question, s[2], 0)
                           for s in rng.sample(others, min(OTHER_PARAGRAPH, len(others))))
    return out


def golden_pairs(pipeline: Pipeline, cases: Sequence[GoldenCase], source: str = "golden-dev") -> list[Pair]:
    """Each case's candidate sentences from the shipped search's weighed passages: a sentence holding one of the
    case's expected strings is a positive, every other one (and every one of a no-answer case) a negative;
    clarifications are left out."""
    answerer, out = pipeline.answerer, []
    for case in cases:
        if case.expect == "clarify":
            continue
        tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
        filters = Filters(documents=case.documents) if case.documents else None
        query, _ = answerer.prepare(case.question, case.history)
        with pipeline.database.session(tenant) as session:
            hits = answerer.searcher.search(session, query, k=answerer.context_chunks, filters=filters)
        evidence = assess(query, hits, answerer.vectors, passages=answerer.context_chunks)
        wanted = [squish(a).lower() for a in case.answer_must_include] if case.answerable else []
        seen: set[str] = set()
        for c in evidence.candidates:
            if c.text in seen:
                continue
            seen.add(c.text)
            label = int(any(w in squish(c.text).lower() for w in wanted))
            out.append(Pair(source, case.id, case.question, c.text, label, c.score))
    return out
