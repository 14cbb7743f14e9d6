-- Rebuilding a version that never went live: clear what an earlier, interrupted attempt wrote.
DELETE FROM pages WHERE document_id = %s
