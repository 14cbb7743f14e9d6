"""The offline default reranker: logistic regression over ranking features, trained by the project, read from a JSON artefact."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import psycopg

from .features import FEATURE_VERSION, FEATURES, FeatureExtractor
from .late_interaction import MaxSimReranker
from .rerankers import RerankerError
from .retrieval import Hit

ARTEFACT_FORMAT = "rag-learned-reranker/1"


def default_artefact() -> Path:
    return Path(str(resources.files("rag_serving") / "models" / "learned_reranker.json"))


@dataclass(frozen=True)
class LinearModel:
    """sigmoid(w · (x − mean) / scale + b): the fitted StandardScaler and LogisticRegression, nothing else."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    def probability(self, x: np.ndarray) -> np.ndarray:
        z = ((x - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))


def read_artefact(path: Path, embedder_model: str) -> tuple[LinearModel, dict]:
    """The model in path, refused (naming the file) unless it was trained on these features with this embedder."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RerankerError(f"learned reranker {path}: cannot read it: {exc}") from exc
    if data.get("format") != ARTEFACT_FORMAT:
        raise RerankerError(f"learned reranker {path}: format {data.get('format')!r}, expected {ARTEFACT_FORMAT!r}")
    if data.get("feature_version") != FEATURE_VERSION or tuple(data.get("features", ())) != FEATURES:
        raise RerankerError(f"learned reranker {path}: trained on features version {data.get('feature_version')!r}, "
                            f"this code computes version {FEATURE_VERSION!r}; retrain it (make train-reranker)")
    if data.get("embedder") != embedder_model:
        raise RerankerError(f"learned reranker {path}: trained with embedder {data.get('embedder')!r}, queries use "
                            f"{embedder_model!r}; its cosine and MaxSim features would mean something else")
    m = data["model"]
    model = LinearModel(np.asarray(m["mean"], dtype=float), np.asarray(m["scale"], dtype=float),
                        np.asarray(m["coef"], dtype=float), float(m["intercept"]))
    return model, data


class LearnedReranker:
    """P(chunk answers the question) from FEATURES; trained on SciFact train and the golden dev split only."""

    calibrated = True

    def __init__(self, embedder, *, path: Path | None = None, k1: float = 1.2, b: float = 0.75):
        self.path = Path(path) if path else default_artefact()
        self.model, self.artefact = read_artefact(self.path, embedder.model)
        self.name = f"learned-ltr/{self.artefact['digest'][:12]}"
        self.features = FeatureExtractor(embedder, MaxSimReranker(embedder), k1=k1, b=b)

    def score(self, conn: psycopg.Connection, question: str, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        return self.model.probability(self.features.matrix(conn, question, hits)).tolist()
