"""The Editor's "Publish" popover: propose the draft on a new branch of the team's repository."""

from __future__ import annotations

import streamlit as st

from engine.blueprint.inputs import user_settings
from engine.errors import ConfigError, EngineError
from engine.net.urls import mask_credentials
from engine.publish import LintRefusal, PublishSettings, load_publish_settings, publish
from studio import state
from studio.widgets.common import slug

__all__ = ["PUBLISH_BRANCH", "PUBLISH_MESSAGE", "PUBLISH_NAME", "outcome_words", "publish_popover"]

PUBLISH_NAME = "publish_name"
PUBLISH_BRANCH = "publish_branch"
PUBLISH_MESSAGE = "publish_message"
MAX_ERRORS_SHOWN = 5


def outcome_words(
    branch: str, pull_request: str | None, forge_error: str | None
) -> tuple[str, str]:
    """The notice after a push: (kind, text) naming the branch and the pull request, if any."""
    if pull_request:
        return "success", f"Published on the branch `{branch}`. Pull request: `{pull_request}`"
    if forge_error:
        return (
            "warning",
            f"Published on the branch `{branch}`, but no pull request was opened: {forge_error}",
        )
    return "success", f"Published on the branch `{branch}`."


def _refusal_words(refused: LintRefusal) -> str:
    shown = refused.diagnostics[:MAX_ERRORS_SHOWN]
    lines = [f"line {d.line}: {d.message}" for d in shown]
    more = len(refused.diagnostics) - len(shown)
    if more > 0:
        lines.append(f"and {more} more (see Problems)")
    return f"{refused} " + " · ".join(lines)


def _publish(text: str, config: PublishSettings, repository: str) -> None:
    """Push the editor's text as a proposal; leave the outcome as the page's notice."""
    name = str(st.session_state.get(PUBLISH_NAME) or "").strip()
    branch = str(st.session_state.get(PUBLISH_BRANCH) or "").strip() or None
    message = str(st.session_state.get(PUBLISH_MESSAGE) or "").strip() or None
    try:
        done = publish(
            text.encode("utf-8"),
            name,
            repository,
            branch=branch,
            message=message,
            folder=config.folder,
            base=config.base,
            forge=config.forge,
            settings=user_settings(),
        )
    except LintRefusal as refused:
        state.set_notice("error", _refusal_words(refused))
        return
    except EngineError as exc:
        state.set_notice("error", f"Nothing was published: {exc}")
        return
    state.set_notice(*outcome_words(done.branch, done.pull_request, done.forge_error))


def publish_popover(text: str, title: str | None) -> None:
    """A "Publish" popover: where it goes, a file name, a branch and a message, and the button."""
    with st.popover("Publish", icon=":material/publish:", width="stretch"):
        try:
            config = load_publish_settings()
        except ConfigError as exc:
            st.error(f"Publishing is not set up correctly: {exc}")
            return
        if not config.repository:
            st.caption(
                "Publishing proposes this blueprint on a new branch of a git repository "
                "(and opens a pull request). Name the repository under [publish] in "
                "settings.toml: see docs/publish.md."
            )
            return
        st.caption(
            f"Commits this text as it is, under {config.folder.rstrip('/') or 'the top'}/ on a "
            f"new branch of {mask_credentials(config.repository)}"
            + (f", and opens a pull request on {config.forge.kind}." if config.forge else ".")
        )
        st.text_input("File name", value=f"{slug(title or 'blueprint')}.yml", key=PUBLISH_NAME)
        st.text_input(
            "Branch (optional)",
            key=PUBLISH_BRANCH,
            help="Leave empty for a new branch named after the file and today's date.",
        )
        st.text_input("Message (optional)", key=PUBLISH_MESSAGE)
        st.button(
            "Publish this blueprint",
            type="primary",
            key="publish-now",
            on_click=_publish,
            args=(text, config, config.repository),
        )
