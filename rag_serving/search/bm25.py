"""Exact BM25 top-k that reads only the rarer words' postings (MaxScore): the terms' split and its retries."""

from __future__ import annotations

import math
from dataclasses import dataclass

from psycopg import sql

from rag_serving.search.hits import Filters
from rag_serving.search.query import Query, Terms
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import composed, sql_text

# Margin between θ and the common words' bound, as in bm25_pruned.sql: far above the last bits of a float sum.
MARGIN = 1e-6
# Candidates scored in full to set θ, as a multiple of the LIMIT: more find a higher θ (fewer candidates to probe,
# fewer retried splits) for a few index probes each; 1 and 4 measured alike at 100k chunks (benchmarks.latency).
HEAD = 4
# Below this many postings of the question's words, reading them all (about a microsecond each) costs less than
# proving a split (a statement that fully scores HEAD × LIMIT candidates, then usually a second): 8 vs 12 ms at p50 for
# a tenant of 10k chunks, 69 vs 31 ms for one of 100k (benchmarks.latency with and without --tenants 10).
EVERY_POSTING_BELOW = 20_000
# A common word with fewer postings than this many times the candidates still in the running is read whole and summed
# with them instead of probed once per candidate (bm25_pruned.sql). A probe costs a few times what a posting read and
# summed does, but probing drops candidates word by word while reading whole sends every candidate through one more
# aggregate: at 100k chunks (one tenant, 100 SciFact questions, three one-off runs) p95 was 59-66 ms probing every
# word, 46-48 at 1, 52-54 at 2, 52 at 3, 58 at 4 and 70 at 8.
SCAN_RATIO = 1.0
# The approximate top k (bm25_ann.sql) for a question whose words have EVERY_POSTING_BELOW postings or more: NEAR chunks
# from the HNSW index over stored tf parts (m 32, migration 0016), searched with EF_SEARCH, plus the RARE_HEAD × LIMIT
# chunks scoring best on the rarest words alone, taken while those words' postings stay under RARE_POSTINGS; the
# HEAD_ANN × LIMIT best of those by stored weights are scored exactly. NEAR, EF_SEARCH and RARE_POSTINGS were set on
# SciFact's 300 test claims at 100k chunks (one tenant) against MaxScore's top 50: with this index a budget of 2,000
# postings kept 0.993 of it (0.998 of the top 10), 5,000 kept 0.997 (0.999) for a quarter more time. RARE_HEAD and
# HEAD_ANN on the same claims (docs/decisions.md, "BM25's candidates"): ranking every rare chunk by its stored vector
# read up to 2,000 chunk rows; the best 200 by their rare words' postings kept 0.985 (0.996 of the top 10) with
# nDCG@10 unchanged, and scoring 75 exactly kept what scoring 100 did, p95 21.3 -> 17.3 ms. Then EF_SEARCH on the same
# claims, each question trying 100, 150 and 200 in turn: kept 0.964 / 0.976 / 0.985, nDCG@10 0.4742 / 0.4739 / 0.4739
# against MaxScore's 0.4730, p95 20.1 / 23.0 / 25.0 ms: the walk is half the leg, and what it adds past 100 is recall
# of ranks below the top 10. Past EF_GROWS_FROM chunks in the tenant the walk deepens by EF_SEARCH per tenfold
# (`walk_depth`): at 1M chunks (one tenant, SciFact's 300 test claims, each question trying 100, 150 and 200 in turn)
# the walk at 100 kept 0.808 of the exact top 50 with nDCG@10 0.2724 against exact BM25's 0.2784; at 200, 0.885 and
# 0.2864, for p95 19.9 -> 29.1 ms (docs/decisions.md, "BM25's candidates"). Set on the first 100 claims, which are
# train claims; the test claims are the check.
NEAR = 50
EF_SEARCH = 100
EF_GROWS_FROM = 100_000
RARE_POSTINGS = 2_000
RARE_HEAD = 4
HEAD_ANN = 1.5


@dataclass(frozen=True)
class Term:
    term: str
    weight: float  # qtf · idf
    df: float

    def bound(self, k1: float) -> float:
        """What the term can add to any chunk's score: its tf part stays below k1 + 1."""
        return self.weight * (k1 + 1)


def first_split(ordered: list[Term], limit: int) -> int:
    """How many of the terms (ordered by bound, lowest first) start as the skipped common words: as many as leave
    rarer terms whose postings could fill the top LIMIT on their own."""
    skipped, essential_df = len(ordered), 0.0
    while skipped > 0 and essential_df < limit:
        skipped -= 1
        essential_df += ordered[skipped].df
    return skipped


def next_split(ordered: list[Term], k1: float, skipped: int, theta: float, candidates: int, limit: int) -> int:
    """After a split that could not prove its top: fewer skipped words, as many as θ rules out (θ only grows as
    terms move to the essential side), and at least one fewer."""
    if candidates < limit:
        return skipped - 1
    fits, bound = 0, 0.0
    while fits < skipped - 1 and bound + ordered[fits].bound(k1) < theta - MARGIN:
        bound += ordered[fits].bound(k1)
        fits += 1
    return fits


def walk_depth(chunks: float) -> int:
    """The sparse walk's ef_search for a tenant of `chunks` live chunks: EF_SEARCH up to EF_GROWS_FROM, then one
    EF_SEARCH more per tenfold (a graph ten times larger needs a longer walk to keep as much of the exact top)."""
    return round(EF_SEARCH * (1 + max(0.0, math.log10(max(chunks, 1.0) / EF_GROWS_FROM))))


def approximate(session: Session, ordered: list[Term], filters: Filters, avgdl: float, *, k1: float, b: float,
                limit: int, near: int, chunks: float) -> list[dict]:
    """bm25_ann.sql's rows (id, score, rank): HNSW candidates (at least LIMIT; none when near is 0, which only the
    tests ask for) walked as deep as the tenant's `chunks` need, and the rare words' chunks, the best scored exactly."""
    session.set_local({"hnsw.ef_search": str(max(walk_depth(chunks), near)), "hnsw.iterative_scan": "relaxed_order"})
    return session.execute(ann_statement(filters), {
        **filters.params(), "terms": [t.term for t in ordered], "weights": [t.weight for t in ordered],
        "rare": rare_terms(ordered), "near": max(near, limit) if near else 0, "rare_head": RARE_HEAD * limit,
        "head": math.ceil(HEAD_ANN * limit), "limit": limit,
        "avgdl": avgdl, "k1": k1, "b": b}).fetchall()


@dataclass(frozen=True)
class Ranked:
    rows: list[dict]  # id, score, rank
    statements: int  # pruned statements run (1 when the first split proved its top)
    skipped: int  # common words whose postings were probed per candidate instead of read whole


def statement(filters: Filters) -> sql.Composed:
    """The pruned BM25 statement: without filters its postings alone; with them, only the chunks they admit."""
    restrict = composed("chunk_filter", filters=sql.SQL(sql_text("filters"))) if filters.active() else sql.SQL("")
    return composed("bm25_pruned", chunk_filter=restrict)


def ann_statement(filters: Filters) -> sql.Composed:
    """The approximate BM25 statement: always the live chunks (filters.sql), and the request's filters if any."""
    restrict = composed("chunk_filter", filters=sql.SQL(sql_text("filters"))) if filters.active() else sql.SQL("")
    return composed("bm25_ann", filters=sql.SQL(sql_text("filters")), chunk_filter=restrict)


def rare_terms(ordered: list[Term], budget: int | None = None) -> list[str]:
    """The rarest words, fewest postings first, while their postings together stay within the budget."""
    budget = RARE_POSTINGS if budget is None else budget
    rare, used = [], 0.0
    for t in sorted(ordered, key=lambda t: (t.df, t.term)):
        if used + t.df > budget:
            break
        rare.append(t.term)
        used += t.df
    return rare


def ordered_terms(found: Terms, k1: float) -> list[Term]:
    """The question's words that some visible chunk holds (a word none holds scores nothing), each weighted qtf × idf,
    lowest bound first: the order MaxScore skips them in."""
    terms = [Term(t, found.qtf[t] * idf, found.df[t]) for t, idf in found.idf.items() if found.df[t] > 0]
    return sorted(terms, key=lambda t: (t.bound(k1), t.term))


def top(session: Session, query: Query, filters: Filters, *, k1: float, b: float, limit: int,
        prune: bool = True, ann: bool = False, every_posting_below: int = EVERY_POSTING_BELOW,
        scan_ratio: float = SCAN_RATIO, near: int = NEAR) -> Ranked:
    """The BM25 top LIMIT. A question whose words have fewer postings than `every_posting_below` reads them all, as
    does prune=False (the reference the tests and the benchmark compare against); above it, ann=True takes the
    approximate top (bm25_ann.sql, exact scores over candidates), else MaxScore ranks exactly as reading every posting
    would. scan_ratio 0 probes every skipped word for each candidate; a large one reads them whole."""
    found = query.terms(session)
    ordered = ordered_terms(found, k1)
    if not ordered:
        return Ranked([], 0, 0)
    prune = prune and sum(t.df for t in ordered) >= every_posting_below
    if prune and ann:
        return Ranked(approximate(session, ordered, filters, found.avgdl, k1=k1, b=b, limit=limit, near=near,
                                  chunks=found.n), 1, 0)
    skipped = first_split(ordered, limit) if prune else 0
    run = statement(filters)
    # The planner cannot see how many chunks the essential terms' postings reach (a CTE), guesses a handful and sorts
    # them all by chunk id to sum their scores; at 100k chunks a hash aggregate takes 0.6x the time.
    session.execute("SET LOCAL enable_sort = off")
    ranked = _maxscore(session, run, ordered, skipped, filters, found.avgdl, k1=k1, b=b, limit=limit,
                       scan_ratio=scan_ratio)
    session.execute("SET LOCAL enable_sort TO DEFAULT")  # the request's later statements sort as usual
    return ranked


def _maxscore(session: Session, run: sql.Composed, ordered: list[Term], skipped: int, filters: Filters, avgdl: float,
              *, k1: float, b: float, limit: int, scan_ratio: float) -> Ranked:
    """bm25_pruned.sql from the first split, with the common words skipped, until a split proves its top."""
    base = {**filters.params(), "avgdl": avgdl, "k1": k1, "b": b, "limit": limit,
            "head": HEAD * limit, "scan_ratio": scan_ratio}
    attempts = 0
    while True:
        attempts += 1
        rest, essential = ordered[:skipped][::-1], ordered[skipped:]  # rest probed largest bound first
        bounds = [t.bound(k1) for t in rest]
        ranked = session.execute(run, {
            **base, "essential": [t.term for t in essential], "essential_w": [t.weight for t in essential],
            "rest": [t.term for t in rest], "rest_w": [t.weight for t in rest], "rest_df": [t.df for t in rest],
            "rest_after": [sum(bounds[i + 1:], 0.0) for i in range(len(rest))], "bound": sum(bounds, 0.0),
        }).fetchall()
        if not ranked or ranked[0]["id"] is not None:
            return Ranked(ranked, attempts, skipped)
        skipped = next_split(ordered, k1, skipped, float(ranked[0]["score"]), int(ranked[0]["rank"]), limit)
