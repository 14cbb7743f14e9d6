"""The serving package stands alone: it never imports Dagster or the assets package."""

import subprocess
import sys

MODULES = ["rag_serving.api", "rag_serving.retrieval", "rag_serving.tei_server", "rag_serving.__main__",
           "rag_serving.apikeys", "rag_serving.catalog", "rag_serving.db", "rag_serving.embedders"]


def test_serving_modules_import_neither_dagster_nor_rag_assets():
    code = ("import sys, importlib\n"
            f"for m in {MODULES!r}: importlib.import_module(m)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'rag_assets'))\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
