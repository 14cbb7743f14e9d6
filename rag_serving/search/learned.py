"""The offline default reranker: gradient-boosted trees over ranking features, trained by the project, read from an ONNX file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rag_serving.models import artefacts
from rag_serving.search.features import FEATURE_VERSION, FEATURES, FeatureExtractor
from rag_serving.search.hits import Hit
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.query import Query
from rag_serving.search.rerankers import RerankerError
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store.sessions import Session

ARTEFACT_FORMAT = "rag-learned-reranker/3"  # 3: the model file is ONNX (it was skops)


def default_artefact() -> Path:
    """The metadata file; the model file sits beside it (same stem, .onnx)."""
    return artefacts.shipped("learned_reranker")


def read_artefact(path: Path, embedder_model: str):
    """(model, metadata) from path, refused (naming the file) unless the model file is the one trained, on these
    features, with this embedder."""
    try:
        return artefacts.read_artefact(path, embedder_model, kind="learned reranker", format=ARTEFACT_FORMAT,
                                       feature_version=FEATURE_VERSION, features=FEATURES,
                                       retrain="make train-reranker")
    except artefacts.ArtefactError as exc:
        raise RerankerError(str(exc)) from exc


class LearnedReranker:
    """P(chunk is relevant to the question) from FEATURES; trained on SciFact train and the golden dev split only.
    Probabilities are the model's own (log-loss trained, calibration error reported in the artefact)."""

    def __init__(self, embedder, *, path: Path | None = None, k1: float = DEFAULT_SPEC.bm25_k1,
                 b: float = DEFAULT_SPEC.bm25_b):
        self.path = Path(path) if path else default_artefact()
        self.trees, self.artefact = read_artefact(self.path, embedder.model)
        self.name = f"learned-ltr/{self.artefact['digest'][:12]}"
        self.features = FeatureExtractor(MaxSimReranker(embedder), k1=k1, b=b)

    def score(self, session: Session, query: Query, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        return self.trees.positive(self.features.matrix(session, query, hits)).tolist()
