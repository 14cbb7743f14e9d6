"""Embedders: the local ONNX MiniLM, the hashed TF-IDF baseline, and the TEI adapter against a real local TEI-format server."""

import subprocess
import sys

import httpx
import numpy as np
import pytest

from rag_serving.models.embedders import (EmbedderError, HashedTfidf, TeiEmbedder, get_embedder, makes_token_vectors,
                                         normalize_text)
from rag_serving.models.tei_server import create_tei_app
from tests.servers import serve


def test_minilm_vectors_are_384_dim_unit_length(minilm):
    v = minilm.embed(["Parental leave is sixteen weeks.", "Gate B opens at five."])
    assert v.shape == (2, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_minilm_puts_a_paraphrase_closer_than_an_unrelated_sentence(minilm):
    q, para, other = minilm.embed(["How long is maternity leave?", "New parents get sixteen weeks off work.",
                                   "The condenser fan is replaced every three years."])
    assert q @ para > q @ other


def test_minilm_model_id_names_weights_digest(minilm):
    assert minilm.model.startswith("all-MiniLM-L6-v2/onnx-int8/") and len(minilm.model.rsplit("/", 1)[1]) == 12


def test_text_longer_than_model_input_is_pooled_not_truncated(minilm):
    head = "Forklift operators must hold a current certificate. " * 30  # > 256 word pieces on its own
    tail = "The canteen serves vegetarian lunch on Fridays. " * 30
    whole = minilm.embed([head + tail])[0]
    only_head = minilm.embed([head])[0]
    # Truncation would make the two nearly identical; pooling keeps the tail's meaning in the vector.
    assert whole @ only_head < 0.95
    assert whole @ minilm.embed([tail])[0] > 0.3


def test_the_arena_is_off_unless_asked_for_and_vectors_are_the_same_either_way(minilm):
    # A server keeps memory bounded without onnxruntime's arena; a batch job may keep it for speed.
    served, batch = get_embedder("minilm"), get_embedder("minilm", arena=True)
    assert not served._session.get_session_options().enable_cpu_mem_arena
    assert batch._session.get_session_options().enable_cpu_mem_arena
    texts = ["Invoices are paid within 45 days.", "The defrost heater is replaced every four years. " * 20]
    assert np.array_equal(served.embed(texts), batch.embed(texts))


def test_a_texts_vector_is_the_same_alone_and_in_a_batch_of_any_size(minilm):
    # The batch size is a speed setting only: stored sentence vectors are shared by text across requests.
    texts = [f"Clause {i}: the supplier ships spare part X200-{i:02d} within {i + 2} days." for i in range(9)]
    texts.append("The defrost heater is replaced every four years. " * 12)
    alone = np.vstack([minilm.embed([t]) for t in texts])
    batched = get_embedder("minilm")
    for size in (1, 3, 32):
        batched.batch_size = size
        assert np.min(np.sum(batched.embed(texts) * alone, axis=1)) > 1 - 1e-5, size


def test_hashed_tfidf_is_identical_across_interpreter_runs():
    code = ("from rag_serving.models.embedders import HashedTfidf; import hashlib; "
            "v = HashedTfidf().embed(['Error E-104 coolant pressure low'])[0]; "
            "print(hashlib.sha256(v.tobytes()).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin"}).stdout for seed in ("1", "2")}
    assert len(runs) == 1


def test_hashed_tfidf_scores_shared_words_above_disjoint_text():
    e = HashedTfidf()
    q, same, other = e.embed(["replace the condenser fan", "condenser fan replacement interval", "parental leave weeks"])
    assert q @ same > q @ other


def test_cache_key_normalization_is_nfkc_and_strip():
    assert normalize_text("  \ufb01le ") == "file"


def test_unknown_embedder_name_is_refused():
    with pytest.raises(EmbedderError, match="unknown RAG_EMBEDDER 'bert'"):
        get_embedder("bert")


def test_tei_adapter_against_local_tei_server_matches_the_local_model(minilm):
    with serve(create_tei_app(minilm), "/health") as base:
        tei = TeiEmbedder(base)
        texts = ["Invoices are paid within 45 days.", "Gate code 4417"]
        assert np.allclose(tei.embed(texts), minilm.embed(texts), atol=1e-5)
        assert tei.model == f"tei:{minilm.model}@unknown" and tei.dim == 384 and tei.max_tokens == 256


def test_tei_adapter_pools_long_inputs_the_server_would_reject(minilm):
    long_text = "Visitors sign in at the gatehouse. " * 80
    with serve(create_tei_app(minilm), "/health") as base:
        raw = httpx.post(f"{base}/embed", json={"inputs": [long_text], "truncate": False})
        assert raw.status_code == 413 and raw.json()["error_type"] == "Validation"
        assert np.allclose(TeiEmbedder(base).embed([long_text]), minilm.embed([long_text]), atol=1e-5)


def test_tei_rerank_wire_format_orders_by_score(minilm):
    with serve(create_tei_app(minilm), "/health") as base:
        body = {"query": "when does gate B open", "texts": ["Gate B opens at 05:00 on weekdays.", "Invoices go to accounts payable."]}
        ranked = httpx.post(f"{base}/rerank", json=body).json()
        assert [r["index"] for r in ranked] == [0, 1]
        assert all(0.0 <= r["score"] <= 1.0 for r in ranked)


def test_tei_adapter_reports_an_unreachable_server_clearly():
    with pytest.raises(EmbedderError, match="cannot read /info"):
        _ = TeiEmbedder("http://127.0.0.1:9").model


def test_which_embedders_make_token_vectors_is_known_by_name_and_matches_the_models(minilm):
    from rag_serving.search.late_interaction import TokenEncoder

    assert makes_token_vectors("minilm") and isinstance(minilm, TokenEncoder)
    assert not makes_token_vectors("hashed-tfidf") and not isinstance(HashedTfidf(), TokenEncoder)
    assert not makes_token_vectors(" TEI ") and not hasattr(TeiEmbedder, "token_vectors")  # /embed pools on the server
