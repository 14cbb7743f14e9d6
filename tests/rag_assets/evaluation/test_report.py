"""Results files: what a command printed, under its command and date, one section per run."""

import datetime as dt
import os

from rag_assets.evaluation.report import save_result


def test_a_second_run_on_the_same_day_is_appended_under_its_own_commit(tmp_path):
    first = save_result("latency --sizes 10", "p95 18.1 ms", "python -m benchmarks.latency --sizes 10", tmp_path,
                        commit="aaaaaaa")
    second = save_result("latency --sizes 10", "p95 24.9 ms\n\n", "python -m benchmarks.latency --sizes 10", tmp_path,
                         commit="bbbbbbb")
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert first == second == tmp_path / f"{today}-latency-sizes-10.md"
    text = first.read_text(encoding="utf-8")
    header, run1, run2 = text.split("## Run at ")
    assert header == (f"# latency --sizes 10\n\n- command: `python -m benchmarks.latency --sizes 10`\n- date: {today}\n"
                      f"- machine: {os.cpu_count()} cores\n\n")
    assert run1.endswith(" UTC\n\n- commit: aaaaaaa\n\np95 18.1 ms\n\n")
    assert run2.endswith(" UTC\n\n- commit: bbbbbbb\n\np95 24.9 ms\n")


def test_another_command_gets_its_own_file(tmp_path):
    a = save_result("latency --sizes 10", "p95 of 10", "python -m benchmarks.latency --sizes 10", tmp_path, commit="a")
    b = save_result("latency --sizes 20", "p95 of 20", "python -m benchmarks.latency --sizes 20", tmp_path, commit="a")
    assert a != b and "p95 of 20" not in a.read_text(encoding="utf-8")
    assert b.read_text(encoding="utf-8").count("## Run at") == 1


def test_a_command_naming_many_sets_gets_a_short_file_name_of_its_own(tmp_path):
    many = "train_answerability --written " + " ".join(f"set{n:02d}-with-a-long-name" for n in range(30))
    other = many.replace("set29", "set30")
    a = save_result(many, "auc 0.826", "python -m benchmarks.train_answerability", tmp_path, commit="a")
    b = save_result(other, "auc 0.830", "python -m benchmarks.train_answerability", tmp_path, commit="a")
    again = save_result(many, "auc 0.827", "python -m benchmarks.train_answerability", tmp_path, commit="a")
    assert len(a.name) <= 140 and a != b and again == a
    assert again.read_text(encoding="utf-8").count("## Run at") == 2
