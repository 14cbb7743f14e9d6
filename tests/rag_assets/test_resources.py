"""The Dagster resources' choices that differ from serving's."""

from rag_assets.resources import EmbedderResource


def test_ingest_and_evaluation_runs_embed_with_onnxruntimes_arena():
    embedder = EmbedderResource(name="minilm").get()
    assert embedder._session.get_session_options().enable_cpu_mem_arena
