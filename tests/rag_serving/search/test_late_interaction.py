"""MaxSim from hand-worked vectors, int8 packing error, and token vectors from the real MiniLM encoder."""

import numpy as np
import pytest

from rag_serving.models.embedders import OnnxMiniLM
from rag_serving.search.late_interaction import maxsim, pack, unpack


def test_maxsim_sums_each_query_tokens_best_match_and_divides_by_query_length():
    query = np.array([[1.0, 0.0], [0.0, 1.0]])
    doc_a = np.array([[1.0, 0.0], [0.6, 0.8]])  # q1 best 1.0, q2 best 0.8 → 1.8 / 2
    doc_b = np.array([[0.0, 1.0]])  # q1 best 0.0, q2 best 1.0 → 1.0 / 2
    assert maxsim(query, [doc_a, doc_b]).tolist() == pytest.approx([0.9, 0.5])


def test_maxsim_gives_zero_to_a_document_without_tokens_and_keeps_order():
    query = np.array([[0.0, 1.0]])
    empty = np.zeros((0, 2))
    doc = np.array([[0.0, -1.0], [0.0, 0.5]])  # best 0.5
    assert maxsim(query, [empty, doc, empty]).tolist() == pytest.approx([0.0, 0.5, 0.0])


def test_packing_keeps_each_component_within_half_a_quantization_step():
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    packed = pack(vectors)
    assert packed.nbytes == 40 * 384 + 40 * 2
    restored = unpack(packed.tokens, packed.dim, packed.vectors, packed.scales)
    step = np.abs(vectors).max(axis=1, keepdims=True) / 127
    # float16 scales add a relative error of at most 2^-11 on top of rounding.
    assert np.all(np.abs(restored - vectors) <= step * (0.5 + 127 * 2**-10))


@pytest.fixture(scope="module")
def minilm():
    return OnnxMiniLM(threads=1)


def test_token_vectors_have_one_unit_row_per_word_piece_without_specials(minilm):
    text = "The pump pressure is 4 bar."
    pieces = len(minilm.tokenizer.encode(text, add_special_tokens=False).ids)
    [vectors] = minilm.token_vectors([text])
    assert vectors.shape == (pieces, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_text_longer_than_the_model_input_keeps_every_word_piece(minilm):
    text = " ".join(f"word{i}" for i in range(300))
    pieces = len(minilm.tokenizer.encode(text, add_special_tokens=False).ids)
    assert pieces > minilm.max_tokens
    [vectors] = minilm.token_vectors([text])
    assert vectors.shape[0] == pieces


def test_maxsim_prefers_the_passage_that_shares_the_questions_words(minilm):
    question = "What is the pump pressure?"
    passages = ["Holiday requests go to the line manager two weeks ahead.", "Set the pump pressure to 4 bar before use."]
    docs = minilm.token_vectors(passages)
    scores = maxsim(minilm.token_vectors([question])[0], docs)
    assert scores[1] > scores[0]


def test_maxsim_reranker_reads_stored_vectors_and_orders_the_searchers_candidates(corpus_app_db):
    from rag_serving.spec import PipelineSpec
    from rag_serving.store.sessions import Tenant
    from rag_serving.wiring import Wiring

    encoder = OnnxMiniLM(threads=1)
    wiring = Wiring(corpus_app_db, encoder)
    tenant = Tenant("acme", ("hq",))
    question = "How long is parental leave?"
    plain = wiring.pipeline(PipelineSpec(reranker="none")).search(tenant, question, k=20)
    pipeline = wiring.pipeline(PipelineSpec(reranker="maxsim", rerank_depth=20, editions=False, contents_last=False))
    reranker = pipeline.searcher.plan.reranker
    reranked = pipeline.search(tenant, question, k=20)
    assert {h.chunk_id for h in reranked} == {h.chunk_id for h in plain}
    scores = [h.rerank_score for h in reranked]
    assert scores == sorted(scores, reverse=True)
    assert reranker.encoded_on_the_fly == 0  # ingest stored every chunk's token vectors
