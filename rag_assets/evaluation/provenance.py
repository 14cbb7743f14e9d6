"""Where a result came from: the git commit of the code that produced it."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def git_commit() -> str:
    """Short commit, with "-dirty" when the working tree has uncommitted changes."""
    out = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=REPO_ROOT,
                         capture_output=True, text=True)
    return out.stdout.strip() or "unknown"
