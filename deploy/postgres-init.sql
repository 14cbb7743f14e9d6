-- Dagster's run/event storage lives in its own database on the same server.
CREATE DATABASE dagster;
