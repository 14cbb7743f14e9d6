"""SQL read from package files: every statement the code names exists, and the read-once cache is shared safely."""

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rag_serving.store.sqlfiles import package_sql, sql_text

ROOT = Path(__file__).resolve().parents[3]
CALLS = re.compile(r'sql_text\("([a-z0-9_]+)"\)')
PACKAGES = {"rag_serving": ROOT / "rag_serving/store/sql", "rag_assets/ingest": ROOT / "rag_assets/ingest/sql",
            "rag_assets/evaluation": ROOT / "rag_assets/evaluation/sql"}


@pytest.mark.parametrize("code, folder", PACKAGES.items())
def test_every_statement_the_code_names_is_a_file(code, folder):
    named = {m for p in (ROOT / code).rglob("*.py") for m in CALLS.findall(p.read_text(encoding="utf-8"))}
    assert named and named <= {p.stem for p in folder.glob("*.sql")}


def test_a_missing_statement_names_the_file():
    with pytest.raises(FileNotFoundError, match="no_such_statement.sql"):
        sql_text("no_such_statement")


def test_many_threads_read_the_same_text():
    names = ["bm25_pruned", "dense", "hybrid", "hydrate", "question_terms", "candidate_features", "set_tenant"] * 40
    expected = {n: (ROOT / "rag_serving/store/sql" / f"{n}.sql").read_text(encoding="utf-8") for n in set(names)}
    package_sql.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(sql_text, names)) == [expected[n] for n in names]
