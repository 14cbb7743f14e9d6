"""Where a result came from: the git commit of the code that produced it."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
# Where the commands write what they printed (report.save_result); outputs, not code.
RESULTS = Path("benchmarks") / "results"


def git_commit(root: Path = REPO_ROOT) -> str:
    """Short commit, with "-dirty" when the working tree has uncommitted changes to tracked files. Results files
    (benchmarks/results/) do not count: they are what the commands write, and a second run of a command appends to
    the file the first one wrote."""
    head = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=root, capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown"
    changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                              f":(exclude){RESULTS.as_posix()}"], cwd=root, capture_output=True, text=True)
    return head.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")
