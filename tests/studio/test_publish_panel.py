"""The Editor's Publish popover (AppTest, a local bare repository): lint errors refuse, a clean
draft is pushed, no settings say how to set it up; and who may publish in team mode."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio import state
from studio.access import Viewer, may_publish
from studio.views.editor.publish_panel import PUBLISH_BRANCH, PUBLISH_NAME
from tests.publish.repos import bare_repository, branches, file_at
from tests.studio.helpers import app, texts

GOOD = "title: Mine\n---\n- id: first\n  prompt: Hi\n  should:\n    - $icontains: hello\n"
BROKEN = "title: Mine\n---\n- id: first\n  prompt: Hi\n  shuold:\n    - $icontains: hello\n"


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    repo = bare_repository(tmp_path)
    home = Path(os.environ["BLUEPRINT_HOME"])
    (home / "settings.toml").write_text(f'[publish]\nrepository = "{repo}"\n', encoding="utf-8")
    return repo


def _editor(text: str):
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    assert not at.exception
    return at


def _publish(at):
    next(b for b in at.button if b.key == "publish-now").click().run()
    assert not at.exception


def test_a_draft_with_lint_errors_is_refused_and_nothing_is_pushed(bare: Path):
    at = _editor(BROKEN)
    _publish(at)
    [error] = [e for e in texts(at, "error") if "nothing was published" in e]
    assert "line 5: `shuold` is not `should`" in error
    assert branches(bare) == ["main"]


def test_a_clean_draft_is_pushed_on_the_named_branch(bare: Path):
    at = _editor(GOOD)
    at.text_input(key=PUBLISH_NAME).set_value("greeting.yml")
    at.text_input(key=PUBLISH_BRANCH).set_value("ada/greeting")
    _publish(at)
    assert any("Published on the branch `ada/greeting`." in s for s in texts(at, "success"))
    assert file_at(bare, "ada/greeting", "blueprints/greeting.yml") == GOOD.encode()


def test_without_a_repository_the_popover_says_how_to_set_one():
    at = _editor(GOOD)
    assert not [b for b in at.button if b.key == "publish-now"]
    assert any("[publish] in settings.toml" in c for c in texts(at, "caption"))


@pytest.mark.parametrize(
    ("viewer", "allowed"),
    [
        (Viewer(team=False, logged_in=True), True),
        (Viewer(team=True, logged_in=True, email="e@x.org", role="editor"), True),
        (Viewer(team=True, logged_in=True, email="a@x.org", role="admin"), True),
        (Viewer(team=True, logged_in=True, email="v@x.org", role="viewer"), False),
        (Viewer(team=True, logged_in=False), False),
    ],
)
def test_who_may_publish(viewer: Viewer, allowed: bool):
    assert may_publish(viewer) is allowed
