from rag_assets.evaluation.thresholds import choose, confidence_auc, sweep


def row(expect, confidence, shown=True, correct=None):
    return {"expect": expect, "confidence": confidence, "shown": shown, "correct": correct}


ROWS = [
    row("answer", 0.9, correct=True),
    row("answer", 0.6, correct=False),
    row("answer", 0.3, correct=True),
    row("answer", 0.8, shown=False),  # clarified or unverified: never shown, whatever the threshold
    row("abstain", 0.7),
    row("abstain", 0.2),
]


def test_sweep_counts_by_hand():
    by_t = {r["threshold"]: r for r in sweep(ROWS, [0.1, 0.5, 0.75])}
    # t=0.1: no-answer shown 2/2; answerable not shown: only the unshown one -> 1/4; correct shown: 0.9, 0.3 -> 2/3
    assert by_t[0.1] == {"threshold": 0.1, "false_answer_rate": 1.0, "over_abstention_rate": 0.25,
                         "correct_rate": round(2 / 3, 4), "answered": 5}
    # t=0.5: no-answer 0.7 shown -> 1/2; answerable shown 0.9, 0.6 -> abstained 2/4; correct shown: 0.9 -> 1/3
    assert by_t[0.5] == {"threshold": 0.5, "false_answer_rate": 0.5, "over_abstention_rate": 0.5,
                         "correct_rate": round(1 / 3, 4), "answered": 3}
    # t=0.75: only 0.9 shown
    assert by_t[0.75]["false_answer_rate"] == 0.0 and by_t[0.75]["over_abstention_rate"] == 0.75


def test_choose_takes_the_lowest_threshold_within_the_false_answer_limit():
    table = sweep(ROWS, [0.1, 0.5, 0.75, 0.9])
    assert choose(table, 0.05)["threshold"] == 0.75
    assert choose(table, 0.5)["threshold"] == 0.5


def test_confidence_auc_by_hand():
    # answerable 0.9 0.6 0.3 0.8 vs no-answer 0.7 0.2: pairs won 3+... 0.9>both, 0.6: >0.2 only, 0.3: >0.2, 0.8: >both
    # wins = 2 + 1 + 1 + 2 = 6 of 8 pairs
    assert confidence_auc(ROWS) == 6 / 8
