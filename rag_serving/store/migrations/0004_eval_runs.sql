-- Evaluation results, one row per configuration run, so runs compare by commit and config digest.
CREATE TABLE eval_runs (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at     timestamptz NOT NULL DEFAULT now(),
    commit         text NOT NULL,
    source         text NOT NULL,              -- cli | dagster | schedule
    split          text NOT NULL,
    config_name    text NOT NULL,
    config_digest  text NOT NULL,
    summary        jsonb NOT NULL,             -- metrics, latency, model ids, chunking
    cases          jsonb NOT NULL,             -- one object per case
    comparisons    jsonb NOT NULL DEFAULT '[]' -- paired bootstrap results against earlier rows
);
CREATE INDEX eval_runs_config ON eval_runs (config_name, started_at DESC);
