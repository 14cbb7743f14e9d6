"""The `rag` command as a user calls it, from the repository, in the environment a test gives it."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
RAG = [sys.executable, "-m", "rag_assets.cli"]


def run(args, env, timeout=1800):
    return subprocess.run(RAG + args, env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout)
