"""Trained model files the project ships: JSON metadata beside an ONNX model, checked before anything is loaded."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# The graph's output holding one probability per class, as skl2onnx names it for a classifier without ZipMap.
PROBABILITIES = "probabilities"


class ArtefactError(RuntimeError):
    """A model file that is missing, altered, or trained on other features or another embedder."""


def shipped(stem: str) -> Path:
    """The metadata file of a model shipped in rag_serving/models (stem.json; the model file beside it)."""
    from importlib import resources

    return Path(str(resources.files("rag_serving") / "models" / f"{stem}.json"))


def model_path(meta_path: Path) -> Path:
    """The model file beside its metadata (same stem, .onnx)."""
    return Path(meta_path).with_suffix(".onnx")


def read_artefact(path: Path, embedder_model: str, *, kind: str, format: str, feature_version: int,
                  features: Sequence[str], retrain: str) -> tuple[Trees, dict]:
    """(model, metadata) from path, refused (naming the file) unless the model file is the one trained, on these
    features, with this embedder."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ArtefactError(f"{kind} {path}: cannot read it: {exc}") from exc
    if data.get("format") != format:
        raise ArtefactError(f"{kind} {path}: format {data.get('format')!r}, expected {format!r}; "
                            f"retrain it ({retrain})")
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
    try:
        trees = Trees(blob, len(features))
    except Exception as exc:  # onnxruntime raises its own exception types for a file it cannot read
        raise ArtefactError(f"{kind} {file}: not a model of {len(features)} features: {exc}") from exc
    return trees, data


class Trees:
    """A tree classifier's ONNX graph on onnxruntime, one thread per prediction. Requests run in parallel threads, and
    onnxruntime lets them share one session; a 50-row prediction that waited for a thread team busy with other
    requests took 18 ms per request at 100k chunks against 1 ms alone (benchmarks.latency, mode retrieve). ONNX holds
    data, not code, so reading a file cannot run anything, and onnxruntime starts in 0.2 s where scikit-learn's
    persistence took 4 s."""

    def __init__(self, blob: bytes, width: int):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(blob, options, providers=["CPUExecutionProvider"])
        inputs = self._session.get_inputs()
        if len(inputs) != 1 or inputs[0].shape[-1] != width:
            raise ValueError(f"inputs {[(i.name, i.shape) for i in inputs]}, expected one of width {width}")
        if PROBABILITIES not in {o.name for o in self._session.get_outputs()}:
            raise ValueError(f"no {PROBABILITIES!r} output")
        self._input = inputs[0].name

    def positive(self, x) -> np.ndarray:
        """P(class 1) for each row of x."""
        x = np.asarray(x, dtype=np.float32)
        return self._session.run([PROBABILITIES], {self._input: x})[0][:, 1].astype(np.float64)


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
        self.trees, self.artefact = read_artefact(self.path, embedder_model, kind=self.kind, format=self.format,
                                                  feature_version=self.feature_version, features=self.features,
                                                  retrain=self.retrain)
        self.name = f"{self.label}/{self.artefact['digest'][:12]}"
