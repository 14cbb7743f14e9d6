"""Row-level security asserted at the database, through the serving role."""

import psycopg
import pytest

from rag_serving.store import apikeys
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant
from tests.searching import legs

ACME_HQ = Tenant("acme", ("hq",))
GLOBEX = Tenant("globex", ("main",))
SABBATICAL = "SELECT count(*) AS n FROM chunks WHERE body ILIKE '%%sabbatical%%'"


def test_without_a_tenant_every_content_table_reads_empty(corpus_app_db):
    with corpus_app_db.anonymous() as conn:
        for table in ("documents", "pages", "sections", "chunks", "chunk_terms", "bm25_stats", "chunk_token_vectors",
                      "chunk_sentence_vectors"):
            assert conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"] == 0, table


def test_token_vectors_of_another_organization_are_invisible(corpus_app_db):
    with corpus_app_db.session(GLOBEX) as conn:
        own = conn.execute("SELECT count(*) AS n, count(*) FILTER (WHERE organization_id <> 'globex') AS other "
                           "FROM chunk_token_vectors").fetchone()
    assert own["n"] > 0 and own["other"] == 0


def test_sentence_vectors_of_another_organization_are_invisible(corpus_app_db):
    with corpus_app_db.session(GLOBEX) as conn:
        own = conn.execute("SELECT count(*) AS n, count(*) FILTER (WHERE organization_id <> 'globex') AS other "
                           "FROM chunk_sentence_vectors").fetchone()
    assert own["n"] > 0 and own["other"] == 0


def test_another_organizations_answer_is_invisible(corpus_app_db):
    with corpus_app_db.session(GLOBEX) as conn:
        assert conn.execute(SABBATICAL).fetchone()["n"] > 0  # Globex's handbook has it
    with corpus_app_db.session(ACME_HQ) as conn:
        assert conn.execute(SABBATICAL).fetchone()["n"] == 0


@pytest.mark.parametrize("question", [
    "sabbatical after five years of service",
    "'; SELECT * FROM chunks WHERE organization_id = 'globex'; --",
    "globex') OR 1=1 --",
])
def test_search_returns_only_the_callers_rows_whatever_the_question_says(corpus_app_db, corpus_db, minilm, question):
    hits = legs(corpus_app_db, minilm)(ACME_HQ, question, k=20)
    with db.connect(corpus_db) as admin:
        orgs = {r["organization_id"] for r in admin.execute(
            "SELECT DISTINCT organization_id FROM chunks WHERE id = ANY(%s)", ([h.chunk_id for h in hits],))}
    assert orgs <= {"acme"}


def test_the_policy_reads_the_tenant_settings_once_per_statement_not_per_row(corpus_app_db):
    # Splitting app.rooftop_ids for every posting was half the time of a sparse-leg scan at 100k chunks (0014).
    with corpus_app_db.session(ACME_HQ) as conn:
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN SELECT count(*) FROM chunk_terms WHERE live"))
    assert "InitPlan" in plan and "string_to_array" not in plan.split("InitPlan")[0], plan


def test_every_rooftop_of_every_organization_reads_only_its_own_rows_in_every_table(corpus_app_db, corpus_db):
    tables = ("documents", "pages", "sections", "chunks", "chunk_terms", "bm25_stats", "term_stats",
              "chunk_token_vectors", "chunk_sentence_vectors")
    with db.connect(corpus_db) as owner:
        tenants = [(r["organization_id"], r["rooftop_id"]) for r in
                   owner.execute("SELECT DISTINCT organization_id, rooftop_id FROM documents ORDER BY 1, 2")]
        counts = {(t, o, r): owner.execute(f"SELECT count(*) AS n FROM {t} WHERE organization_id = %s AND rooftop_id = %s",
                                           (o, r)).fetchone()["n"] for t in tables for o, r in tenants}
    assert len(tenants) >= 3
    for organization, rooftop in tenants:
        with corpus_app_db.session(Tenant(organization, (rooftop,))) as conn:
            for table in tables:
                seen = conn.execute(f"SELECT organization_id, rooftop_id, count(*) AS n FROM {table} GROUP BY 1, 2")
                rows = {(r["organization_id"], r["rooftop_id"]): r["n"] for r in seen}
                expected = counts[(table, organization, rooftop)]
                assert rows == ({(organization, rooftop): expected} if expected else {}), (table, organization, rooftop)


def test_a_rooftop_sees_only_its_own_documents(corpus_app_db):
    with corpus_app_db.session(Tenant("acme", ("north-yard",))) as conn:
        rooftops = {r["rooftop_id"] for r in conn.execute("SELECT DISTINCT rooftop_id FROM documents")}
    assert rooftops == {"north-yard"}


def test_a_key_for_two_rooftops_sees_both(corpus_app_db):
    with corpus_app_db.session(Tenant("acme", ("hq", "north-yard"))) as conn:
        rooftops = {r["rooftop_id"] for r in conn.execute("SELECT DISTINCT rooftop_id FROM documents")}
    assert rooftops == {"hq", "north-yard"}


@pytest.mark.parametrize("statement", [
    "INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, "
    "pipeline_digest) VALUES ('x', 'acme', 'hq', 'x.md', repeat('0', 64), 'x.md', 'text/markdown', 'X', 'd')",
    "INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, "
    "pipeline_digest) VALUES ('x', 'globex', 'main', 'x.md', repeat('0', 64), 'x.md', 'text/markdown', 'X', 'd')",
    "UPDATE chunks SET body = 'changed'",
    "UPDATE documents SET organization_id = 'globex'",
    "DELETE FROM pages",
    "DELETE FROM chunk_terms",
])
def test_the_serving_role_writes_no_content_not_even_its_own_tenants(corpus_app_db, statement):
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        with corpus_app_db.session(ACME_HQ) as conn:
            conn.execute(statement)


def test_the_serving_role_cannot_read_api_keys_only_look_one_up(corpus_app_db, corpus_db):
    with db.connect(corpus_db, autocommit=True) as admin:
        key = apikeys.create_key(admin, "globex", ["main"], "lookup test")
    with corpus_app_db.anonymous() as conn:
        assert apikeys.tenant_for_key(conn, key) == GLOBEX
        assert apikeys.tenant_for_key(conn, key + "x") is None
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with corpus_app_db.anonymous() as conn:
            conn.execute("SELECT count(*) FROM api_keys")


def test_a_rooftop_neither_reads_nor_writes_another_rooftops_web_search_log(corpus_app_db, corpus_db):
    log = ("INSERT INTO web_fallbacks (organization_id, rooftop_id, query, provider, results) "
           "VALUES (%s, %s, 'rooftop log test', 'p', 0)")
    mine = "SELECT count(*) AS n FROM web_fallbacks WHERE query = 'rooftop log test'"
    with db.connect(corpus_db, autocommit=True) as admin:
        admin.execute(log, ("acme", "north-yard"))
        admin.execute(log, ("acme", "hq,north-yard"))
    try:
        with corpus_app_db.session(ACME_HQ) as conn:
            assert conn.execute(mine).fetchone()["n"] == 0
        with corpus_app_db.session(Tenant("acme", ("hq", "north-yard"))) as conn:
            assert conn.execute(mine).fetchone()["n"] == 2
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            with corpus_app_db.session(ACME_HQ) as conn:
                conn.execute(log, ("acme", "north-yard"))
    finally:
        with db.connect(corpus_db, autocommit=True) as admin:
            admin.execute("DELETE FROM web_fallbacks WHERE query = 'rooftop log test'")


def test_serving_role_cannot_bypass_security_or_read_raw_files(corpus_db):
    with db.connect(corpus_db) as admin:
        role = admin.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'rag_app'").fetchone()
        forced = admin.execute("SELECT relname FROM pg_class WHERE relforcerowsecurity AND relname = ANY(%s)",
                               (["documents", "pages", "sections", "chunks", "chunk_terms"],)).fetchall()
    assert role == {"rolsuper": False, "rolbypassrls": False}
    assert len(forced) == 5


def test_serving_role_reads_only_its_tenants_stored_files(corpus_app_db):
    # The cited page's PDF is served from files; a tenant reads exactly the files its own documents were made from.
    for tenant in (ACME_HQ, GLOBEX):
        with corpus_app_db.session(tenant) as s:
            files = {r["sha256"] for r in s.execute("SELECT sha256 FROM files")}
            own = {r["sha256"] for r in s.execute("SELECT sha256 FROM documents")}
        assert files == own and files
    with corpus_app_db.anonymous() as conn:
        assert conn.execute("SELECT count(*) AS n FROM files").fetchone()["n"] == 0


def test_serving_role_cannot_write_stored_files(corpus_app_db):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with corpus_app_db.session(ACME_HQ) as s:
            s.execute("DELETE FROM files")


def partition_of(corpus_db: str, organization: str) -> str:
    """The partition of chunks that holds the organization's rows (migration 0018), read as the owner."""
    with db.connect(corpus_db) as admin:
        return admin.execute("SELECT DISTINCT tableoid::regclass::text AS name FROM chunks WHERE organization_id = %s",
                             (organization,)).fetchone()["name"]


def test_the_serving_role_cannot_read_a_partition_of_chunks_around_its_policy(corpus_app_db, corpus_db):
    # The policy is on the parent (migration 0018); a partition read by name would skip it, so none is granted.
    partition = partition_of(corpus_db, "globex")
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        with corpus_app_db.session(GLOBEX) as conn:
            conn.execute(f"SELECT count(*) FROM {partition}")


def test_a_tenants_dense_search_reads_only_its_own_partition_of_chunks(corpus_app_db, corpus_db):
    # 32 partitions by hash of the organization; the tenant setting, an InitPlan of the policy, prunes the 31 others
    # as the statement runs: their scans are planned and never executed.
    own = partition_of(corpus_db, "acme")
    with corpus_app_db.session(ACME_HQ) as conn:
        plan = [r["QUERY PLAN"] for r in conn.execute(
            "EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM chunks WHERE embedding IS NOT NULL "
            "ORDER BY embedding::vector(384) <=> (SELECT embedding::vector(384) FROM chunks LIMIT 1) LIMIT 5")]
    scans = [(line.split(" on chunks_p")[1][:2], "never executed" not in line) for line in plan if " on chunks_p" in line]
    assert {"chunks_p" + p for p, ran in scans if ran} == {own}, plan
    assert len({p for p, ran in scans if not ran}) == 31, plan


def test_a_session_names_its_own_organization_whatever_the_caller_passes(corpus_app_db):
    with corpus_app_db.session(ACME_HQ) as session:
        row = session.execute("SELECT %(organization)s AS o", {"organization": "globex"}).fetchone()
    assert row["o"] == "acme"


def test_a_statement_naming_the_organization_is_planned_for_its_partition_alone(corpus_app_db, corpus_db):
    # Pruned by the value at planning, not by the policy's setting at run time: one partition in the plan, not 32.
    own = partition_of(corpus_db, "acme")
    with corpus_app_db.session(ACME_HQ) as session:
        plan = [r["QUERY PLAN"] for r in session.execute(
            "EXPLAIN (COSTS OFF) SELECT id FROM chunks c WHERE c.organization_id = %(organization)s", {})]
    assert [line.split(" on ")[1].split()[0] for line in plan if " on chunks_p" in line] == [own], plan
