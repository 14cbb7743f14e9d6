-- One eval_runs row per ablation row: its spec digest, summary, per-case results and paired comparisons.
INSERT INTO eval_runs (commit, source, split, config_name, config_digest, summary, cases, comparisons)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id
