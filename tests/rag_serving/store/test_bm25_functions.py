"""Okapi BM25 is written once, as two SQL functions (migration 0008); their values worked by hand."""

import math

import pytest


def test_idf_is_the_lucene_form_of_the_okapi_idf(conn):
    # N = 10 chunks, df = 1: ln(1 + (10 − 1 + 0.5) / (1 + 0.5)) = ln(1 + 9.5 / 1.5) = ln(7.3333…)
    idf = conn.execute("SELECT bm25_idf(10, 1) AS v").fetchone()["v"]
    assert idf == pytest.approx(math.log(1 + 9.5 / 1.5)) and idf == pytest.approx(1.99243, abs=1e-5)


def test_saturated_term_frequency_at_the_average_length(conn):
    # tf 2, length = avgdl: 1 − b + b · 1 = 1, so 2 · (1.2 + 1) / (2 + 1.2) = 4.4 / 3.2 = 1.375
    assert conn.execute("SELECT bm25_tf(2, 10, 10, 1.2, 0.75) AS v").fetchone()["v"] == pytest.approx(1.375)


def test_a_longer_chunk_scores_a_term_lower(conn):
    # length twice the average: 1 − 0.75 + 0.75 · 2 = 1.75; 2 · 2.2 / (2 + 1.2 · 1.75) = 4.4 / 4.1
    row = conn.execute("SELECT bm25_tf(2, 20, 10, 1.2, 0.75) AS long, bm25_tf(2, 10, 10, 1.2, 0.75) AS avg").fetchone()
    assert row["long"] == pytest.approx(4.4 / 4.1) and row["long"] < row["avg"]


def test_a_words_dimension_is_the_first_32_bits_of_its_md5_modulo_a_billion(conn):
    # md5('leav') = 58dbfbe3…; 0x58dbfbe3 = 1,490,811,875; mod 999,999,999 = 490,811,876; + 1 (dimensions start at 1)
    assert conn.execute("SELECT bm25_term_id('leav') AS v").fetchone()["v"] == 490_811_877
