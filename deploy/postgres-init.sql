-- Dagster's run/event storage lives in its own database on the same server.
CREATE DATABASE dagster;
-- The serving role (row-level security applies to it); the first migration grants its rights.
CREATE ROLE rag_app LOGIN PASSWORD 'rag_app' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
