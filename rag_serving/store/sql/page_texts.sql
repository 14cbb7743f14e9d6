-- The text of each page in the listed (document, first page, last page) ranges, in page order.
SELECT p.document_id, p.page_index, p.page_label, p.text
FROM pages p
JOIN unnest(%(documents)s::text[], %(firsts)s::int[], %(lasts)s::int[]) AS r(document_id, first_page, last_page)
  ON p.document_id = r.document_id AND p.page_index BETWEEN r.first_page AND r.last_page
ORDER BY p.document_id, p.page_index
