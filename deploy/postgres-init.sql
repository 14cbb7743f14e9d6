-- Dagster's run/event storage lives in its own database on the same server.
CREATE DATABASE dagster;
-- The serving role (row-level security applies to it); migration 0002 grants its rights (and would create it).
CREATE ROLE rag_app LOGIN PASSWORD 'rag_app' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
