"""The learned reranker's artefact: the arithmetic it applies, and the refusals that keep a query off a mismatched model."""

import json

import numpy as np
import pytest

from rag_serving.features import FEATURE_VERSION, FEATURES
from rag_serving.learned_reranker import ARTEFACT_FORMAT, LinearModel, default_artefact, read_artefact
from rag_serving.rerankers import RerankerError


def test_linear_model_standardizes_then_applies_the_logistic():
    model = LinearModel(np.array([1.0]), np.array([2.0]), np.array([2.0]), -1.0)
    # z = (3 − 1) / 2 · 2 − 1 = 1; sigmoid(1) = 0.731059
    assert model.probability(np.array([[3.0]]))[0] == pytest.approx(0.731059, abs=1e-6)


def artefact(tmp_path, **changes):
    data = {"format": ARTEFACT_FORMAT, "feature_version": FEATURE_VERSION, "features": list(FEATURES),
            "embedder": "m1", "digest": "d" * 64,
            "model": {"mean": [0.0] * len(FEATURES), "scale": [1.0] * len(FEATURES), "coef": [0.0] * len(FEATURES),
                      "intercept": 0.0}}
    data.update(changes)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    return path


def test_an_artefact_trained_on_other_features_is_refused_naming_the_file(tmp_path):
    path = artefact(tmp_path, feature_version="0")
    with pytest.raises(RerankerError, match="model.json.*features version '0'"):
        read_artefact(path, "m1")


def test_an_artefact_trained_with_another_embedder_is_refused(tmp_path):
    with pytest.raises(RerankerError, match="trained with embedder 'm1'"):
        read_artefact(artefact(tmp_path), "m2")


def test_the_shipped_artefact_matches_the_features_and_the_default_embedder(minilm):
    model, data = read_artefact(default_artefact(), minilm.model)
    assert len(model.coef) == len(FEATURES)
    assert {"scifact-train", "golden-dev"} == set(data["training"]["sources"])
    assert len(data["digest"]) == 64
