"""The studio with similarity, fully offline: the `ideal` model and `local:wordllama` embeddings."""

from __future__ import annotations

import importlib.util
import textwrap

import pytest

from engine.store import open_store
from studio import state
from tests.studio.helpers import app, texts, wait_for_status

TEXT = textwrap.dedent(
    """
    title: Offline similarity
    embeddingModel: local:wordllama
    ---
    - id: capital
      prompt: What is the capital of France?
      ideal: The capital of France is Paris.
      should:
        - $icontains: paris
    """
)


@pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None,
    reason="the local-embeddings extra is not installed (pip install -e '.[local-embeddings]')",
)
def test_run_page_counts_embeddings_and_results_show_them():
    at = app()
    at.session_state[state.TEXT] = TEXT
    at.session_state[state.SOURCE] = "offline.yml"
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    at.multiselect[0].set_value(["ideal"]).run()
    assert any("at most 2 embedding calls with local:wordllama" in c for c in texts(at, "caption"))
    buttons = [b for b in at.button if b.label == "Start run"]
    buttons[0].click().run()
    run_id = at.session_state[state.RUN_ID]
    run = wait_for_status(open_store(), run_id, ("completed",))
    assert run.done_cells == 1
    results = app()
    results.query_params["run"] = run_id
    results.switch_page("views/results/results.py").run()
    assert not results.exception
    assert "Similarity of the answers" in texts(results, "subheader")
    matrix = results.dataframe[-2].value
    # the ideal model answers with the ideal itself: the same text, similarity 1
    assert matrix.loc["ideal", "Ideal answer"] == "1.00"
    assert results.dataframe[-1].value.loc["capital", "ideal"] == "1.00"
