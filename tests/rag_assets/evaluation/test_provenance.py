"""The commit a result names: dirty for changed code, not for the results files the commands write."""

import subprocess

from rag_assets.evaluation.provenance import git_commit


def _git(root, *args):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                          capture_output=True, text=True).stdout.strip()


def test_a_changed_results_file_leaves_the_commit_clean_and_changed_code_does_not(tmp_path):
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "benchmarks" / "results" / "run.md").write_text("first run\n")
    (tmp_path / "code.py").write_text("x = 1\n")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "start")
    head = _git(tmp_path, "rev-parse", "--short=7", "HEAD")
    assert git_commit(tmp_path) == head
    (tmp_path / "benchmarks" / "results" / "run.md").write_text("first run\nsecond run\n")
    (tmp_path / "benchmarks" / "results" / "new.md").write_text("untracked\n")
    assert git_commit(tmp_path) == head
    (tmp_path / "code.py").write_text("x = 2\n")
    assert git_commit(tmp_path) == f"{head}-dirty"


def test_outside_a_repository_the_commit_is_unknown(tmp_path):
    assert git_commit(tmp_path) == "unknown"
