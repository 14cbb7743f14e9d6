"""The learned reranker: the refusals that keep a query off a mismatched or tampered model, and the shipped model on real candidates."""

import hashlib
import json
import shutil

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from rag_assets.evaluation.training import dump
from rag_serving.models.artefacts import model_path
from rag_serving.search.features import FEATURE_VERSION, FEATURES
from rag_serving.search.learned import LearnedReranker, default_artefact, read_artefact
from rag_serving.search.rerankers import RerankerError
from rag_serving.spec import PipelineSpec
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Wiring


@pytest.fixture
def copy(tmp_path):
    """The shipped artefact copied, so a test can change it."""
    meta = tmp_path / "learned_reranker.json"
    shutil.copy(default_artefact(), meta)
    shutil.copy(model_path(default_artefact()), model_path(meta))
    return meta


def edit(meta, **changes):
    data = json.loads(meta.read_text())
    data.update(changes)
    meta.write_text(json.dumps(data))


def test_an_artefact_trained_on_other_features_is_refused_naming_the_file(copy, minilm):
    edit(copy, feature_version="0")
    with pytest.raises(RerankerError, match=r"learned_reranker.json: trained on features version '0'.*"
                                            rf"version '{FEATURE_VERSION}'"):
        read_artefact(copy, minilm.model)


def test_an_artefact_of_the_skops_format_is_refused_with_how_to_retrain_it(copy, minilm):
    edit(copy, format="rag-learned-reranker/2")  # what `make train-reranker` wrote before the model files were ONNX
    with pytest.raises(RerankerError, match=r"learned_reranker.json: format 'rag-learned-reranker/2', expected "
                                            r"'rag-learned-reranker/3'; retrain it \(make train-reranker\)"):
        read_artefact(copy, minilm.model)


def test_an_artefact_trained_with_another_embedder_is_refused(copy):
    with pytest.raises(RerankerError, match="queries use 'other-model'"):
        read_artefact(copy, "other-model")


def test_a_model_file_that_differs_from_the_recorded_digest_is_refused(copy, minilm):
    path = model_path(copy)
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(RerankerError, match="learned_reranker.onnx: sha256 differs"):
        read_artefact(copy, minilm.model)


@pytest.mark.parametrize("blob", [b"not a model", "three features"], ids=["not-onnx", "other-width"])
def test_a_model_file_that_is_not_a_model_of_these_features_is_refused(copy, minilm, blob):
    if blob == "three features":  # a real classifier's ONNX file, fitted on fewer features than the reranker reads
        x = np.random.default_rng(0).normal(size=(60, 3))
        blob = dump(HistGradientBoostingClassifier(max_iter=5).fit(x, (x[:, 0] > 0).astype(int)))
    model_path(copy).write_bytes(blob)
    edit(copy, model={**json.loads(copy.read_text())["model"], "sha256": hashlib.sha256(blob).hexdigest()})
    with pytest.raises(RerankerError, match=rf"learned_reranker.onnx: not a model of {len(FEATURES)} features"):
        read_artefact(copy, minilm.model)


def test_the_shipped_artefact_records_its_training_sources_and_cross_validation(minilm):
    _, data = read_artefact(default_artefact(), minilm.model)
    assert set(data["training"]["sources"]) == {"scifact-train", "golden-dev"}  # never test or held-out
    assert len(data["digest"]) == 64
    cv = data["metrics"]["cross_validation"]["boosted_trees"]
    assert 0 <= cv["ece"] <= 1 and set(cv["ndcg@10"]) == {"scifact-train", "golden-dev"}


def test_the_learned_reranker_scores_real_candidates_as_probabilities(corpus_app_db, minilm):
    # Editions off: ranking a superseded edition below its successor reorders the reranker's scores on purpose.
    pipeline = Wiring(corpus_app_db, minilm).pipeline(PipelineSpec(reranker="learned", editions=False))
    assert isinstance(pipeline.searcher.plan.reranker, LearnedReranker)
    hits = pipeline.search(Tenant("acme", ("hq",)), "How many weeks of parental leave do full-time staff get?", k=10)
    scores = [h.rerank_score for h in hits]
    assert all(0.0 <= s <= 1.0 for s in scores) and scores == sorted(scores, reverse=True)
    assert "parental leave" in hits[0].body.lower()
