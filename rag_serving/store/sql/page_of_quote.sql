-- The page of a document whose text (whitespace runs squeezed, as quotes are) holds the quote, nearest first.
SELECT page_index, page_label FROM pages
WHERE document_id = %(document)s AND strpos(regexp_replace(text, '\s+', ' ', 'g'), %(quote)s) > 0
ORDER BY abs(page_index - %(near)s), page_index
LIMIT 1
