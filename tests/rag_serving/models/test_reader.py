"""The shipped answer reader: it reads, answers in input order, is refused when altered, and is safe from threads."""

import json
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

from rag_serving.models.artefacts import ArtefactError
from rag_serving.models.reader import AnswerReader

QUESTION = "How many days of paid annual leave do full-time employees get?"
SENTENCES = [
    "Full-time employees are entitled to 27 days of paid annual leave per calendar year.",
    "Requests for annual leave are made in the HR portal at least two weeks ahead.",
    "The X200 controller raises an alarm when the door stays open for more than five minutes.",
]


@pytest.fixture(scope="module")
def reader():
    return AnswerReader()


def test_the_answering_sentence_reads_highest(reader):
    scores = reader.scores(QUESTION, SENTENCES)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[0] > 0.5 > scores[2] and scores[0] > scores[1]


def test_scores_follow_input_order_whatever_the_batching(reader):
    forward = reader.scores(QUESTION, SENTENCES * 15)  # 45 pairs: two batches, sorted by length inside
    backward = reader.scores(QUESTION, SENTENCES[::-1])
    assert forward[:3] == pytest.approx(backward[::-1], abs=1e-5)
    assert forward[3:6] == pytest.approx(forward[:3], abs=1e-5)


def test_a_sentence_longer_than_the_input_is_read_not_refused(reader):
    [score] = reader.scores(QUESTION, ["Full-time employees get 27 days of paid annual leave. " + "More words. " * 200])
    assert 0.0 <= score <= 1.0


def test_reading_from_eight_threads_gives_the_single_threaded_scores(reader):
    questions = [QUESTION, "What does the X200 do when the door stays open?", "Where are leave requests made?"] * 8
    alone = [reader.scores(q, SENTENCES) for q in questions]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda q: reader.scores(q, SENTENCES), questions))
    assert together == alone


def test_an_altered_model_file_is_refused_naming_it(tmp_path):
    meta = AnswerReader.default_path()
    shutil.copy(meta, tmp_path / meta.name)
    model = tmp_path / meta.with_suffix(".onnx").name
    model.write_bytes(meta.with_suffix(".onnx").read_bytes()[:-1] + b"\x00")
    with pytest.raises(ArtefactError, match=f"answer reader {model}: sha256 differs"):
        AnswerReader(path=tmp_path / meta.name)


def test_the_shipped_reader_records_what_it_was_trained_on():
    data = json.loads(AnswerReader.default_path().read_text())
    assert set(data["training"]["sources"]) == {"squad2-train", "golden-dev"}
    unseen = data["metrics"]["golden_dev_unseen"]
    assert unseen["top1_answers_reader"] >= unseen["top1_answers_formula"]
