"""The pipeline spec: frozen, validated, named by a digest, varied field by field."""

import dataclasses

import pytest

from rag_serving.spec import DEFAULT_SPEC, PipelineSpec, with_overrides


def test_the_spec_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_SPEC.reranker = "none"


def test_the_digest_names_exactly_one_pipeline():
    assert PipelineSpec().digest == DEFAULT_SPEC.digest and len(DEFAULT_SPEC.digest) == 12
    assert DEFAULT_SPEC.replace(reranker="none").digest != DEFAULT_SPEC.digest
    assert DEFAULT_SPEC.replace(bm25_k1=1.5).digest != DEFAULT_SPEC.digest


def test_the_shipped_spec_is_hybrid_bm25_with_the_learned_reranker_and_learned_routing():
    s = DEFAULT_SPEC
    assert (s.mode, s.sparse, s.reranker, s.rerank_depth, s.routing, s.answerability, s.threshold, s.k) == (
        "hybrid", "bm25", "learned", 50, True, "learned", 0.5, 5)
    assert (s.expand, s.mmr_lambda, s.editions, s.rewrite, s.parents, s.generator) == (
        (), None, True, False, False, "extractive")
    assert s.selection == "formula"
    assert s.contents_last
    assert s.summary() == ("dense + bm25 (RRF), 50 per leg → learned reranker over 50 → contents pages last → "
                           "current editions first → top 5 → extractive (formula selection) → learned routing ≥ 0.5")


@pytest.mark.parametrize("changes, message", [
    ({"reranker": "magic"}, "reranker 'magic' is not one of"),
    ({"reranker": "cross-encoder"}, "needs reranker_path"),
    ({"expand": ("synonyms",)}, "needs a synonyms file"),
    ({"expand": ("telepathy",)}, "expansions ['telepathy']"),
    ({"web_search": "searxng"}, "needs searxng_url"),
    ({"mmr_lambda": 1.5}, "outside [0, 1]"),
])
def test_an_impossible_spec_is_refused_saying_why(changes, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        DEFAULT_SPEC.replace(**changes)


def test_overrides_are_typed_like_the_fields():
    spec = with_overrides(DEFAULT_SPEC, ["reranker=none", "mmr_lambda=0.7", "rewrite=true", "expand=hyde,multi-query",
                                         "k=10", "model=none"])
    assert (spec.reranker, spec.mmr_lambda, spec.rewrite, spec.expand, spec.k, spec.model) == (
        "none", 0.7, True, ("hyde", "multi-query"), 10, None)


@pytest.mark.parametrize("pair, message", [("k=abc", "valid integer"), ("colour=blue", "expected FIELD=VALUE"),
                                           ("reranker", "expected FIELD=VALUE")])
def test_a_bad_override_names_the_pair(pair, message):
    with pytest.raises(ValueError, match=message):
        with_overrides(DEFAULT_SPEC, [pair])
