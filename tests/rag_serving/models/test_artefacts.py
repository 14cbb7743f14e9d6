"""Shipped tree models predict in the calling thread alone, without touching other threads' OpenMP settings."""

import threading

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from threadpoolctl import ThreadpoolController

from rag_serving.models.artefacts import Trees


def openmp_threads() -> int:
    return ThreadpoolController().select(user_api="openmp").info()[0]["num_threads"]


class Recording:
    """Wraps a real classifier and records the OpenMP thread limit it predicted under."""

    def __init__(self, model):
        self.model, self.seen = model, []

    def predict_proba(self, x):
        self.seen.append(openmp_threads())
        return self.model.predict_proba(x)


def test_probabilities_are_the_models_and_each_thread_keeps_its_own_limit():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 4))
    model = HistGradientBoostingClassifier(max_iter=20).fit(x, (x[:, 0] + x[:, 1] > 0).astype(int))
    recording = Recording(model)
    trees = Trees(recording)
    before = openmp_threads()
    assert before > 1  # the machine has two cores: otherwise the limit below could not be told apart
    assert np.array_equal(trees.positive(x[:50]), model.predict_proba(x[:50])[:, 1])
    barrier, outside = threading.Barrier(8), []

    def request():
        barrier.wait()
        trees.positive(x[:50])
        outside.append(openmp_threads())

    workers = [threading.Thread(target=request) for _ in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert recording.seen == [1] * 9  # every prediction ran with one thread
    assert outside == [before] * 8 and openmp_threads() == before  # and every thread got its own limit back
