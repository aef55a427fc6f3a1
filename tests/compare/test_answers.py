"""The answers a comparison carries (for the studio's side-by-side view) and the word diff."""

from __future__ import annotations

import json
import time
from pathlib import Path

from engine.compare import compare_runs, load_run_view, word_diff
from engine.compare.words import MAX_WORDS
from engine.store import open_store
from tests.compare.test_compare_cli import BLUEPRINT, GOOD, scored
from tests.studio.helpers import make_run


def test_a_comparison_file_gives_each_cells_final_answer(tmp_path: Path):
    path = scored(tmp_path, "base", BLUEPRINT, GOOD)
    view = load_run_view(str(path))
    assert view.responses == GOOD


def test_a_stored_run_gives_each_cells_final_answer_and_not_the_ideal_column():
    store = open_store()
    run_id = make_run(store, BLUEPRINT, ["ideal"])
    view = load_run_view(run_id, store)
    assert view.responses == {
        ("france", "ideal[temp:0]"): "The capital of France is Paris.",
        ("spain", "ideal[temp:0]"): "Madrid is the capital of Spain.",
    }


def test_the_json_document_does_not_carry_the_answers(tmp_path: Path):
    path = scored(tmp_path, "base", BLUEPRINT, GOOD)
    view = load_run_view(str(path))
    out = json.dumps(compare_runs(view, view).to_json())
    assert "Paris." not in out and "Madrid is" not in out


def test_broken_answer_maps_are_skipped_not_fatal(tmp_path: Path):
    path = scored(tmp_path, "base", BLUEPRINT, GOOD)
    data = json.loads(path.read_text())
    data["allFinalAssistantResponses"] = {"france": {"m:a": 3, "m:b": "ok"}, "spain": ["x"]}
    path.write_text(json.dumps(data))
    assert load_run_view(str(path)).responses == {("france", "m:b"): "ok"}


def test_word_diff_marks_removed_and_added_words_and_keeps_the_rest():
    d = word_diff("The capital is Paris.\nYes", "The capital is Lyon.\nYes")
    assert d.parts == (
        ("same", "The capital is "),
        ("removed", "Paris."),
        ("added", "Lyon."),
        ("same", "\nYes"),
    )
    assert d.side("baseline") == [(False, "The capital is "), (True, "Paris."), (False, "\nYes")]
    assert d.side("candidate") == [(False, "The capital is "), (True, "Lyon."), (False, "\nYes")]
    assert not d.cut


def test_word_diff_of_hostile_long_answers_is_bounded():
    a = " ".join(["a", "b"] * 50_000)
    b = " ".join(["b", "a"] * 50_000)
    started = time.perf_counter()
    d = word_diff(a, b)
    assert time.perf_counter() - started < 5  # unbounded matching takes minutes here
    assert d.cut
    assert "".join(t for op, t in d.parts if op != "added") == a
    assert "".join(t for op, t in d.parts if op != "removed") == b
    matched = "".join(t for op, t in d.parts if op == "same")
    assert len(matched.split()) < MAX_WORDS
