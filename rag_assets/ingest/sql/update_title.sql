-- A title from the PDF's metadata beats one made up from the file name, never one a user gave.
UPDATE documents SET title = %s WHERE id = %s
