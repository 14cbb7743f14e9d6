  AND p.chunk_id IN (
    SELECT c.id FROM chunks c
    JOIN documents d ON d.id = c.document_id
    LEFT JOIN sections s ON s.id = c.section_id
    WHERE true
    {filters}
  )
