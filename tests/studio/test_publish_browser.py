"""Publish from the Editor in a real browser: the draft lands byte for byte on a new branch of a
local bare repository, a fake forge opens the pull request, and the page names both."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.forge import FakeForge
from tests.publish.repos import bare_repository, branches, file_at
from tests.studio.browser import (
    Studio,
    click_quiet,
    editor_text,
    new_page,
    open_example,
    running_studio,
    screenshot,
)

pytestmark = pytest.mark.browser

TOKEN = "tok-browser-5d1e-never-shown"
SHOTS = Path("/tmp/shots/publish")


@pytest.fixture(scope="module")
def forge() -> Iterator[FakeForge]:
    with FakeForge() as server:
        yield server


@pytest.fixture(scope="module")
def setup(
    tmp_path_factory: pytest.TempPathFactory, forge: FakeForge
) -> Iterator[tuple[Studio, Path]]:
    root = tmp_path_factory.mktemp("publish-repos")
    bare = bare_repository(root)
    home = tmp_path_factory.mktemp("publish-home")
    (home / "settings.toml").write_text(
        f'[publish]\nrepository = "{bare}"\nforge = "github"\n'
        f'api_url = "{forge.url}/api"\nproject = "team/configs"\n',
        encoding="utf-8",
    )
    config = root / "gitconfig"
    config.write_text("", encoding="utf-8")
    env = {"BLUEPRINT_PUBLISH_TOKEN": TOKEN, "GIT_CONFIG_GLOBAL": str(config)}
    with running_studio(home, env) as server:
        yield server, bare


def test_publish_pushes_the_draft_and_shows_the_branch_and_pull_request(
    browser: Any, setup: tuple[Studio, Path], forge: FakeForge
):
    studio, bare = setup
    with new_page(browser) as page:
        open_example(page, studio.url, "Capital cities, checked by functions")
        text = editor_text(page)
        click_quiet(page, page.get_by_role("button", name="Publish"))
        dialog = page.get_by_test_id("stPopoverBody")
        dialog.get_by_text("on a new branch of").wait_for()
        name = dialog.get_by_label("File name")
        assert name.input_value() == "capital-cities-checked-by-functions.yml"
        click_quiet(page, dialog.get_by_role("button", name="Publish this blueprint"))
        alert = page.get_by_test_id("stAlert").filter(has_text="Published on the branch")
        alert.wait_for(timeout=90_000)
        branch = f"blueprint/capital-cities-checked-by-functions-{dt.datetime.now(dt.UTC).date()}"
        shown = alert.inner_text()
        assert branch in shown
        assert f"{forge.url}/web/api/repos/team/configs/pull/17" in shown
        assert TOKEN not in page.content()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "editor-published.png"))
        screenshot(page, "publish-editor")
    assert branch in branches(bare)
    pushed = file_at(bare, branch, "blueprints/capital-cities-checked-by-functions.yml")
    assert pushed == text.encode("utf-8")
    [request] = forge.requests
    assert request.path == "/api/repos/team/configs/pulls"
    assert request.body["head"] == branch and request.body["base"] == "main"
