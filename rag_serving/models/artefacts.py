"""Trained model files the project ships: JSON metadata beside a skops model, checked before anything is loaded."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# Beyond the types skops trusts by default, the only one a model file may contain; anything else is refused
# instead of loaded.
TRUSTED_TYPES = ["sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor"]


class ArtefactError(RuntimeError):
    """A model file that is missing, altered, or trained on other features or another embedder."""


def shipped(stem: str) -> Path:
    """The metadata file of a model shipped in rag_serving/models (stem.json; the model file beside it)."""
    from importlib import resources

    return Path(str(resources.files("rag_serving") / "models" / f"{stem}.json"))


def model_path(meta_path: Path) -> Path:
    """The model file beside its metadata (same stem, .skops)."""
    return Path(meta_path).with_suffix(".skops")


def read_artefact(path: Path, embedder_model: str, *, kind: str, format: str, feature_version: int,
                  features: Sequence[str], retrain: str):
    """(model, metadata) from path, refused (naming the file) unless the model file is the one trained, on these
    features, with this embedder."""
    import skops.io as sio

    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ArtefactError(f"{kind} {path}: cannot read it: {exc}") from exc
    if data.get("format") != format:
        raise ArtefactError(f"{kind} {path}: format {data.get('format')!r}, expected {format!r}")
    if data.get("feature_version") != feature_version or tuple(data.get("features", ())) != tuple(features):
        raise ArtefactError(f"{kind} {path}: trained on features version {data.get('feature_version')!r}, "
                            f"this code computes version {feature_version!r}; retrain it ({retrain})")
    if data.get("embedder") != embedder_model:
        raise ArtefactError(f"{kind} {path}: trained with embedder {data.get('embedder')!r}, queries use "
                            f"{embedder_model!r}; its cosine features would mean something else")
    file = model_path(path)
    try:
        blob = file.read_bytes()
    except OSError as exc:
        raise ArtefactError(f"{kind} {file}: cannot read it: {exc}") from exc
    if hashlib.sha256(blob).hexdigest() != data.get("model", {}).get("sha256"):
        raise ArtefactError(f"{kind} {file}: sha256 differs from the one recorded in {path.name}")
    untrusted = set(sio.get_untrusted_types(data=blob)) - set(TRUSTED_TYPES)
    if untrusted:
        raise ArtefactError(f"{kind} {file}: contains types outside the trusted list: {sorted(untrusted)}")
    return sio.loads(blob, trusted=TRUSTED_TYPES), data


class Trees:
    """A scikit-learn classifier that predicts in the calling thread alone. Requests run in parallel threads; a
    50-row prediction that started an OpenMP team waited for cores busy with other requests and ONNX Runtime: 18 ms
    per request at 100k chunks against 1 ms alone (benchmarks.latency, mode retrieve). The OpenMP limit is per thread,
    so one request's limit never reaches another's."""

    def __init__(self, model):
        from threadpoolctl import ThreadpoolController

        self.model = model
        self._threads = ThreadpoolController()  # the loaded libraries, found once at start-up

    def positive(self, x) -> np.ndarray:
        """P(class 1) for each row of x."""
        with self._threads.limit(limits=1, user_api="openmp"):
            return self.model.predict_proba(x)[:, 1]


class ShippedModel:
    """A trained model read through `read_artefact`; a subclass names its file, format and features."""

    stem: str  # rag_serving/models/<stem>.json
    kind: str  # how errors name it
    label: str  # how responses name it, with the training digest
    format: str
    feature_version: int
    features: tuple[str, ...]
    retrain = "make train-answerability"

    def __init__(self, embedder_model: str, *, path: Path | None = None):
        self.path = Path(path) if path else shipped(self.stem)
        self.model, self.artefact = read_artefact(self.path, embedder_model, kind=self.kind, format=self.format,
                                                  feature_version=self.feature_version, features=self.features,
                                                  retrain=self.retrain)
        self.name = f"{self.label}/{self.artefact['digest'][:12]}"
        self.trees = Trees(self.model)
