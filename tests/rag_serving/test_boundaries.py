"""The serving package stands alone: no module of it imports Dagster or the assets package."""

import pkgutil
import subprocess
import sys

import rag_serving

MODULES = sorted(m.name for m in pkgutil.walk_packages(rag_serving.__path__, "rag_serving.")
                 if not m.name.endswith("__main__"))


def test_every_serving_module_imports_neither_dagster_nor_rag_assets():
    code = ("import sys, importlib\n"
            f"for m in {MODULES!r}: importlib.import_module(m)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'rag_assets'))\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert len(MODULES) > 30 and out == ""
