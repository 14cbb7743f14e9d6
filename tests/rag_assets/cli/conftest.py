"""A user's environment for the `rag` command: the embedded default, or an external server."""

import os
import subprocess

import pytest

from tests.rag_assets.cli.commands import RAG, REPO


def user_env(tmp_path) -> dict[str, str]:
    """This process's environment without any RAG_ or DAGSTER_ setting, and RAG_HOME in the test's folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "DAGSTER_"))}
    env["RAG_HOME"] = str(tmp_path / "h")
    return env


@pytest.fixture
def embedded_env(tmp_path):
    """A user's environment with nothing configured but RAG_HOME: the embedded default."""
    env = user_env(tmp_path)
    yield env
    subprocess.run(RAG + ["db", "stop"], env=env, cwd=REPO, capture_output=True, timeout=600)


@pytest.fixture
def external_env(tmp_path, database_url):
    """RAG_DATABASE_URL pointing at an already running server (here: the test session's)."""
    return {**user_env(tmp_path), "RAG_DATABASE_URL": database_url}
