"""In a real browser: one run's cost is the same on its results page, share page and report.

Issue 31: the studio showed $0.0466 where the share page and the HTML report showed $0.0002
(the answers alone); the leaderboard's per-model costs left out judging. The run here has
priced models and a priced judge, so every figure is known and judging costs something.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from engine.comparison.cost import RunCost, money_text
from engine.run.assemble import stored_comparison
from engine.store import open_store
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import Studio, download, new_page, running_studio
from tests.studio.conftest import ANSWERS, scripted
from tests.studio.helpers import example, make_run

pytestmark = pytest.mark.browser

WAIT = 60_000
"""Milliseconds to wait for the studio to draw (the first page of a new server is slow)."""

MODELS = ["openai:fake-a", "openai:fake-b"]
JUDGE = "openai:fake-judge"


@pytest.fixture(scope="module")
def priced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Studio, str, RunCost]]:
    home = tmp_path_factory.mktemp("cost-home")
    (home / "settings.toml").write_text(
        "[prices]\n"
        + "".join(f'"{m}" = {{ input = 3.0, output = 9.0 }}\n' for m in [*MODELS, JUDGE])
    )
    with pytest.MonkeyPatch.context() as mp, FakeLLM() as fake, ThreadPoolExecutor(1) as pool:
        mp.setenv("BLUEPRINT_HOME", str(home))  # the prices of this run are the home's
        store = open_store(home / "studio.db")
        fake.reply_with(scripted(ANSWERS))
        # in a thread of its own: Playwright's loop may already run in this one
        run_id = pool.submit(
            make_run,
            store,
            example("or-paths.yml"),
            MODELS,
            environ=fake.env(),
            judges=[JUDGE],
            judge=True,
        ).result()
        run = store.get_run(run_id)
        assert run is not None
        blueprint = blueprint_of_run_in(store, run)
        cost = stored_comparison(store, run_id, blueprint).cost
    assert cost is not None and cost.total and cost.judging  # priced, and judging cost something
    with running_studio(home, {}) as server:
        yield server, run_id, cost


def blueprint_of_run_in(store: Any, run: Any) -> Any:
    from engine.blueprint import parse_blueprint

    return parse_blueprint(store.blueprint_text(run.blueprint_hash), source="or-paths.yml")


def _figures(cost: RunCost) -> list[str]:
    """What every page must show: the total, the judging, and each model's cost."""
    return [
        money_text(cost.total),
        money_text(cost.judging),
        *(money_text(cost.per_model[f"{m}[temp:0]"]) for m in MODELS),
    ]


def _leaderboard_costs(page: Any, column: str) -> dict[str, str]:
    table = page.locator("table").filter(has_text="Average").first
    heads = [h.inner_text().strip() for h in table.locator("th").all()]
    at = heads.index(column)
    name_at = heads.index("Model")
    out: dict[str, str] = {}
    for row in table.locator("tr").all():  # the header row has no `td`
        cells = [c.inner_text().strip() for c in row.locator("td").all()]
        if len(cells) == len(heads):
            out[cells[name_at]] = cells[at]
    return out


def test_the_same_cost_on_the_results_page_the_share_page_and_the_report(
    browser: Any, priced: tuple[Studio, str, RunCost], tmp_path: Path
):
    studio, run_id, cost = priced
    total, judging, *per_model = _figures(cost)
    expected = dict(zip(MODELS, per_model, strict=True))
    # the models' costs include their judging: together with the rest they make the total
    assert cost.total == pytest.approx(sum(v or 0 for v in cost.per_model.values()) + cost.other)

    with new_page(browser, height=1800, timeout=WAIT) as page:
        page.goto(f"{studio.url}/results?run={run_id}")
        page.get_by_role("heading", name="Leaderboard").wait_for()
        header = page.get_by_text("answers scored ·", exact=False).first.inner_text()
        assert f"cost {total} (judging {judging})" in header
        assert _leaderboard_costs(page, "Cost") == expected
        page.screenshot(path="/tmp/cost_results.png", full_page=False)
        report = download(page, page.get_by_role("button", name="Download report (HTML)"))
        html = Path(report.path()).read_text(encoding="utf-8")
        assert f"cost {total} (judging {judging})" in html
        for model, shown in expected.items():
            assert f"{model}</td>" in html and shown in html

    store = open_store(studio.home / "studio.db")
    token = store.create_share_link(run_id, "anyone").token
    with new_page(browser, height=1800, timeout=WAIT) as page:
        page.goto(f"{studio.url}/share?token={token}")
        page.get_by_role("heading", name="Leaderboard").wait_for()
        assert f"cost {total} (judging {judging})" in page.locator("body").inner_text()
        assert _leaderboard_costs(page, "Cost") == expected
        page.screenshot(path="/tmp/cost_share.png", full_page=False)
