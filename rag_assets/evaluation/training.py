"""Training the learned reranker: candidates and features per question, grouped cross-validation, the JSON artefact."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.scoring import bootstrap_interval, case_metrics, judge
from rag_serving.search.features import FEATURE_VERSION, FEATURES, FeatureExtractor
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.learned import ARTEFACT_FORMAT
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Pipeline

FOLDS = 5
SEED = 20261203
ECE_BINS = 10
# ai.onnx.ml 3 is the opset whose TreeEnsembleClassifier onnxruntime runs; the default domain as skl2onnx picks it.
ONNX_OPSETS = {"": 18, "ai.onnx.ml": 3}


@dataclass
class TrainingQuery:
    source: str  # e.g. scifact-train, golden-dev
    case: GoldenCase
    hits: list[Hit]  # hybrid candidates in fused order
    grades: list[int]  # graded relevance of each candidate
    features: np.ndarray  # candidates × FEATURES

    @property
    def labels(self) -> np.ndarray:
        return (np.asarray(self.grades) > 0).astype(int)

    def ndcg(self, order: Sequence[int]) -> float:
        return case_metrics([self.hits[i] for i in order], self.case)["ndcg@10"]


def collect(pipeline: Pipeline, extractor: FeatureExtractor, cases: Sequence[GoldenCase], source: str,
            depth: int = 50) -> list[TrainingQuery]:
    """The pipeline's candidates (a spec without a reranker: hybrid in fused order) and their features for each
    answerable case, read in one tenant session per case."""
    out = []
    for case in cases:
        if not case.answerable or not case.relevant:
            continue
        tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
        filters = Filters(documents=case.documents) if case.documents else None
        query = pipeline.searcher.query(" ".join([*case.history, case.question]))
        with pipeline.database.session(tenant) as session:
            hits = pipeline.searcher.search(session, query, k=depth, filters=filters)
            if not hits:
                continue
            features = extractor.matrix(session, query, hits)
        out.append(TrainingQuery(source, case, hits, judge(hits, case)[0], features))
    return out


def digest(queries: Sequence[TrainingQuery]) -> str:
    """SHA-256 of what the model is fitted on: every (source, case, candidate, grade, features) row, rounded."""
    h = hashlib.sha256()
    for q in queries:
        for hit, grade, row in zip(q.hits, q.grades, q.features):
            h.update(json.dumps([q.source, q.case.id, hit.chunk_id, grade, [round(float(v), 6) for v in row]]).encode())
    return h.hexdigest()


def _design(queries: Sequence[TrainingQuery]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X, y, group per row, and sample weights that give each source the same total weight."""
    x = np.vstack([q.features for q in queries])
    y = np.concatenate([q.labels for q in queries])
    groups = np.concatenate([[i] * len(q.hits) for i, q in enumerate(queries)])
    rows_per_source: dict[str, int] = {}
    for q in queries:
        rows_per_source[q.source] = rows_per_source.get(q.source, 0) + len(q.hits)
    weights = np.concatenate([[len(x) / (len(rows_per_source) * rows_per_source[q.source])] * len(q.hits)
                              for q in queries])
    return x, y, groups, weights


def logistic():
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))


def boosted():
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15, random_state=SEED)


def expected_calibration_error(p: np.ndarray, y: np.ndarray, bins: int = ECE_BINS) -> float:
    """Σ over equal-width probability bins of (share of rows) × |mean predicted − observed rate|."""
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges[1:-1]), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.mean() * abs(p[mask].mean() - y[mask].mean())
    return float(total)


def one_thread(fn):
    """`fn` with scikit-learn's OpenMP runtime limited to one thread. The data here is small (thousands of rows, a
    dozen features), and on two cores busy with anything else an OpenMP team spins waiting for its workers: the
    leave-one-out test that took 5 s in one thread took 116 s with the default team beside an index build."""

    @functools.wraps(fn)
    def limited(*args, **kwargs):
        # threadpoolctl limits the libraries loaded when the limit starts; the models import scikit-learn lazily.
        from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: F401

        with threadpool_limits(limits=1, user_api="openmp"):
            return fn(*args, **kwargs)

    return limited


@one_thread
def fit_weighted(make_model, x: np.ndarray, y: np.ndarray, weights: np.ndarray):
    """A fresh model fitted with sample weights (a pipeline takes them through its final step)."""
    model = make_model()
    key = "logisticregression__sample_weight" if hasattr(model, "steps") else "sample_weight"
    model.fit(x, y, **{key: weights})
    return model


@one_thread
def held_out(make_model, x: np.ndarray, y: np.ndarray, weights: np.ndarray, tests) -> np.ndarray:
    """P(class 1) for each row, from a model fitted on the rows outside the boolean or index mask that holds it."""
    out = np.zeros(len(y))
    for test in tests:
        train = np.ones(len(y), dtype=bool)
        train[test] = False
        out[test] = fit_weighted(make_model, x[train], y[train], weights[train]).predict_proba(x[test])[:, 1]
    return out


def cross_validate(queries: Sequence[TrainingQuery], make_model) -> dict:
    """Out-of-fold probabilities (folds by question) and, per source, NDCG@10 of the fused order vs the reranked one."""
    from sklearn.model_selection import GroupKFold

    x, y, groups, weights = _design(queries)
    oof = held_out(make_model, x, y, weights, (test for _, test in GroupKFold(n_splits=FOLDS).split(x, y, groups)))
    per_source: dict[str, dict] = {}
    offset = 0
    for q in queries:
        p = oof[offset : offset + len(q.hits)]
        offset += len(q.hits)
        order = sorted(range(len(p)), key=lambda i: -p[i])
        stats = per_source.setdefault(q.source, {"queries": 0, "fused": [], "reranked": []})
        stats["queries"] += 1
        stats["fused"].append(q.ndcg(range(len(q.hits))))
        stats["reranked"].append(q.ndcg(order))
    return {
        "brier": round(float(np.mean((oof - y) ** 2)), 4),
        "ece": round(expected_calibration_error(oof, y), 4),
        "ndcg@10": {s: {"queries": v["queries"], "fused": round(float(np.mean(v["fused"])), 4),
                        "reranked": round(float(np.mean(v["reranked"])), 4)} for s, v in per_source.items()},
    }


@one_thread
def leave_one_source_out(queries: Sequence[TrainingQuery], make_model) -> dict:
    """Per source, a model trained on the other sources only, judged on that source: NDCG@10 of the fused order
    and of the reranked one, with a paired bootstrap interval of the difference. A collection the model never saw."""
    sources = sorted({q.source for q in queries})
    out = {}
    for held in sources:
        x, y, _, w = _design([q for q in queries if q.source != held])
        model = fit_weighted(make_model, x, y, w)
        test = [q for q in queries if q.source == held]
        fused = np.array([q.ndcg(range(len(q.hits))) for q in test])
        reranked = []
        for q in test:
            p = model.predict_proba(q.features)[:, 1]
            reranked.append(q.ndcg(sorted(range(len(p)), key=lambda i: -p[i])))
        diff = np.array(reranked) - fused
        low, high = bootstrap_interval(diff)
        out[held] = {"queries": len(test), "trained_on": [s for s in sources if s != held],
                     "fused": round(float(fused.mean()), 4), "reranked": round(float(np.mean(reranked)), 4),
                     "difference_ci": [round(low, 4), round(high, 4)]}
    return out


def fit(queries: Sequence[TrainingQuery]):
    """The shipped model: gradient-boosted trees (they beat logistic regression in cross-validation, see metrics)."""
    x, y, _, weights = _design(queries)
    return fit_weighted(boosted, x, y, weights)


def artefact(model, queries: Sequence[TrainingQuery], embedder_model: str, metrics: dict, commit: str,
             model_sha256: str) -> dict:
    sources: dict[str, dict] = {}
    for q in queries:
        s = sources.setdefault(q.source, {"queries": 0, "pairs": 0, "positives": 0})
        s["queries"] += 1
        s["pairs"] += len(q.hits)
        s["positives"] += int(q.labels.sum())
    return {
        "format": ARTEFACT_FORMAT,
        "feature_version": FEATURE_VERSION,
        "features": list(FEATURES),
        "embedder": embedder_model,
        "model": model_record(model, model_sha256),
        "digest": digest(queries),
        "training": {"sources": sources, "commit": commit, "trained_on": dt.date.today().isoformat(),
                     "weighting": "each source carries the same total weight"},
        "metrics": metrics,
    }


def dump(model) -> bytes:
    """The fitted classifier as an ONNX graph (skl2onnx) taking float32 rows of its features, with plain
    probabilities (no ZipMap), as `rag_serving.models.artefacts.Trees` reads it."""
    from skl2onnx import to_onnx
    from skl2onnx.common.data_types import FloatTensorType

    graph = to_onnx(model, initial_types=[("x", FloatTensorType([None, model.n_features_in_]))],
                    options={id(model): {"zipmap": False}}, target_opset=ONNX_OPSETS)
    return graph.SerializeToString()


def model_record(model, sha256: str) -> dict:
    """What the metadata says of the model file: the estimator, its parameters, the file's digest and the versions
    that wrote it."""
    import sklearn
    import skl2onnx

    return {"kind": type(model).__name__, "params": model.get_params(), "sha256": sha256,
            "scikit_learn": sklearn.__version__,
            "file": f"ONNX (ai.onnx {ONNX_OPSETS['']}, ai.onnx.ml {ONNX_OPSETS['ai.onnx.ml']}) "
                    f"via skl2onnx {skl2onnx.__version__}"}


def write(data: dict, blob: bytes, path: Path) -> None:
    """The metadata at path and the model beside it (same stem, .onnx)."""
    from rag_serving.models.artefacts import model_path

    path.parent.mkdir(parents=True, exist_ok=True)
    model_path(path).write_bytes(blob)
    path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
