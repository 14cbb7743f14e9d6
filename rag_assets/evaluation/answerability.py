"""Training data for learned answerability: SQuAD 2.0 train questions over their article's paragraphs, with and
without the paragraph that answers them, and the golden dev cases through the shipped pipeline."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.scoring import judge
from rag_assets.evaluation.training import held_out, model_record
from rag_serving.answer import selection
from rag_serving.answer.answerability import ARTEFACT_FORMAT, FEATURE_VERSION, FEATURES, features
from rag_serving.answer.edges import whole_sentences
from rag_serving.answer.evidence import Evidence, assess
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.query import Query
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Pipeline

PASSAGES = 5  # what the answer step weighs (the spec's k)
SEED = 20261203


@dataclass
class Example:
    source: str  # squad2-train, golden-dev
    group: str  # cross-validation keeps a group whole: a SQuAD article, a golden case
    question: str
    label: int  # 1: the passages hold the answer
    row: np.ndarray  # 1 × FEATURES
    sentences: np.ndarray | None = None  # candidates × selection FEATURES, for questions whose passages answer
    holds: np.ndarray | None = None  # 1 where that candidate sentence holds the answer


def sentence_labels(evidence: Evidence, answers: Sequence[str], within: set[str] | None = None) -> np.ndarray:
    """1 for each candidate sentence holding one of the answers (whitespace and case aside), from the allowed
    chunks when `within` is given."""
    wanted = [" ".join(a.lower().split()) for a in answers if a.strip()]
    return np.array([int((within is None or c.hit.chunk_id in within)
                         and any(a in " ".join(c.text.lower().split()) for a in wanted))
                     for c in evidence.candidates])


def with_sentences(example: Example, evidence: Evidence, answers: Sequence[str],
                   within: set[str] | None = None) -> Example:
    """The example with its sentence rows, when some candidate holds the answer."""
    holds = sentence_labels(evidence, answers, within)
    if example.label and holds.any():
        example.sentences, example.holds = selection.matrix(evidence), holds
    return example


def paragraph_hit(title: str, n: int, text: str, score: float) -> Hit:
    return Hit(chunk_id=f"{title}-{n:03d}", document_id=f"{title}-{n:03d}", title=title.replace("_", " "),
               source_path=f"{title}-{n:03d}.txt", kind=None, published_on=None, page_start=1, page_end=1,
               page_label_start="1", page_label_end="1", heading_path=None, body=text, score=score)


def squad_example(title: str, paragraphs: list[str], own: int, qa: dict, query: Query, cos: np.ndarray,
                  ranked: list[int], label: int, vectors: SentenceVectors, passages: int) -> Example:
    """One question over the top passages of a ranking of its article's paragraphs."""
    hits = [paragraph_hit(title, i, paragraphs[i], float(cos[i])) for i in ranked[:passages]]
    evidence = assess(query, hits, vectors, passages=passages)
    found = Example("squad2-train", title, qa["question"], label, features(evidence))
    answers = [a["text"] for a in qa.get("answers", [])]
    return with_sentences(found, evidence, answers, {f"{title}-{own:03d}"})


def squad_examples(path: Path, embedder, vectors: SentenceVectors, *, passages: int = PASSAGES) -> list[Example]:
    """Per question, the article's paragraphs ranked by dense cosine stand in for retrieval. An answerable question
    gives a positive (its top passages include its paragraph; skipped when they don't) and a hard negative (the
    same ranking with its paragraph removed); an impossible question gives a negative over its top passages."""
    out = []
    for article in json.loads(Path(path).read_text(encoding="utf-8"))["data"]:
        title, paragraphs = article["title"], [p["context"] for p in article["paragraphs"]]
        p_vec = np.asarray(embedder.embed(paragraphs), dtype=np.float32)
        p_vec /= np.maximum(np.linalg.norm(p_vec, axis=1, keepdims=True), 1e-12)
        for own, paragraph in enumerate(article["paragraphs"]):
            for qa in paragraph["qas"]:
                query = Query(qa["question"], embedder)
                cos = p_vec @ query.vector
                order = [int(i) for i in np.argsort(-cos, kind="stable")]

                def example(ranked: list[int], label: int, qa=qa, query=query, cos=cos, own=own, title=title,
                            paragraphs=paragraphs) -> Example:
                    return squad_example(title, paragraphs, own, qa, query, cos, ranked, label, vectors, passages)

                if qa.get("is_impossible"):
                    out.append(example(order, 0))
                    continue
                if own in order[:passages]:
                    out.append(example(order, 1))
                out.append(example([i for i in order if i != own], 0))
    return out


def golden_examples(pipeline: Pipeline, cases: Sequence[GoldenCase], source: str = "golden-dev") -> list[Example]:
    """Each case through the pipeline's own search and evidence: positive when it expects an answer and a relevant
    page is among the weighed passages, negative when it expects an abstention; clarifications are left out."""
    answerer, out = pipeline.answerer, []
    for case in cases:
        if case.expect == "clarify":
            continue
        tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
        filters = Filters(documents=case.documents) if case.documents else None
        query, _ = answerer.prepare(case.question, case.history)
        with pipeline.database.session(tenant) as session:
            # As the answer step reads them: sentences the chunk window cut finished from the page.
            hits = whole_sentences(session, answerer.searcher.search(session, query, k=answerer.context_chunks,
                                                                     filters=filters))
        label = int(case.answerable and any(g > 0 for g in judge(hits, case)[0]))
        evidence = assess(query, hits, answerer.vectors, passages=answerer.context_chunks, owner=tenant.organization_id)
        found = Example(source, case.id, case.question, label, features(evidence))
        out.append(with_sentences(found, evidence, case.answer_must_include))
    return out


def design(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X, y, group per row, and weights giving each source the same total weight."""
    x = np.vstack([e.row for e in examples])
    y = np.array([e.label for e in examples])
    groups = np.array([f"{e.source}/{e.group}" for e in examples])
    counts: dict[str, int] = {}
    for e in examples:
        counts[e.source] = counts.get(e.source, 0) + 1
    w = np.array([len(examples) / (len(counts) * counts[e.source]) for e in examples])
    return x, y, groups, w


def boosted():
    from sklearn.ensemble import HistGradientBoostingClassifier

    # Shallow and regularized: a handful of features, and it must carry over to documents unlike Wikipedia.
    return HistGradientBoostingClassifier(max_iter=150, learning_rate=0.05, max_leaf_nodes=8, min_samples_leaf=40,
                                          l2_regularization=1.0, random_state=SEED)


def leave_one_group_out(examples: Sequence[Example], make_model, groups_of) -> np.ndarray:
    """Out-of-group probabilities: each held-out group (a SQuAD article; the golden dev set as one collection) is
    scored by a model that never saw it."""
    x, y, _, w = design(examples)
    held = np.array([groups_of(e) for e in examples])
    return held_out(make_model, x, y, w, (held == g for g in np.unique(held)))


def auc(labels, scores) -> float | None:
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(labels, scores)), 3) if 0 < sum(labels) < len(labels) else None


def digest(examples: Sequence[Example]) -> str:
    h = hashlib.sha256()
    for e in examples:
        h.update(json.dumps([e.source, e.group, e.question, e.label, [round(float(v), 6) for v in e.row[0]]]).encode())
    return h.hexdigest()


def selection_artefact(model, examples: Sequence[Example], embedder_model: str, metrics: dict, commit: str,
                       sha256: str) -> dict:
    """The answer selector's metadata: as answerability's, with its own format and features."""
    data = artefact(model, examples, embedder_model, metrics, commit, sha256)
    return {**data, "format": selection.ARTEFACT_FORMAT, "feature_version": selection.FEATURE_VERSION,
            "features": list(selection.FEATURES)}


def artefact(model, examples: Sequence[Example], embedder_model: str, metrics: dict, commit: str, sha256: str) -> dict:
    sources: dict[str, dict] = {}
    for e in examples:
        s = sources.setdefault(e.source, {"examples": 0, "positives": 0})
        s["examples"] += 1
        s["positives"] += e.label
    return {
        "format": ARTEFACT_FORMAT, "feature_version": FEATURE_VERSION, "features": list(FEATURES),
        "embedder": embedder_model,
        "model": model_record(model, sha256),
        "digest": digest(examples),
        "training": {"sources": sources, "commit": commit, "trained_on": dt.date.today().isoformat(),
                     "weighting": "each source carries the same total weight"},
        "metrics": metrics,
    }


def sentence_design(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """X, y and weights of every candidate sentence of the examples that have them, and each one's example index.
    Weights give each source the same total and each question the same share of its source."""
    chosen = [i for i, e in enumerate(examples) if e.sentences is not None]
    per_source: dict[str, int] = {}
    for i in chosen:
        per_source[examples[i].source] = per_source.get(examples[i].source, 0) + 1
    xs, ys, ws, owner = [], [], [], []
    for i in chosen:
        e = examples[i]
        n = len(e.holds)
        xs.append(e.sentences)
        ys.append(e.holds)
        ws.append(np.full(n, 1.0 / (len(per_source) * per_source[e.source] * n)))
        owner += [i] * n
    w = np.concatenate(ws)
    return np.vstack(xs), np.concatenate(ys), w * len(w) / w.sum(), owner


def top1_holds(examples: Sequence[Example], scores: np.ndarray, owner: Sequence[int]) -> dict[str, float]:
    """Per source, the share of questions whose highest-scoring sentence holds the answer."""
    best: dict[int, tuple[float, int]] = {}
    offset: dict[int, int] = {}
    for row, i in enumerate(owner):
        k = offset.get(i, 0)
        offset[i] = k + 1
        if i not in best or scores[row] > best[i][0]:
            best[i] = (scores[row], int(examples[i].holds[k]))
    out: dict[str, list[int]] = {}
    for i, (_, hit) in best.items():
        out.setdefault(examples[i].source, []).append(hit)
    return {s: round(float(np.mean(v)), 3) for s, v in sorted(out.items())}


def selection_report(examples: Sequence[Example], groups_of) -> dict:
    """Top-1 sentence holding the answer: the hand-set score against gradient-boosted trees scored out of group."""
    from rag_serving.answer.selection import FEATURES as SENTENCE_FEATURES

    x, y, w, owner = sentence_design(examples)
    held = np.array([groups_of(examples[i]) for i in owner])
    oof = held_out(boosted, x, y, w, (held == g for g in np.unique(held)))
    return {"questions": len({*owner}), "sentences": len(y),
            "top1_formula": top1_holds(examples, x[:, SENTENCE_FEATURES.index("score")], owner),
            "top1_boosted_trees": top1_holds(examples, oof, owner)}
