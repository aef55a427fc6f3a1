"""Small things a user sees (issue 33, item 8), in Chromium on a real studio.

- The Editor's own address (`/editor?draft=...`, the default page's name) opens the Editor
  with no "Page not found" dialog, and opening a file there shows none either.
- A queued run's badge turns from "queued" to "running" as soon as a worker makes its calls,
  without a reload (the studio's store is a PostgreSQL queue; the worker a real process).
- The Run page's link to the results is a whole address, not a path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.queue.enqueue import enqueue_run
from engine.run.service import prepare_run
from engine.store import open_store
from tests.fakes.llm_server import FakeLLM
from tests.queue.conftest import blueprint, wait_for, worker_env
from tests.store.pg import fresh_database
from tests.studio.browser import Studio, new_page, running_studio, screenshot, wait_quiet

pytestmark = pytest.mark.browser

WAIT = 60_000
NOT_FOUND = "Page not found"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLM]:
    with FakeLLM(latency_ms=500) as llm:
        yield llm


@pytest.fixture(scope="module")
def queue_url() -> Iterator[str]:
    with fresh_database("blueprint_small_ui") as url:
        yield url


@pytest.fixture(scope="module")
def studio(
    tmp_path_factory: pytest.TempPathFactory, fake: FakeLLM, queue_url: str, browser: Any
) -> Iterator[Studio]:
    home = tmp_path_factory.mktemp("small-ui")
    with running_studio(home, {**fake.env(), "BLUEPRINT_DATABASE_URL": queue_url}) as server:
        yield server


def _no_dialog(page: Any) -> None:
    """No "Page not found" dialog shows up (it is drawn at once when it comes)."""
    wait_quiet(page)
    page.wait_for_timeout(1000)
    assert page.get_by_text(NOT_FOUND).count() == 0
    assert page.get_by_role("dialog").filter(has_text="does not seem to exist").count() == 0


def test_the_editors_own_address_and_an_upload_show_no_page_not_found(
    browser: Any, studio: Studio, queue_url: str, tmp_path: Path
):
    store = open_store(queue_url)
    text = "title: Kept draft\n---\n- id: one\n  prompt: Say hello\n  should:\n    - $contains: hello\n"
    store.save_draft("keptdraft0000001", text, "Kept draft", explicit=True)
    mine = tmp_path / "mine.yml"
    mine.write_text("title: Mine\n---\n- id: hi\n  prompt: Hi\n  should:\n    - $contains: hi\n")
    with new_page(browser) as page:
        page.goto(f"{studio.url}/editor?draft=keptdraft0000001")
        expect(page.get_by_role("heading", name="Kept draft")).to_be_visible(timeout=WAIT)
        expect(page).to_have_url(re.compile(r"/\?draft=keptdraft0000001$"), timeout=WAIT)
        _no_dialog(page)
        assert "url_path" not in page.inner_text("body")  # the entry script draws no stray text
        for name in ("mine.yml", "mine.yml"):  # every upload, not only the first
            page.get_by_test_id("stPopoverButton").filter(has_text="Open").click()
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(mine)
            expect(page.get_by_text(f"Opened the file {name}.")).to_be_visible(timeout=WAIT)
            expect(page.get_by_role("heading", name="Mine")).to_be_visible(timeout=WAIT)
            _no_dialog(page)
            page.keyboard.press("Escape")


def test_a_queued_run_shows_running_once_a_worker_calls_and_links_in_full(
    browser: Any,
    studio: Studio,
    fake: FakeLLM,
    queue_url: str,
    start_worker: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
):
    for key, value in fake.env().items():
        monkeypatch.setenv(key, value)
    store = open_store(queue_url)
    prepared = prepare_run(store, blueprint(prompts=80, models=1), source="slow.yml")
    assert not prepared.problems and prepared.run_id is not None
    run_id = prepared.run_id
    enqueue_run(queue_url, run_id, prepared.plan)
    with new_page(browser) as page:
        page.goto(f"{studio.url}/run?run={run_id}")
        expect(page.get_by_text("queued (waiting for a worker)")).to_be_visible(timeout=WAIT)
        # the results link in full (this studio's address), not a bare path
        code = page.locator('[data-testid="stCode"]').filter(has_text=f"results?run={run_id}")
        expect(code).to_have_text(
            re.compile(rf"^{re.escape(studio.url)}/results\?run={run_id}"), timeout=WAIT
        )

        start_worker(worker_env(queue_url, fake, tmp_path / "worker-home"), "--concurrency", "2")
        wait_for(lambda: store.get_run(run_id).done_calls > 0, 60, "the worker's first calls")
        # 80 calls of 0.5 s, 2 at a time: about 20 s of calls; the badge turns within a few
        expect(page.get_by_text("queued (waiting for a worker)")).to_have_count(0, timeout=WAIT)
        expect(page.get_by_text(re.compile(r"running$")).first).to_be_visible(timeout=WAIT)
        assert store.get_run(run_id).status == "running"  # shown while the calls go on
        screenshot(page, "run-page-running-on-a-worker")
        wait_for(lambda: store.get_run(run_id).status == "completed", 120, "the run's end")
        expect(page.get_by_text(re.compile(r"completed$")).first).to_be_visible(timeout=WAIT)
