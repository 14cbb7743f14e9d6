"""Settings: one validated model of the environment; a bad value is one line naming the variable, value and what is allowed."""

import pytest

from rag_serving.settings import Settings, SettingsError, load_settings
from rag_serving.spec import DEFAULT_SPEC


def test_defaults_describe_the_shipped_spec():
    assert load_settings({}).pipeline() == DEFAULT_SPEC


def test_the_default_home_is_absolute_so_dagster_accepts_its_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_settings({}).home == tmp_path / ".rag"


def test_a_bad_integer_names_the_variable_and_its_value():
    with pytest.raises(SettingsError) as err:
        load_settings({"RAG_CANDIDATES": "abc"})
    assert str(err.value) == "RAG_CANDIDATES='abc': Input should be a valid integer, unable to parse string as an integer"


def test_a_value_outside_its_range_says_the_bound():
    with pytest.raises(SettingsError, match=r"RAG_ANSWER_THRESHOLD='1.5': Input should be less than or equal to 1"):
        load_settings({"RAG_ANSWER_THRESHOLD": "1.5"})


def test_an_unknown_choice_lists_the_allowed_ones():
    with pytest.raises(SettingsError, match="RAG_RERANKER='magic': Input should be 'none', 'learned', 'maxsim', 'tei' "
                                           "or 'cross-encoder'"):
        load_settings({"RAG_RERANKER": "magic"})


def test_every_bad_variable_is_reported_at_once_on_one_line():
    with pytest.raises(SettingsError) as err:
        load_settings({"RAG_API_PORT": "0", "RAG_REWRITE": "perhaps"})
    message = str(err.value)
    assert "\n" not in message and "RAG_API_PORT='0'" in message and "RAG_REWRITE='perhaps'" in message


def test_empty_values_count_as_unset_and_choices_ignore_case():
    s = load_settings({"RAG_CANDIDATES": "", "RAG_RERANKER": " None ", "RAG_EXPAND": "Synonyms, hyde"})
    assert s.candidates == 50 and s.reranker == "none" and s.expand == ("synonyms", "hyde")


def test_flags_take_the_usual_spellings():
    assert load_settings({"RAG_REWRITE": "yes", "RAG_PARENTS": "1"}).pipeline().replace().rewrite is True
    assert load_settings({"RAG_PARENTS": "off"}).parents is False


def test_an_unbuildable_pipeline_is_refused_naming_what_is_missing():
    with pytest.raises(ValueError, match="reranker 'tei' needs reranker_url"):
        load_settings({"RAG_RERANKER": "tei"}).pipeline()


def test_every_field_reads_one_documented_variable():
    names = [f.alias for f in Settings.model_fields.values()]
    assert len(names) == len(set(names)) and all(f.description for f in Settings.model_fields.values())


def test_the_serving_entry_point_stops_on_a_bad_setting_with_one_line():
    import os
    import subprocess
    import sys

    env = {**os.environ, "RAG_API_PORT": "eighty"}
    result = subprocess.run([sys.executable, "-m", "rag_serving", "serve"], env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == ("rag_serving: RAG_API_PORT='eighty': Input should be a valid integer, unable to "
                                     "parse string as an integer")
