-- Versions of this file left building under other chunk settings (a run that died): a run builds with one set of
-- settings, so they are failed rather than chunked with settings their digest does not name.
UPDATE documents SET status = 'failed', error = %(error)s
WHERE sha256 = %(sha256)s AND status = 'building' AND pipeline_digest <> %(digest)s
