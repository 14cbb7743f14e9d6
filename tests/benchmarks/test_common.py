"""Benchmark helpers: a public set's ingest is reused only when today's pipeline read it."""

from benchmarks.common import live_current
from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.resources import ChunkerResource


def test_every_document_read_by_this_pipeline_counts_and_none_under_other_chunking(corpus_db, sample_corpus):
    assert live_current(corpus_db, ChunkerResource()) == len(tenant_folder_targets(sample_corpus))
    assert live_current(corpus_db, ChunkerResource(size=ChunkerResource().size + 1)) == 0
