-- Migrations applied so far, with their checksums.
SELECT version, checksum FROM schema_migrations
