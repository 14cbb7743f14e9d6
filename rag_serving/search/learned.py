"""The offline default reranker: gradient-boosted trees over ranking features, trained by the project, read from a skops file."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from rag_serving.search.features import FEATURE_VERSION, FEATURES, FeatureExtractor
from rag_serving.search.hits import Hit
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.query import Query
from rag_serving.search.rerankers import RerankerError
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store.sessions import Session

ARTEFACT_FORMAT = "rag-learned-reranker/2"
# Beyond the types skops trusts by default, the only one the model file may contain; anything else is refused
# instead of loaded.
TRUSTED_TYPES = ["sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor"]


def default_artefact() -> Path:
    """The metadata file; the model file sits beside it (same stem, .skops)."""
    return Path(str(resources.files("rag_serving") / "models" / "learned_reranker.json"))


def model_path(meta_path: Path) -> Path:
    return Path(meta_path).with_suffix(".skops")


def read_artefact(path: Path, embedder_model: str):
    """(model, metadata) from path, refused (naming the file) unless the model file is the one trained, on these
    features, with this embedder."""
    import skops.io as sio

    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
    file = model_path(path)
    try:
        blob = file.read_bytes()
    except OSError as exc:
        raise RerankerError(f"learned reranker {file}: cannot read it: {exc}") from exc
    if hashlib.sha256(blob).hexdigest() != data.get("model", {}).get("sha256"):
        raise RerankerError(f"learned reranker {file}: sha256 differs from the one recorded in {path.name}")
    untrusted = set(sio.get_untrusted_types(data=blob)) - set(TRUSTED_TYPES)
    if untrusted:
        raise RerankerError(f"learned reranker {file}: contains types outside the trusted list: {sorted(untrusted)}")
    return sio.loads(blob, trusted=TRUSTED_TYPES), data


class LearnedReranker:
    """P(chunk is relevant to the question) from FEATURES; trained on SciFact train and the golden dev split only.
    Probabilities are the model's own (log-loss trained, calibration error reported in the artefact)."""

    def __init__(self, embedder, *, path: Path | None = None, k1: float = DEFAULT_SPEC.bm25_k1,
                 b: float = DEFAULT_SPEC.bm25_b):
        self.path = Path(path) if path else default_artefact()
        self.model, self.artefact = read_artefact(self.path, embedder.model)
        self.name = f"learned-ltr/{self.artefact['digest'][:12]}"
        self.features = FeatureExtractor(MaxSimReranker(embedder), k1=k1, b=b)

    def score(self, session: Session, query: Query, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        return self.model.predict_proba(self.features.matrix(session, query, hits))[:, 1].tolist()
