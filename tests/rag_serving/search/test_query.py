"""A question's vector and token vectors come from one forward pass, equal to what each would be alone."""

import numpy as np

from rag_serving.search.query import Query


class Counting:
    """The real MiniLM, counting forward passes."""

    def __init__(self, model):
        self.model, self.passes = model, 0
        self.dim = model.dim

    def embed(self, texts):
        self.passes += 1
        return self.model.embed(texts)

    def encode(self, texts):
        self.passes += 1
        return self.model.encode(texts)

    def token_vectors(self, texts):
        self.passes += 1
        return self.model.token_vectors(texts)


def test_one_pass_gives_the_vector_and_the_token_vectors(minilm):
    question = "How many weeks of parental leave do staff get?"
    counting = Counting(minilm)
    query = Query(question, counting)
    vector, tokens = query.vector, query.token_vectors(counting)
    assert counting.passes == 1
    assert np.array_equal(vector, minilm.embed([question])[0])
    assert np.array_equal(tokens, minilm.token_vectors([question])[0])


def test_another_encoder_encodes_the_question_itself(minilm):
    counting = Counting(minilm)
    query = Query("core hours", minilm)
    assert np.array_equal(query.token_vectors(counting), minilm.token_vectors(["core hours"])[0])
    assert counting.passes == 1
