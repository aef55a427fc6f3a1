"""The form's header: title, description, models, judges, tags, system prompt, temperatures."""

from __future__ import annotations

import streamlit as st

from engine.edit import EditError, SetHeader
from engine.edit.form import HeaderView, header_view
from engine.edit.values import judges_of
from studio.views.editor.form_fields import read_only, text_field
from studio.views.editor.form_state import field as bound
from studio.views.editor.form_state import session, show_diagnostics, value

__all__ = ["header_section"]

SUGGESTED_MODELS = ["openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5", "ideal"]
NO_SYSTEM = "(none)"
TEXT_FIELDS = {
    "title": "Title",
    "description": "Description",
    "system": "System prompt (for every prompt)",
}


def _list_field(view: HeaderView, name: str, label: str, suggestions: list[str]) -> None:
    field = view.field(name)
    if field is not None and not field.editable:
        read_only(field)
        return
    current = [str(v) for v in field.value] if field is not None else []
    options = list(dict.fromkeys([*current, *suggestions]))
    st.multiselect(
        label,
        options,
        accept_new_options=True,
        **bound(
            f"h:{name}",
            current,
            lambda: SetHeader(name, list(value(f"h:{name}") or []) or None),
        ),
    )
    if field is not None:
        show_diagnostics(field.diagnostics, f"h:{name}")


def _judges(view: HeaderView) -> None:
    field = view.field("evaluationConfig")
    if field is not None and not field.editable:
        read_only(field)
        return
    current = judges_of(field.value) or [] if field is not None else []

    def make() -> SetHeader:
        models = list(value("h:judges") or [])
        config = {"llm-coverage": {"judges": [{"model": m} for m in models]}} if models else None
        return SetHeader("evaluationConfig", config)

    st.multiselect(
        "Judges (models that score the points written in words)",
        list(dict.fromkeys([*current, *SUGGESTED_MODELS[:2]])),
        accept_new_options=True,
        help="Leave empty for Weval's default judges.",
        **bound("h:judges", current, make),
    )
    if field is not None:
        show_diagnostics(field.diagnostics, "h:judges")


def _temperatures(view: HeaderView) -> None:
    field = view.field("temperatures") or view.field("temperature")
    if field is not None and not field.editable:
        read_only(field)
        return
    name = field.name if field is not None else "temperatures"
    written = field.value if field is not None else []
    shown = ", ".join(str(v) for v in (written if isinstance(written, list) else [written]))

    def make() -> SetHeader:
        typed = [t.strip() for t in str(value("h:temps") or "").split(",") if t.strip()]
        numbers = [float(t) for t in typed]
        if name == "temperature":
            if len(numbers) > 1:
                raise EditError("This blueprint sets one `temperature`; write one number here.")
            return SetHeader("temperature", numbers[0] if numbers else None)
        return SetHeader("temperatures", numbers or None)

    label = "Temperature" if name == "temperature" else "Temperatures (comma-separated)"
    st.text_input(f"{label}; empty for the default", **bound("h:temps", shown, make))
    if field is not None:
        show_diagnostics(field.diagnostics, "h:temps")


def _systems(view: HeaderView) -> None:
    field = view.field("systems")
    if field is None:
        return
    one_line = all(v is None or "\n" not in str(v) for v in field.value or [])
    if not field.editable or not one_line:
        read_only(field)
        return
    shown = "\n".join(NO_SYSTEM if v is None else str(v) for v in field.value)

    def make() -> SetHeader:
        lines = [line.strip() for line in str(value("h:systems") or "").splitlines()]
        kept = [None if line == NO_SYSTEM else line for line in lines if line]
        return SetHeader("systems", kept or None)

    st.text_area(
        f"System prompts to compare (one per line; {NO_SYSTEM} for none)",
        **bound("h:systems", shown, make),
    )
    show_diagnostics(field.diagnostics, "h:systems")


def header_section() -> None:
    """The header fields, the header's read-only rest, and diagnostics about the header."""
    view = header_view(session())
    st.markdown("#### Blueprint")
    for name, label in TEXT_FIELDS.items():
        if name == "system" and view.field("systems") is not None:
            continue
        text_field(
            view, name, label, f"h:{name}", lambda v, n=name: SetHeader(n, v), area=name != "title"
        )
    _list_field(view, "models", "Models to test", SUGGESTED_MODELS)
    _judges(view)
    _list_field(view, "tags", "Tags", [])
    _temperatures(view)
    _systems(view)
    for field in view.extras:
        read_only(field)
    show_diagnostics(view.diagnostics, "h:rest")
