"""Editor: write a blueprint, see its problems at their lines, fix them, try an answer."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from engine.blueprint import Blueprint
from engine.blueprint.title import title_of
from engine.conversation import response_evidence
from engine.errors import BlueprintError
from engine.jsvalues import format_score
from engine.lint import Diagnostic, apply_fix
from engine.offline import score_cell
from studio import access, figures, markers, services, state
from studio.components.common import notice, slug
from studio.components.editor import blueprint_editor, take_edit
from studio.formview import form_view, view_switch
from studio.gallery import BLANK, Example
from studio.resultdata import group_label, path_names
from studio.textsafe import one_line, safe_markdown

access.guard("editor")  # before anything is drawn or read

SAVED_PREFIX = "saved:"
TRY_ANSWER = "try_answer"
TRY_PROMPT = "try_prompt"
SAVE_NAME = "save_name"
ICONS = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
MAX_LISTED = 60


# --- keeping work -----------------------------------------------------------------------


def _title_of(text: str) -> str | None:
    parsed = services.parse(text, state.source())
    return parsed.title if isinstance(parsed, Blueprint) else title_of(text)


def _autosave(text: str) -> None:
    """Save the text as the session's draft (created on first use) and keep its id in the URL."""
    did = state.draft_id()
    if did is None:
        did = state.new_draft_id()
        st.session_state[state.DRAFT_ID] = did
    services.store().save_draft(did, text, _title_of(text))


def _open(text: str, source: str | None, message: str) -> None:
    """Open new text in the editor as a new draft (earlier drafts stay saved)."""
    st.session_state[state.DRAFT_ID] = state.new_draft_id()
    state.set_text(text, source_name=source, keep_source=False)
    st.session_state.pop(TRY_ANSWER, None)
    _autosave(text)
    state.set_notice("success", message)


def _apply(diagnostic: Diagnostic) -> None:
    text = state.get_text() or ""
    state.set_text(apply_fix(text, diagnostic))
    _autosave(state.get_text() or "")
    title = diagnostic.fix.title if diagnostic.fix else "fix"
    state.set_notice("success", f"Applied: {title} (line {diagnostic.line}).")


def _save_named() -> None:
    name = str(st.session_state.get(SAVE_NAME) or "").strip()
    text = state.get_text()
    if not name or text is None:
        state.set_notice("warning", "Give the blueprint a name to save it.")
        return
    services.store().save_draft(SAVED_PREFIX + name, text, name)
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
    for row in services.store().list_drafts():
        entry = {"id": row.id, "title": row.title or "", "updated_at": row.updated_at}
        (saved if entry["id"].startswith(SAVED_PREFIX) else recent).append(entry)
    return saved, recent


def _open_stored(draft: str, label: str) -> None:
    text = services.store().draft(draft)
    if text is None:
        state.set_notice("error", f"“{label}” is no longer in the store.")
        return
    _open(text, None, f"Opened “{label}”.")


def _stored_list(entries: Sequence[dict[str, str]], prefix: str, limit: int = 8) -> None:
    for i, entry in enumerate(entries[:limit]):
        label = entry["title"] or "Untitled blueprint"
        cols = st.columns([4, 2, 1], vertical_alignment="center")
        cols[0].markdown(safe_markdown(label))
        cols[1].caption(entry["updated_at"][:16].replace("T", " ") + " UTC")
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
    cols = st.columns([3, 1, 1, 1, 1], vertical_alignment="bottom")
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
            help="Saving again under the same name replaces the earlier version.",
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


# --- problems ---------------------------------------------------------------------------


def _problems(diagnostics: Sequence[Diagnostic]) -> None:
    st.markdown("#### Problems")
    found = markers.counts(diagnostics)
    if not diagnostics:
        st.success("No problems found. Try an answer below, or run the blueprint.")
        return
    say = markers.summary(diagnostics)
    (st.error if found["error"] else st.warning if found["warning"] else st.info)(say)
    with st.container(height=520, border=False):
        for i, d in enumerate(diagnostics[:MAX_LISTED]):
            with st.container(border=True):
                st.markdown(
                    f"{ICONS[d.severity]} **{markers.SEVERITY_WORDS[d.severity]}** · "
                    f"line {d.line}, column {d.column}"
                )
                st.markdown(safe_markdown(d.message))
                if d.fix is not None:
                    st.button(
                        f"Apply fix: {safe_markdown(d.fix.title)}",
                        key=f"fix-{i}-{d.line}-{d.column}-{d.code}",
                        on_click=_apply,
                        args=(d,),
                        icon=":material/auto_fix_high:",
                    )
        if len(diagnostics) > MAX_LISTED:
            st.caption(f"{len(diagnostics) - MAX_LISTED} more not listed; fix these first.")


# --- try a response ---------------------------------------------------------------------


def _use_ideal(ideal: str) -> None:
    st.session_state[TRY_ANSWER] = ideal


def _try_response(text: str) -> None:
    st.markdown("#### Try a response")
    st.caption(
        "Paste an answer a model might give and see every function point (`$…`) scored at "
        "once, with no API call. Points written in words need an LLM judge: they are scored "
        "when you run the blueprint."
    )
    parsed = services.parse(text, state.source())
    if isinstance(parsed, BlueprintError):
        st.info("The blueprint cannot be read yet (see Problems). Fix the error to try answers.")
        return
    if not parsed.prompts:
        st.info("Add a prompt to the blueprint to try an answer.")
        return
    ids = [p.id for p in parsed.prompts]
    if st.session_state.get(TRY_PROMPT) not in ids:
        st.session_state[TRY_PROMPT] = ids[0]
    pid = st.selectbox(
        "Prompt",
        ids,
        key=TRY_PROMPT,
        format_func=lambda i: f"{i} — {one_line(_question(parsed, i), 70)}",
    )
    prompt = parsed.prompt(str(pid))
    if prompt is None:
        return
    cols = st.columns([4, 1], vertical_alignment="bottom")
    with cols[0]:
        answer = st.text_area(
            "An answer to score",
            key=TRY_ANSWER,
            height=140,
            placeholder="Paste or type an answer a model might give…",
        )
    with cols[1]:
        st.button("Score this answer", type="primary", width="stretch")
        if prompt.ideal:
            st.button(
                "Use the ideal answer",
                on_click=_use_ideal,
                args=(prompt.ideal,),
                width="stretch",
                help="Fill in the prompt's `ideal` answer from the blueprint.",
            )
    if not answer or not answer.strip():
        st.caption("The scores appear here once there is an answer.")
        return
    evidence = response_evidence(parsed, prompt, "your answer", response=answer)
    cell = score_cell(parsed, prompt, evidence, services.check_env())
    rows = []
    names = path_names(a.path_id for a in cell.assessments)
    for a in cell.assessments:
        if a.counts and a.coverage_extent is not None:
            value = format_score(a.coverage_extent)
        elif a.status == "unverified" and a.kind == "text":
            value = "needs a judge"
        else:
            value = a.status
        rows.append(
            {
                "Point": a.key_point_text,
                "Checked by": "function" if a.kind == "function" else "LLM judge",
                "Group": group_label(a.path_id, a.is_inverted, names),
                "Weight": a.multiplier,
                "Score": value,
                "Why": a.error or ("" if a.kind == "text" else (a.reflection or "")),
            }
        )
    metric_cols = st.columns([1, 3])
    with metric_cols[0]:
        st.metric(
            "Score without judges",
            format_score(cell.score),
            help="The mean of the function points only; judged points are left out here.",
        )
    with metric_cols[1]:
        judged = sum(1 for a in cell.assessments if a.kind == "text")
        if cell.score is None:
            st.caption("Nothing here can be checked by a function: every point needs a judge.")
        elif judged:
            st.caption(
                f"{judged} point{'s' if judged != 1 else ''} written in words "
                "will be scored by judges when you run the blueprint, and may change the score."
            )
    st.dataframe(rows, hide_index=True, width="stretch")
    with st.expander("How this score is computed"):
        for step in figures.explanation_steps(cell.explain()):
            st.text(step)
    if len([m for m in prompt.messages if m.is_placeholder]) > 0:
        st.caption(
            "This prompt is a conversation: your answer is scored as the model's final turn."
        )


def _question(bp: Blueprint, pid: str) -> str:
    prompt = bp.prompt(pid)
    if prompt is None:
        return ""
    users = [m.content for m in prompt.messages if m.role == "user" and m.content]
    return users[-1] if users else ""


# --- page -------------------------------------------------------------------------------


def main() -> None:
    """Render the Editor page."""
    st.title("Editor")
    notice()
    edited = take_edit()
    if edited is not None:
        _autosave(edited)
    text = state.get_text()
    if text is None:
        _empty_state()
        return
    _keep_draft_in_url()
    source = state.source()
    diagnostics = services.lint_text(text, source)
    _toolbar(text, _title_of(text))
    left, right = st.columns([3, 2], gap="medium")
    with left:
        if view_switch() == "Form":
            form_view(_autosave)
        else:
            st.caption(
                "Write YAML. Problems are marked in the margin at their line (hover a mark to "
                "read it) and listed on the right. Your work is saved as you type. "
                "Keyboard: Tab indents; Esc, then Tab, moves on to the rest of the page "
                "(Enter on the editor goes back to typing)."
            )
            blueprint_editor(diagnostics)
        st.page_link("app_pages/run.py", label="Run this blueprint", icon=":material/play_circle:")
    with right:
        _problems(diagnostics)
    st.divider()
    _try_response(text)


main()
