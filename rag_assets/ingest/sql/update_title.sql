-- A title the PDF shows (ingest/titles.py: metadata, outline or cover page) beats one made up from the file name, never one a user gave.
UPDATE documents SET title = %s WHERE id = %s
