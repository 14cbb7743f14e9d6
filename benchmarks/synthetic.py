"""The latency benchmark's corpus: SciFact's abstracts and vectors made into N distinct chunks, loaded and indexed."""

from __future__ import annotations

import time

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from rag_assets.evaluation.beir import insert_entries
from rag_assets.ingest.embedding_cache import as_array
from rag_assets.ingest.publish import bm25_index_deferred, ensure_vector_index, hnsw_index_name
from rag_assets.ingest.queries import sql_text as ingest_sql
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant

from .common import bench_database

TENANT = Tenant("bench", ("scifact",))


def scifact_vectors(embedder) -> tuple[list[str], np.ndarray]:
    """Texts and vectors from the SciFact benchmark's database (run `python -m benchmarks.scifact` first)."""
    url = bench_database("bench_scifact", fresh=False)
    with db.connect(url) as conn:
        register_vector(conn)
        rows = conn.execute("SELECT body, embedding FROM chunks WHERE embedding_model = %s ORDER BY id",
                            (embedder.model,)).fetchall()
    if not rows:
        raise SystemExit("no SciFact vectors yet: run `python -m benchmarks.scifact` first")
    return [r["body"] for r in rows], np.vstack([as_array(r["embedding"]) for r in rows])


def tenant_of(i: int, size: int, tenants: int) -> Tenant:
    """Chunk i's tenant: one organization for the whole corpus, or `tenants` organizations of size / tenants chunks
    each (t00 holds the SciFact originals; the queries run as t00)."""
    return TENANT if tenants == 1 else Tenant(f"t{i * tenants // size:02d}", TENANT.rooftop_ids)


def copies(texts: list[str], base: np.ndarray, i: int, rng) -> tuple[str, np.ndarray]:
    """Chunk i of the `copies` corpus: abstract i mod n, from the second round on with a suffix and a slightly
    perturbed vector (every tenant's copies are near-duplicates of each other's)."""
    j = i % len(texts)
    if i < len(texts):
        return texts[j], base[j]
    return f"{texts[j]} (copy {i // len(texts)})", base[j] + rng.normal(0, 0.02, base.shape[1]).astype(np.float32)


# Chunks per document in the `realistic` corpus: a handbook section or a filing's note, not one abstract per file.
PER_DOCUMENT = 20


def realistic(texts: list[str], base: np.ndarray, i: int, rng) -> tuple[str, np.ndarray]:
    """Chunk i of the `realistic` corpus: the abstracts themselves, then chunks that join the first half of their
    document's topic abstract to the second half of another, with the mean of the two vectors (no two chunks alike,
    a document's chunks about one topic, a tenant's text its own, the vocabulary SciFact's)."""
    if i < len(texts):
        return texts[i], base[i]
    topic = int(np.random.default_rng(i // PER_DOCUMENT).integers(len(texts)))
    other = int(rng.integers(len(texts)))
    head, tail = texts[topic].split(), texts[other].split()
    text = " ".join(head[: len(head) // 2] + tail[len(tail) // 2:])
    return text, base[topic] + base[other] + rng.normal(0, 0.01, base.shape[1]).astype(np.float32)


CORPORA = {"copies": copies, "realistic": realistic}


# Past this many chunks the build loads in slices of this size, each its own transaction, and builds both graphs once
# at the end: the 1M build runs for hours on two cores, and one stopped part-way resumes at its first missing slice.
SLICE = 100_000


def generated(embedder, size: int, tenants: int, corpus: str) -> list[tuple[Tenant, tuple[str, str, str], np.ndarray]]:
    """The corpus's chunks in order, each with its tenant, (id, title, text) and unit vector (the same every time)."""
    texts, base = scifact_vectors(embedder)
    rng = np.random.default_rng(7)
    out = []
    for i in range(size):
        text, vec = CORPORA[corpus](texts, base, i, rng)
        out.append((tenant_of(i, size, tenants), (f"d{i}", f"d{i}", text), vec / np.linalg.norm(vec)))
    return out


def load(conn, embedder, rows, per_document: int) -> None:
    """Rows as live documents, tenant by tenant, with their postings and statistics; the graphs are the caller's."""
    groups: dict[Tenant, tuple[list, list]] = {}
    for tenant, entry, vector in rows:
        entries, vectors = groups.setdefault(tenant, ([], []))
        entries.append(entry)
        vectors.append(vector)
    for tenant, (entries, vectors) in groups.items():
        insert_entries(conn, entries, vectors, tenant.rooftop_ids[0], embedder, tenant.organization_id,
                       per_document=per_document, indexes=False)


def build(url: str, embedder, size: int, tenants: int = 1, corpus: str = "copies",
          memory: str = "1GB") -> float | None:
    """`size` chunks made from the SciFact abstracts and their vectors (embedding 100k real texts would take hours on
    two cores; the index sees 100k distinct vectors): `copies` (one chunk per document) or `realistic` (PER_DOCUMENT
    chunks per document), in one organization or spread over `tenants` organizations (a shared server: each query reads
    its own tenant's postings and walks its own partition's graphs). Both graphs are built once, after the load, with
    `memory` of maintenance_work_mem. Returns the seconds it took, None when the database already held them."""
    per_document = PER_DOCUMENT if corpus == "realistic" else 1
    with db.connect(url, autocommit=True) as conn:
        register_vector(conn)
        if size > SLICE:
            return build_sliced(conn, embedder, size, tenants, corpus, memory, per_document)
        if conn.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"] == size:
            return None
        conn.execute("TRUNCATE documents CASCADE")
        rows = generated(embedder, size, tenants, corpus)
        t0 = time.perf_counter()
        # One bulk load for all tenants, the sparse graph built again once at the end and the dense one created after
        # the load (created after the first tenant's, it took the others' chunks one at a time).
        with conn.transaction(), bm25_index_deferred(conn, size):
            load(conn, embedder, rows, per_document)
            conn.execute(sql.SQL("SET LOCAL maintenance_work_mem = {}").format(sql.Literal(memory)))
            ensure_vector_index(conn, embedder.model, embedder.dim)
        settle(conn)
        seconds = time.perf_counter() - t0
        print(f"built {size} chunks in {seconds:.0f} s", flush=True)
        return seconds


def build_sliced(conn, embedder, size: int, tenants: int, corpus: str, memory: str,
                 per_document: int) -> float | None:
    """The build past SLICE chunks: the sparse graph dropped once (its definition kept in the database until it is
    built again), SLICE chunks per committed transaction from the first missing one, then both graphs."""
    have = conn.execute("SELECT count(*) AS n FROM chunks").fetchone()["n"]
    if have % SLICE or have > size:  # never truncate what this build did not write
        raise SystemExit(f"{have} chunks in the database, not a sliced build of {size}: drop it to start again")
    conn.execute("CREATE TABLE IF NOT EXISTS bench_pending_index (ddl text NOT NULL)")
    dense = hnsw_index_name(embedder.model)
    pending = conn.execute("SELECT ddl FROM bench_pending_index").fetchone()
    built = conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", (dense,)).fetchone()
    if have == size and not pending and built:
        return None
    t0 = time.perf_counter()
    with conn.transaction():
        index = conn.execute(ingest_sql("bm25_index_definition")).fetchone()
        if index is not None:
            conn.execute("INSERT INTO bench_pending_index (ddl) VALUES (%s)", (index["ddl"],))
            conn.execute("DROP INDEX chunks_bm25_hnsw")
        if built and have < size:  # a graph built before the load ended would take each new chunk one at a time
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(dense)))
    if have < size:
        rows = generated(embedder, size, tenants, corpus)
        for start in range(have, size, SLICE):
            started = time.perf_counter()
            with conn.transaction():
                load(conn, embedder, rows[start:start + SLICE], per_document)
            print(f"chunks {start + SLICE}/{size} in {time.perf_counter() - started:.0f} s", flush=True)
        del rows
    for step in ("sparse", "dense"):
        started = time.perf_counter()
        with conn.transaction():
            conn.execute(sql.SQL("SET LOCAL maintenance_work_mem = {}").format(sql.Literal(memory)))
            if step == "sparse":
                pending = conn.execute("SELECT ddl FROM bench_pending_index").fetchone()
                if pending:
                    conn.execute(pending["ddl"])
                    conn.execute("DELETE FROM bench_pending_index")
            else:
                ensure_vector_index(conn, embedder.model, embedder.dim)
        print(f"{step} graph in {time.perf_counter() - started:.0f} s", flush=True)
    settle(conn)
    seconds = time.perf_counter() - t0
    print(f"built {size} chunks in {seconds:.0f} s (this run's part)", flush=True)
    return seconds


def settle(conn) -> None:
    """Vacuum and checkpoint after a bulk write, so the timings that follow do not share the disk and cores with the
    autovacuum and checkpoint it sets off: runs just after a build or a copy measured p95 up to 4x their settled
    values (docs/results.md, "Scale")."""
    conn.execute("VACUUM ANALYZE")
    try:
        conn.execute("CHECKPOINT")
    except psycopg.errors.InsufficientPrivilege:  # a managed server's owner may not checkpoint; its own will
        print("CHECKPOINT not permitted for this role; timings may share the disk with the server's checkpoint")


def copy_token_vectors(url: str, size: int) -> None:
    """Token vectors for the reranker's MaxSim feature: each SciFact abstract's from the SciFact benchmark's database,
    and chunk i beyond them gets abstract i mod n's (a copy's own original; a realistic chunk one of the same length
    as abstracts go: this measures time, not ranking). ~12 GB at 100k chunks."""
    with db.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT count(*) AS n FROM chunk_token_vectors").fetchone()["n"] == size:
            return
        t0 = time.perf_counter()
        conn.execute("DELETE FROM chunk_token_vectors")
        with db.connect(bench_database("bench_scifact", fresh=False)) as source:
            originals = source.execute(
                "SELECT t.model, t.tokens, t.dim, t.vectors, t.scales FROM chunks c "
                "JOIN chunk_token_vectors t ON t.chunk_id = c.id ORDER BY c.id").fetchall()
        with conn.transaction():
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens,"
                    " dim, vectors, scales) SELECT c.id, %(model)s, c.organization_id, c.rooftop_id,"
                    " encode(sha256(convert_to(c.body, 'UTF8')), 'hex'), %(tokens)s, %(dim)s, %(vectors)s, %(scales)s"
                    " FROM chunks c WHERE c.id = %(id)s",
                    [{**r, "id": f"d{j}"} for j, r in enumerate(originals)])
            conn.execute(
                "INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens, dim,"
                " vectors, scales) SELECT c.id, o.model, c.organization_id, c.rooftop_id,"
                " encode(sha256(convert_to(c.body, 'UTF8')), 'hex'), o.tokens, o.dim, o.vectors, o.scales"
                " FROM chunks c JOIN chunk_token_vectors o ON o.chunk_id = 'd' || (substr(c.id, 2)::int %% %s)"
                " WHERE substr(c.id, 2)::int >= %s", (len(originals), len(originals)))
        settle(conn)
        print(f"token vectors for {size} chunks in {time.perf_counter() - t0:.0f} s", flush=True)

