-- The tenants a file is live in, with the start of each live chunk there (the recall check searches for them).
SELECT d.organization_id, d.rooftop_id, array_agg(left(c.body, 300) ORDER BY c.ordinal) AS bodies
FROM documents d JOIN chunks c ON c.document_id = d.id
WHERE d.sha256 = %s AND d.status = 'live'
GROUP BY d.organization_id, d.rooftop_id ORDER BY 1, 2
