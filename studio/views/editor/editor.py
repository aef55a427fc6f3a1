"""Editor: write a blueprint, see its problems at their lines, fix them, try an answer."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from engine.blueprint import Blueprint
from engine.blueprint.inputs import user_settings
from engine.blueprint.title import title_of
from engine.errors import InputError
from engine.lint import Diagnostic, Fix, apply_fix
from studio import access, services, state
from studio.core import drafts, markers
from studio.core.gallery import BLANK, Example
from studio.core.textsafe import one_line, safe_markdown
from studio.views.editor.conversation_panel import conversation_panel
from studio.views.editor.drafting_panel import drafting_panel
from studio.views.editor.formview import follow_elsewhere, form_view, view_switch
from studio.views.editor.publish_panel import publish_popover
from studio.views.editor.review_marks import editor_marks
from studio.views.editor.try_answer import TRY_ANSWER, try_response
from studio.views.editor.versions import versions_panel
from studio.views.editor.yaml_editor import blueprint_editor, edit_lock, keep_edit
from studio.widgets.common import notice, slug

VIEWER = access.guard("editor")  # before anything is drawn or read
OWNER = access.draft_owner(VIEWER)

SAVED_PREFIX = drafts.SAVED_PREFIX
UPLOAD = "editor_upload"
UPLOAD_VERSION = "editor_upload_version"
SAVE_NAME = "save_name"
ICONS = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
MAX_LISTED = 60


# --- keeping work -----------------------------------------------------------------------


def _title_of(text: str) -> str | None:
    parsed = services.parse(text, state.source())
    return parsed.title if isinstance(parsed, Blueprint) else title_of(text)


def _autosave(text: str) -> None:
    """Save the text as the session's draft (created on first use) and keep its id in the URL.

    Versions are coalesced by the store: typing makes a version per pause in editing. Saves
    are made one at a time per session (`edit_lock`), as runs of the page can overlap.
    """
    title = _title_of(text)
    with edit_lock():
        did = state.draft_id()
        if did is None:
            did = state.new_draft_id()
            st.session_state[state.DRAFT_ID] = did
        services.store().save_draft(
            did, text, title, author=VIEWER.email, pause_s=user_settings().version_pause_s
        )


def _keep(text: str, note: str) -> int:
    """Keep `text` as a new version of the session's draft (made when needed), with `note`."""
    did = state.draft_id()
    if did is None:
        did = state.new_draft_id()
        st.session_state[state.DRAFT_ID] = did
    return services.store().save_draft(
        did, text, _title_of(text), explicit=True, note=note, author=VIEWER.email
    )


def _open(text: str, source: str | None, message: str) -> None:
    """Open new text in the editor as a draft of its own (earlier drafts stay saved).

    An untouched draft with the same text (the same example or blank opened before) is
    opened again instead of making a copy.
    """
    st.session_state[state.DRAFT_ID] = drafts.open_as_draft(
        services.store(),
        text,
        _title_of(text),
        new_id=state.new_draft_id(),
        note=message,
        owner=OWNER,
    )
    state.set_text(text, source_name=source, keep_source=False)
    st.session_state.pop(TRY_ANSWER, None)
    state.set_notice("success", message)


def _restore(number: int) -> None:
    """Open an earlier version's text as a new version of the same draft."""
    did = state.draft_id()
    text = services.store().draft_version_text(did, number) if did else None
    if did is None or text is None:
        state.set_notice("error", f"Version {number} is no longer in the store.")
        return
    made = services.store().save_draft(
        did,
        text,
        _title_of(text),
        explicit=True,
        note=f"Restored version {number}",
        author=VIEWER.email,
    )
    state.set_text(text)
    state.set_notice(
        "success",
        f"Restored version {number} as version {made}. The text you had before stays a version.",
    )


def _upload_key() -> str:
    return f"{UPLOAD}-{int(st.session_state.get(UPLOAD_VERSION, 0))}"


def _open_upload() -> None:
    uploaded = st.session_state.get(_upload_key())
    if uploaded is None:
        return
    st.session_state[UPLOAD_VERSION] = int(st.session_state.get(UPLOAD_VERSION, 0)) + 1
    try:
        text = drafts.read_upload(uploaded.getvalue(), uploaded.name, user_settings())
    except InputError as exc:
        state.set_notice("error", str(exc))
        return
    _open(text, uploaded.name, f"Opened the file {uploaded.name}.")


def _file_opener() -> None:
    st.file_uploader(
        "Open a file from your computer",
        type=list(drafts.OPENABLE),
        key=_upload_key(),
        on_change=_open_upload,
        max_upload_size=drafts.upload_limit_mb(user_settings()),
        help="A blueprint saved as YAML (.yml, .yaml) or JSON (.json). It opens as a new "
        "draft; your current text stays saved.",
    )


def _apply(diagnostic: Diagnostic, chosen: Fix | None = None) -> None:
    text = state.get_text() or ""
    state.set_text(apply_fix(text, diagnostic, chosen))
    _autosave(state.get_text() or "")
    title = (chosen or diagnostic.fix or Fix(title="fix", replacement="")).title
    state.set_notice("success", f"Applied: {title} (line {diagnostic.line}).")


def _save_named() -> None:
    name = str(st.session_state.get(SAVE_NAME) or "").strip()
    text = state.get_text()
    if not name or text is None:
        state.set_notice("warning", "Give the blueprint a name to save it.")
        return
    services.store().save_draft(
        SAVED_PREFIX + name, text, name, explicit=True, note="Saved", author=VIEWER.email
    )
    state.set_notice("success", f"Saved as “{name}”. Open it again from “Open”.")


def _keep_draft_in_url() -> None:
    did = state.draft_id()
    if did is not None and st.query_params.get("draft") != did:
        st.query_params["draft"] = did


# --- starting points --------------------------------------------------------------------


def _example_card(example: Example, key: str) -> None:
    with st.container(border=True):
        st.markdown(f"**{safe_markdown(example.title)}**")
        if example.description:
            st.caption(safe_markdown(one_line(example.description, 160)))
        st.caption(
            f"{example.prompts} prompt{'s' if example.prompts != 1 else ''} · {example.name}"
        )
        st.button(
            "Start from this example",
            key=key,
            on_click=_open,
            args=(example.text, example.name, f"Opened the example “{example.title}”."),
            width="stretch",
        )


def _saved_entries() -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    saved: list[dict[str, str]] = []
    recent: list[dict[str, str]] = []
    for row in drafts.visible_drafts(services.store(), OWNER):
        entry = {
            "id": row.id,
            "title": row.title or "",
            "updated_at": row.updated_at,
            "versions": f"{row.versions} version{'s' if row.versions != 1 else ''}",
        }
        (saved if entry["id"].startswith(SAVED_PREFIX) else recent).append(entry)
    return saved, recent


def _open_stored(draft: str, label: str) -> None:
    """Continue an autosaved draft (its versions go on); a saved one opens as a new draft."""
    store = services.store()
    text = store.draft(draft) if drafts.may_open(store, draft, OWNER) else None
    if text is None:
        state.set_notice("error", f"“{label}” is no longer in the store.")
        return
    if draft.startswith(SAVED_PREFIX):
        _open(text, None, f"Opened “{label}”.")
        return
    st.session_state[state.DRAFT_ID] = draft
    state.set_text(text, source_name=None, keep_source=False)
    st.session_state.pop(TRY_ANSWER, None)
    state.set_notice("success", f"Opened “{label}”: you go on where you left off.")


def _stored_list(entries: Sequence[dict[str, str]], prefix: str, limit: int = 8) -> None:
    for i, entry in enumerate(entries[:limit]):
        label = entry["title"] or "Untitled blueprint"
        cols = st.columns([4, 2, 1], vertical_alignment="center")
        cols[0].markdown(safe_markdown(label))
        cols[1].caption(entry["updated_at"][:16].replace("T", " ") + " UTC · " + entry["versions"])
        cols[2].button(
            "Open", key=f"{prefix}-{i}", on_click=_open_stored, args=(entry["id"], label)
        )


def _empty_state() -> None:
    st.info(
        "Pick an example to start, or begin with a blank blueprint. "
        "A blueprint is a list of prompts, each with the points a good answer should cover."
    )
    items = services.examples()
    if items:
        st.subheader("Examples")
        cols = st.columns(min(3, len(items)))
        for i, example in enumerate(items):
            with cols[i % len(cols)]:
                _example_card(example, f"example-{i}")
    st.button(
        "Start from a blank blueprint",
        icon=":material/note_add:",
        on_click=_open,
        args=(BLANK, None, "Started a new blueprint. Replace the example text with yours."),
    )
    _file_opener()
    saved, recent = _saved_entries()
    if saved:
        st.subheader("Your saved blueprints")
        _stored_list(saved, "open-saved")
    if recent:
        st.subheader("Continue where you left off")
        st.caption("Every change you make is saved automatically as a draft.")
        _stored_list(recent, "open-draft")


# --- toolbar ----------------------------------------------------------------------------


def _toolbar(text: str, title: str | None) -> None:
    cols = st.columns([2.4, 1, 1, 1, 1.2, 1.1], vertical_alignment="bottom")
    with cols[0]:
        st.markdown(f"### {safe_markdown(title or 'Untitled blueprint')}")
    with cols[1], st.popover("New", icon=":material/add:", width="stretch"):
        st.caption("Your current text stays saved as a draft.")
        for i, example in enumerate(services.examples()):
            st.button(
                safe_markdown(example.title),
                key=f"toolbar-example-{i}",
                on_click=_open,
                args=(example.text, example.name, f"Opened the example “{example.title}”."),
                width="stretch",
            )
        st.button(
            "Blank blueprint",
            key="toolbar-blank",
            on_click=_open,
            args=(BLANK, None, "Started a new blueprint."),
            width="stretch",
        )
    with cols[2], st.popover("Open", icon=":material/folder_open:", width="stretch"):
        saved, recent = _saved_entries()
        _file_opener()
        if not saved and not recent:
            st.caption("Nothing saved yet. Use “Save” to keep a blueprint under a name.")
        if saved:
            st.markdown("**Saved blueprints**")
            _stored_list(saved, "toolbar-saved")
        if recent:
            st.markdown("**Recent drafts**")
            _stored_list(recent, "toolbar-draft", limit=5)
    with cols[3], st.popover("Save", icon=":material/save:", width="stretch"):
        st.text_input(
            "Name",
            value=title or "",
            key=SAVE_NAME,
            help="Saving again under the same name keeps the earlier text as a version.",
        )
        st.button("Save", type="primary", on_click=_save_named, key="save-named")
    with cols[4]:
        st.download_button(
            "Download",
            on_click="ignore",  # a download needs no redraw of the page
            data=text,
            file_name=f"{slug(title or 'blueprint')}.yml",
            mime="text/yaml",
            icon=":material/download:",
            width="stretch",
            help="Download the blueprint as a YAML file.",
        )
    with cols[5]:
        if access.may_publish(VIEWER):
            publish_popover(text, title)


# --- problems ---------------------------------------------------------------------------


def _problems(diagnostics: Sequence[Diagnostic]) -> None:
    st.markdown("#### Problems")
    found = markers.counts(diagnostics)
    if not diagnostics:
        st.success("No problems found. Try an answer below, or run the blueprint.")
        return
    say = markers.summary(diagnostics)
    (st.error if found["error"] else st.warning if found["warning"] else st.info)(say)
    # every problem is listed in the page's own flow: a fixed-height box hid most of them
    for i, d in enumerate(diagnostics[:MAX_LISTED]):
        with st.container(border=True):
            st.markdown(
                f"{ICONS[d.severity]} **{markers.SEVERITY_WORDS[d.severity]}** · "
                f"line {d.line}, column {d.column}"
            )
            st.markdown(safe_markdown(d.message))
            for n, offered in enumerate(d.fixes):
                st.button(
                    f"Apply fix: {safe_markdown(offered.title)}",
                    key=f"fix-{i}-{d.line}-{d.column}-{d.code}-{n}",
                    on_click=_apply,
                    args=(d, offered),
                    icon=":material/auto_fix_high:",
                )
    if len(diagnostics) > MAX_LISTED:
        st.caption(f"{len(diagnostics) - MAX_LISTED} more not listed; fix these first.")


# --- page -------------------------------------------------------------------------------


def main() -> None:
    """Render the Editor page."""
    st.title("Editor")
    keep_edit(_autosave)
    follow_elsewhere()
    notice()
    text = state.get_text()
    if text is None:
        _empty_state()
        return
    _keep_draft_in_url()
    source = state.source()
    diagnostics = sorted(
        [*services.lint_text(text, source), *editor_marks(text, source, state.draft_id())],
        key=Diagnostic.sort_key,
    )
    _toolbar(text, _title_of(text))
    left, right = st.columns([3, 2], gap="medium")
    with left:
        if view_switch() == "Form":
            form_view(_autosave)
        else:
            st.caption(
                "Write YAML. Problems are marked in the margin at their line (hover a mark to "
                "read it) and listed on the right. Your work is saved as you type. "
                "Keyboard: Enter starts a new line at the left edge; Tab indents by 2 spaces "
                "and Shift+Tab takes 2 back; Esc, then Tab, moves on to the rest of the page "
                "(Enter on the editor goes back to typing)."
            )
            blueprint_editor(diagnostics)
        parsed = services.parse(text, source)
        drafting_panel(parsed if isinstance(parsed, Blueprint) else None, _keep)
        st.page_link("views/run/run.py", label="Run this blueprint", icon=":material/play_circle:")
        did = state.draft_id()
        if did is not None:
            versions_panel(did, _restore)
    with right:
        if did is not None:  # first: the problems below change in number as the text does
            conversation_panel(did, text, _keep, VIEWER.email)
        _problems(diagnostics)
    st.divider()
    try_response(text)


main()
