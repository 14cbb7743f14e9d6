-- Record a migration as applied.
INSERT INTO schema_migrations (version, checksum) VALUES (%s, %s)
