-- Publishes in one rooftop take turns, two versions of one source among them: each updates the same term_stats and
-- bm25_stats rows, and two that locked those rows in different orders would deadlock. Released at commit.
SELECT pg_advisory_xact_lock(hashtextextended(%s || '/' || %s, 0))
