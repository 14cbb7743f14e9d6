-- pages.char_count was derived from text and never read; length(text) gives it when needed.
ALTER TABLE pages DROP COLUMN char_count;
