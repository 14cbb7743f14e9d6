"""The ingest asset graph against a real PostgreSQL: bad files fail alone, versions swap atomically."""

from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from dagster import DagsterInstance, materialize

from rag_assets.assets.ingest import chunks, ingest_assets, pages, sections, source_documents
from rag_assets.ingest.registration import register_file
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target
from rag_assets.partitions import files_partitions
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from tests.pdfs import encrypted, pdf_with_image_page, text_pdf, zero_page_pdf

HANDBOOK_V1 = text_pdf(
    ["Acme Handbook", "1 Leave\n\nStaff get 12 weeks of parental leave.", "2 Hours\n\nCore hours are 10 to 4."],
    roman_front=1,
    outline=[("1 Leave", 0, 1), ("2 Hours", 0, 2)],
)
HANDBOOK_V2 = text_pdf(
    ["Acme Handbook", "1 Leave\n\nStaff get 16 weeks of parental leave.", "2 Hours\n\nCore hours are 10 to 4."],
    roman_front=1,
    outline=[("1 Leave", 0, 1), ("2 Hours", 0, 2)],
)


class BrokenTokenizer(TokenizerResource):
    """Simulates a crash part-way through ingest (after pages, during sections)."""

    def load(self):
        raise RuntimeError("simulated crash while sectioning")


def settings_digest() -> str:
    """The pipeline digest of resources_for's chunker: a version must be registered with the settings that build it."""
    return ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())


def resources_for(url: str, **overrides) -> dict:
    res = {
        "database": PostgresResource(url=url),
        "tokenizer": TokenizerResource(),
        "chunker": ChunkerResource(size=200, overlap=20, snap=20),
        "ocr": OcrResource(enabled=True),
        "embedder": EmbedderResource(name="hashed-tfidf"),
    }
    res.update(overrides)
    return res


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def run_batch(url, targets, **overrides):
    return ingest_targets(targets, url=url, resources=resources_for(url, **overrides), instance=DagsterInstance.ephemeral())


def crash_midway(url: str, path: Path) -> None:
    """Register a new version, write its pages, then run the rest of the graph with a tokenizer that dies."""
    with PostgresResource(url=url).connect() as c:
        digest = ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path=path.name, digest=digest)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    assert materialize([source_documents, pages], partition_key=reg.sha256, instance=instance,
                       resources=resources_for(url)).success
    rest = [a for a in ingest_assets if a.key not in (source_documents.key, pages.key)]
    result = materialize(rest, partition_key=reg.sha256, instance=instance,
                         resources=resources_for(url, tokenizer=BrokenTokenizer()), raise_on_error=False)
    assert not result.success


def live_bodies(conn, source_path="handbook.pdf") -> str:
    rows = conn.execute(
        "SELECT c.body FROM chunks c JOIN documents d ON d.id = c.document_id "
        "WHERE d.status = 'live' AND d.source_path = %s ORDER BY c.ordinal",
        (source_path,),
    ).fetchall()
    return " ".join(r["body"] for r in rows)


def test_each_bad_file_fails_alone_and_the_rest_of_the_batch_ingests(database_url, conn, tmp_path):
    files = {
        "good.pdf": HANDBOOK_V1,
        "empty.pdf": b"",
        "fake.pdf": b"just some text, not a pdf\n" * 10,
        "truncated.pdf": HANDBOOK_V1[:700],
        "corrupt.pdf": b"%PDF-1.7\n" + b"\x00garbage\xff" * 300 + b"\n%%EOF\n",
        "locked.pdf": encrypted(HANDBOOK_V1, "hunter2"),
        "open-encrypted.pdf": encrypted(HANDBOOK_V2, ""),
        "zero.pdf": zero_page_pdf(),
        "notes.md": b"# Notes\n\nThe canteen opens at 8.\n",
        "nul.md": b"# Notes\n\nThe canteen \x00 opens at 8.\n",
        "utf16.md": "# Notes\n\nThe canteen opens at 8.\n".encode("utf-16-le"),
        "blank.pdf": text_pdf(["", "", ""]),
    }
    targets = [Target(write(tmp_path, n, d), "acme", "hq", n) for n, d in files.items()]
    batch = run_batch(database_url, targets)
    states = {o.target.source_path: o.state for o in batch.outcomes}
    assert {n for n, s in states.items() if s == "new"} == {"good.pdf", "open-encrypted.pdf", "notes.md", "blank.pdf"}
    failed = {n for n, s in states.items() if s == "failed"}
    assert failed == {"empty.pdf", "fake.pdf", "truncated.pdf", "corrupt.pdf", "locked.pdf", "zero.pdf", "nul.md",
                      "utf16.md"}
    errors = {r["source_path"]: r for r in conn.execute("SELECT * FROM ingest_errors WHERE severity = 'error'").fetchall()}
    assert set(errors) == failed
    assert errors["empty.pdf"]["error_class"] == "EmptyFile"
    assert errors["fake.pdf"]["error_class"] == "NotAPdf"
    assert errors["truncated.pdf"]["error_class"] == "TruncatedPdf"
    assert errors["corrupt.pdf"]["error_class"] == "CorruptPdf"
    assert errors["locked.pdf"]["error_class"] == "PasswordProtectedPdf"
    assert errors["zero.pdf"]["error_class"] == "NoPages"
    assert errors["nul.md"]["error_class"] == errors["utf16.md"]["error_class"] == "NotUtf8Text"
    assert "NUL at byte" in errors["nul.md"]["message"]
    # Blank pages go live, flagged: nothing in them can ever be found.
    warned = conn.execute("SELECT error_class, message FROM ingest_errors WHERE severity = 'warning' "
                          "AND source_path = 'blank.pdf'").fetchall()
    assert [w["error_class"] for w in warned] == ["NoText"] and "no text on any of its 3 pages" in warned[0]["message"]
    for name, row in errors.items():
        assert row["message"].startswith(f"{name}: ")
    statuses = {r["source_path"]: r["status"] for r in conn.execute("SELECT source_path, status FROM documents")}
    assert statuses["good.pdf"] == statuses["blank.pdf"] == "live" and statuses["locked.pdf"] == "failed"
    assert "building" not in statuses.values()


def test_failed_file_message_reaches_the_dagster_run(database_url, tmp_path):
    path = write(tmp_path, "fake.pdf", b"not a pdf at all")
    instance = DagsterInstance.ephemeral()
    with PostgresResource(url=database_url).connect() as c:
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path="fake.pdf",
                            digest=settings_digest())
        c.commit()
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    result = materialize(ingest_assets, partition_key=reg.sha256, instance=instance,
                         resources=resources_for(database_url), raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert "fake.pdf: not a PDF" in failure.step_failure_data.user_failure_data.description


def test_unchanged_file_is_skipped_on_second_run(database_url, tmp_path):
    target = Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")
    assert run_batch(database_url, [target]).outcomes[0].state == "new"
    second = run_batch(database_url, [target]).outcomes[0]
    assert second.state == "unchanged"


def test_a_release_that_reads_files_differently_reads_an_unchanged_file_again(database_url, tmp_path, monkeypatch):
    # PIPELINE_VERSION is bumped whenever extraction reads the same bytes differently (re-spaced words, 9).
    target = Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")
    assert run_batch(database_url, [target]).outcomes[0].state == "new"
    monkeypatch.setattr("rag_assets.ingest.registration.PIPELINE_VERSION", "next")
    assert run_batch(database_url, [target]).outcomes[0].state == "changed"


def test_changed_file_replaces_the_old_version(database_url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")])
    path.write_bytes(HANDBOOK_V2)
    outcome = run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")]).outcomes[0]
    assert outcome.state == "changed"
    assert "16 weeks" in live_bodies(conn) and "12 weeks" not in live_bodies(conn)
    statuses = sorted(r["status"] for r in conn.execute("SELECT status FROM documents").fetchall())
    assert statuses == ["live", "superseded"]
    # The superseded version keeps its audit row but none of its searchable rows.
    assert conn.execute("SELECT count(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id "
                        "WHERE d.status = 'superseded'").fetchone()["n"] == 0
    # BM25's document frequencies count the live version's postings, the replaced one's no longer.
    assert conn.execute("SELECT organization_id, term, rooftop_id, df FROM term_stats ORDER BY 1, 2, 3").fetchall() == \
        conn.execute("SELECT organization_id, term, rooftop_id, count(*) AS df FROM chunk_terms WHERE live "
                     "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3").fetchall()


def test_crash_mid_ingest_leaves_the_old_version_live(database_url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")])
    before = live_bodies(conn)
    path.write_bytes(HANDBOOK_V2)
    crash_midway(database_url, path)
    assert live_bodies(conn) == before and "12 weeks" in before
    # The half-built version wrote pages, but nothing of it is live; the crash is on record.
    half = conn.execute("SELECT id, status, (SELECT count(*) FROM pages p WHERE p.document_id = d.id) AS pages "
                        "FROM documents d WHERE status <> 'live'").fetchone()
    assert half["status"] == "failed" and half["pages"] == 3
    error = conn.execute("SELECT stage, message FROM ingest_errors WHERE document_id = %s", (half["id"],)).fetchone()
    assert error["stage"] == "sections" and "simulated crash" in error["message"]


def test_bm25_scores_a_new_versions_postings_only_once_it_is_published(database_url, conn, tmp_path):
    from rag_assets.assets.ingest import published_documents
    from rag_serving.models.embedders import HashedTfidf
    from rag_serving.store.sessions import APP_ROLE, Database, Tenant
    from tests.searching import legs

    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")])
    path.write_bytes(HANDBOOK_V2)
    with PostgresResource(url=database_url).connect() as c:
        digest = ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=digest)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    built = [a for a in ingest_assets if a.key != published_documents.key]
    assert materialize(built, partition_key=reg.sha256, instance=instance, resources=resources_for(database_url)).success
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    search = legs(database, HashedTfidf())
    try:
        def bodies(question):
            return [h.body for h in search(Tenant("acme", ("hq",)), question, mode="sparse", k=5)]

        assert any("12 weeks" in b for b in bodies("weeks of parental leave"))
        assert not any("16 weeks" in b for b in bodies("weeks of parental leave"))  # built, not yet published
        assert materialize([published_documents], partition_key=reg.sha256, instance=instance,
                           resources=resources_for(database_url)).success
        found = bodies("weeks of parental leave")
        assert any("16 weeks" in b for b in found) and not any("12 weeks" in b for b in found)
    finally:
        database.close()


def test_retry_after_crash_completes_and_swaps(database_url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")])
    path.write_bytes(HANDBOOK_V2)
    crash_midway(database_url, path)
    outcome = run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")]).outcomes[0]
    assert outcome.state == "retry"
    assert "16 weeks" in live_bodies(conn)


def test_pages_keep_physical_index_and_printed_label(database_url, conn, tmp_path):
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")])
    rows = conn.execute("SELECT page_index, page_label FROM pages ORDER BY page_index").fetchall()
    assert [(r["page_index"], r["page_label"]) for r in rows] == [(1, "i"), (2, "1"), (3, "2")]


def test_chunks_carry_tenant_pages_labels_and_offsets(database_url, conn, tmp_path):
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")])
    rows = conn.execute("SELECT c.*, s.heading_path FROM chunks c LEFT JOIN sections s ON s.id = c.section_id "
                        "ORDER BY c.ordinal").fetchall()
    leave = next(r for r in rows if "12 weeks" in r["body"])
    assert (leave["organization_id"], leave["rooftop_id"]) == ("acme", "hq")
    assert (leave["page_start"], leave["page_end"], leave["page_label_start"]) == (2, 2, "1")
    assert leave["heading_path"] == "1 Leave"
    page = conn.execute("SELECT text FROM pages WHERE document_id = %s AND page_index = 2", (leave["document_id"],)).fetchone()
    assert page["text"][leave["char_start"]:leave["char_end"]] == leave["body"]
    assert conn.execute("SELECT %s::tsvector @@ plainto_tsquery('english', 'parental leave') AS hit",
                        (leave["tsv"],)).fetchone()["hit"]


def test_image_only_page_is_ocred_during_ingest(database_url, conn, tmp_path):
    pdf = pdf_with_image_page("Yard memo", ["GATE CODE 4417"])
    run_batch(database_url, [Target(write(tmp_path, "memo.pdf", pdf), "acme", "north-yard", "memo.pdf")])
    page = conn.execute("SELECT * FROM pages WHERE page_index = 2").fetchone()
    assert page["ocr"] and not page["has_text_layer"] and "4417" in page["text"]


def test_the_ocr_resource_sets_how_many_pages_ocrmypdf_reads_at_once(database_url, conn, tmp_path, monkeypatch):
    import ocrmypdf

    asked, real = [], ocrmypdf.ocr

    def spy(*args, **kwargs):
        asked.append(kwargs["jobs"])
        return real(*args, **kwargs)

    monkeypatch.setattr(ocrmypdf, "ocr", spy)
    pdf = pdf_with_image_page("Yard memo", ["GATE CODE 4417"], ["BAY SEVEN"])
    run_batch(database_url, [Target(write(tmp_path, "memo.pdf", pdf), "acme", "north-yard", "memo.pdf")],
              ocr=OcrResource(enabled=True, jobs=2))
    assert asked == [2]
    assert conn.execute("SELECT count(*) AS n FROM pages WHERE ocr").fetchone()["n"] == 2


def test_image_only_page_without_ocr_is_recorded_unreadable_with_warning(database_url, conn, tmp_path):
    pdf = pdf_with_image_page("Yard memo", ["GATE CODE 4417"])
    run_batch(database_url, [Target(write(tmp_path, "memo.pdf", pdf), "acme", "north-yard", "memo.pdf")],
              ocr=OcrResource(enabled=False))
    page = conn.execute("SELECT * FROM pages WHERE page_index = 2").fetchone()
    assert page["unreadable"] and not page["ocr"]
    warning = conn.execute("SELECT * FROM ingest_errors WHERE severity = 'warning'").fetchone()
    assert warning["page_index"] == 2 and "memo.pdf: page 2" in warning["message"]
    assert conn.execute("SELECT status FROM documents").fetchone()["status"] == "live"


def test_asset_functions_run_as_a_small_graph_with_swapped_resources(database_url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    reg = register_file(conn, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf",
                        digest=settings_digest())
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    result = materialize([source_documents, pages, sections, chunks], partition_key=reg.sha256, instance=instance,
                         resources=resources_for(database_url))
    assert result.success
    meta = result.asset_materializations_for_node("chunks")[0].metadata
    assert meta["chunks"].value >= 2 and meta["chunk_size"].value == 200
    # Without the publish asset nothing is live yet.
    assert conn.execute("SELECT status FROM documents").fetchone()["status"] == "building"


def test_invalid_tenant_id_is_refused_naming_the_field(database_url, conn, tmp_path):
    from rag_assets.ingest.registration import RegistrationError

    with pytest.raises(RegistrationError, match="organization_id 'Acme Corp' is invalid"):
        register_file(conn, write(tmp_path, "a.md", b"# A\n"), organization_id="Acme Corp", rooftop_id="hq",
                      source_path="a.md", digest="x")


def test_reingesting_unchanged_text_hits_the_embedding_cache(database_url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")])
    path.write_bytes(HANDBOOK_V2)  # one chunk's text changes, the others do not
    instance = DagsterInstance.ephemeral()
    with PostgresResource(url=database_url).connect() as c:
        digest = ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=digest)
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    result = materialize(ingest_assets, partition_key=reg.sha256, instance=instance, resources=resources_for(database_url))
    meta = result.asset_materializations_for_node("embeddings")[0].metadata
    assert meta["cache_hits"].value >= 1 and meta["cache_misses"].value >= 1
    assert meta["cache_hits"].value + meta["cache_misses"].value == meta["vectors"].value


def test_published_chunks_have_vectors_and_bm25_postings(database_url, conn, tmp_path):
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")])
    row = conn.execute("SELECT count(*) AS n, count(embedding) AS vectors, min(bm25_length) AS shortest FROM chunks").fetchone()
    assert row["n"] == row["vectors"] and row["shortest"] > 0
    tf = conn.execute("SELECT tf FROM chunk_terms WHERE term = 'week'").fetchone()["tf"]
    assert tf == 1  # "Staff get 12 weeks of parental leave." has "weeks" once
    assert conn.execute("SELECT count(*) AS n FROM pg_indexes WHERE indexname LIKE 'chunks_hnsw_%%'").fetchone()["n"] == 1


def test_published_chunks_carry_a_bm25_vector_with_a_dimension_per_posting(database_url, conn, tmp_path):
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")])
    rows = conn.execute("SELECT c.id, c.bm25_vector::text AS v, array_agg(bm25_term_id(p.term)) AS dims "
                        "FROM chunks c JOIN chunk_terms p ON p.chunk_id = c.id GROUP BY c.id, c.bm25_vector").fetchall()
    assert rows
    for row in rows:
        stored = [int(pair.split(":")[0]) for pair in row["v"].split("/")[0].strip("{}").split(",")]
        assert stored == sorted(row["dims"])


def test_token_vectors_are_stored_per_chunk_and_reused_for_unchanged_bodies(database_url, conn, tmp_path):
    from rag_serving.models.tokenization import load_tokenizer

    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    minilm = {"embedder": EmbedderResource(name="minilm")}
    ingest_targets([Target(path, "acme", "hq", "handbook.pdf")], url=database_url,
                   resources=resources_for(database_url, **minilm), instance=DagsterInstance.ephemeral())
    rows = conn.execute("SELECT c.body, v.tokens, v.dim, length(v.vectors) AS nbytes FROM chunks c "
                        "JOIN chunk_token_vectors v ON v.chunk_id = c.id").fetchall()
    assert len(rows) == conn.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"] > 0
    tokenizer = load_tokenizer()
    for r in rows:
        assert r["tokens"] == len(tokenizer.encode(r["body"], add_special_tokens=False).ids)
        assert r["nbytes"] == r["tokens"] * r["dim"] == r["tokens"] * 384

    path.write_bytes(HANDBOOK_V2)  # the leave chunk changes; the others keep their bodies
    instance = DagsterInstance.ephemeral()
    with PostgresResource(url=database_url).connect() as c:
        digest = ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=digest)
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    result = materialize(ingest_assets, partition_key=reg.sha256, instance=instance,
                         resources=resources_for(database_url, **minilm))
    # The changed chunk's token vectors came out of the embeddings step's forward pass; the others were reused.
    assert result.asset_materializations_for_node("embeddings")[0].metadata["token_vectors"].value >= 1
    meta = result.asset_materializations_for_node("token_vectors")[0].metadata
    assert meta["reused"].value >= 1 and "encoded" not in meta
    assert conn.execute("SELECT count(*) AS n FROM chunks c LEFT JOIN chunk_token_vectors v ON v.chunk_id = c.id "
                        "WHERE v.chunk_id IS NULL").fetchone()["n"] == 0
    # The superseded version's vectors went with its chunks.
    assert conn.execute("SELECT count(*) AS n FROM chunk_token_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id "
                        "WHERE c.id IS NULL").fetchone()["n"] == 0


def test_sentence_vectors_hold_each_chunks_quotable_sentences_and_are_reused(database_url, conn, tmp_path, minilm):
    import numpy as np

    from rag_serving.answer.evidence import quotable
    from rag_serving.answer.vectors import unit_vectors

    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    resources = resources_for(database_url, embedder=EmbedderResource(name="minilm"))
    ingest_targets([Target(path, "acme", "hq", "handbook.pdf")], url=database_url, resources=resources,
                   instance=DagsterInstance.ephemeral())
    rows = conn.execute("SELECT c.body, v.sentences, v.dim, v.vectors FROM chunks c "
                        "JOIN chunk_sentence_vectors v ON v.chunk_id = c.id").fetchall()
    assert len(rows) == conn.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"] > 0
    stored = {t for r in rows for t in r["sentences"]}
    assert "Staff get 12 weeks of parental leave." in stored
    for r in rows:
        assert r["sentences"] == list(dict.fromkeys(t for _, _, t in quotable(r["body"])))
        got = np.frombuffer(bytes(r["vectors"]), dtype="<f4").reshape(len(r["sentences"]), r["dim"])
        assert np.allclose(got, unit_vectors(minilm, r["sentences"]), atol=1e-6)

    path.write_bytes(HANDBOOK_V2)  # the leave chunk changes; the others keep their bodies
    with PostgresResource(url=database_url).connect() as c:
        digest = ChunkerResource(size=200, overlap=20, snap=20).digest(TokenizerResource().load())
        reg = register_file(c, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=digest)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
    meta = materialize(ingest_assets, partition_key=reg.sha256, instance=instance,
                       resources=resources).asset_materializations_for_node("sentence_vectors")[0].metadata
    assert meta["reused"].value >= 1 and meta["chunks"].value >= 1
    assert "Staff get 16 weeks of parental leave." in {
        t for r in conn.execute("SELECT sentences FROM chunk_sentence_vectors").fetchall() for t in r["sentences"]}


def test_a_pdf_whose_outline_repeats_and_overlaps_itself_ingests_once_per_passage(database_url, conn, tmp_path):
    body = ["Contents\nOverview of the quarter", "Revenue rose 4 percent to 3.6 billion dollars.\n" * 12,
            "Net income was 0.3 billion dollars.\n" * 12]
    # What a filing's bookmarks can look like: the same entry twice, two entries for one page, out of page order.
    outline = [("Overview", 0, 0), ("Results", 0, 1), ("Revenue", 0, 1), ("Results", 0, 1), ("Income", 0, 2),
               ("Overview", 0, 0)]
    path = write(tmp_path, "earnings.pdf", text_pdf(body, outline=outline))
    outcome = run_batch(database_url, [Target(path, "acme", "hq", "earnings.pdf")]).outcomes[0]
    assert outcome.state == "new", outcome.message
    rows = conn.execute("SELECT char_start, char_end, page_start, body FROM chunks ORDER BY page_start, char_start").fetchall()
    spans = [(r["page_start"], r["char_start"], r["char_end"]) for r in rows]
    assert len(spans) == len(set(spans))  # no passage chunked twice
    assert sum("Net income" in r["body"] for r in rows) >= 1 and sum("Revenue rose" in r["body"] for r in rows) >= 1


def test_when_the_database_goes_away_mid_batch_the_ingest_stops_with_one_line_and_a_summary(database_url, tmp_path):
    targets = [Target(write(tmp_path, f"{n}.md", f"# {n}\n\nThe {n} opens at 8.\n".encode()), "acme", "hq", f"{n}.md")
               for n in ("canteen", "gym", "library")]
    lines = []

    def say(line):
        lines.append(line)
        if "live:" in line:  # the first file is in; now the database disappears for good
            with psycopg.connect(make_conninfo(database_url, dbname="postgres"), autocommit=True) as admin:
                admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(
                    sql.Identifier(conninfo_to_dict(database_url)["dbname"])))

    batch = ingest_targets(targets, url=database_url, resources=resources_for(database_url),
                           instance=DagsterInstance.ephemeral(), say=say)
    assert batch.stopped and "database is unreachable" in batch.stopped
    assert [o.state for o in batch.outcomes] == ["new", "failed"]  # the third file is not attempted
    assert sum("STOPPED" in line for line in lines) == 1 and "1 of 3 files were done" in lines[-1]
