"""Reranker training: judged per collection by a model trained only on the other collections."""

import dataclasses
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rag_assets.evaluation import training as rt
from rag_assets.evaluation.golden import GoldenCase
from rag_serving.search.features import FEATURES
from tests.rag_serving.answer.test_evidence import hit

REPO = Path(__file__).resolve().parents[3]


def _query(source: str, i: int, rng: np.random.Generator) -> rt.TrainingQuery:
    """Ten candidates, one per page; the relevant one (page 6) is sixth in fused order, and feature 0 marks it."""
    hits = [dataclasses.replace(hit(f"passage {p}", chunk_id=f"{source}{i}-{p}"), page_start=p, page_end=p)
            for p in range(1, 11)]
    case = GoldenCase(id=f"{source}-{i}", tenant={"organization": "o", "rooftops": ["r"]}, question="q",
                      relevant=[{"document": hits[0].source_path, "page": 6, "grade": 2}])
    features = rng.normal(size=(10, len(FEATURES)))
    features[:, 0] = 0.0
    features[5, 0] = 3.0
    return rt.TrainingQuery(source, case, hits, [2 if p == 6 else 0 for p in range(1, 11)], features)


def test_each_collection_is_judged_by_a_model_trained_on_the_others():
    rng = np.random.default_rng(0)
    queries = [_query(source, i, rng) for source in ("a", "b") for i in range(40)]
    report = rt.leave_one_source_out(queries, rt.boosted)
    # Fused: the one relevant page at rank 6, NDCG = (1 / log2 7) / 1; reranked: first, NDCG 1.
    for held, other in (("a", ["b"]), ("b", ["a"])):
        assert report[held]["trained_on"] == other and report[held]["queries"] == 40
        assert report[held]["fused"] == pytest.approx(1 / math.log2(7), abs=1e-4)
        assert report[held]["reranked"] == 1.0
        assert report[held]["difference_ci"][0] > 0


def test_each_row_is_predicted_by_a_model_that_never_saw_it():
    from sklearn.dummy import DummyClassifier

    y = np.array([1, 0, 1, 0, 1, 1])
    groups = np.array([0, 0, 1, 1, 2, 2])
    # The prior's P(1) is the share of positives in the rows it was fitted on: 3 of 4, 3 of 4, then 2 of 4.
    p = rt.held_out(lambda: DummyClassifier(strategy="prior"), np.zeros((6, 1)), y, np.ones(6),
                    (groups == g for g in range(3)))
    assert p.tolist() == [0.75, 0.75, 0.75, 0.75, 0.5, 0.5]


def test_models_fit_in_one_openmp_thread_even_when_scikit_learn_is_first_imported_by_the_fit():
    probe = (
        "import sys; import numpy as np; from threadpoolctl import threadpool_info\n"
        "from rag_assets.evaluation import training as rt\n"
        "seen, imported_before = [], 'sklearn' in sys.modules\n"
        "def make_model():\n"
        "    model = rt.boosted()\n"
        "    seen.append({lib['num_threads'] for lib in threadpool_info() if lib['user_api'] == 'openmp'})\n"
        "    return model\n"
        "rt.fit_weighted(make_model, np.arange(20.0).reshape(10, 2), np.array([0, 1] * 5), np.ones(10))\n"
        "print(imported_before, seen)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "2"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "[{1}]"]
