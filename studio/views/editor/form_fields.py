"""Form fields shared by the header and the prompts: text fields and read-only values."""

from __future__ import annotations

from typing import Any

import streamlit as st
import yaml

from engine.edit.form import FieldView, HeaderView, PromptView
from studio.core.textsafe import one_line, safe_markdown
from studio.views.editor.form_state import field as bound
from studio.views.editor.form_state import show_diagnostics, value

__all__ = ["plain", "read_only", "text_field"]


def plain(value: Any) -> Any:
    """A copy of a loaded value with plain `dict`/`list` (the loader's keep positions)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def read_only(field: FieldView) -> None:
    """Show a value the form cannot edit, as YAML text, with "edit in YAML"."""
    label = safe_markdown(f"`{one_line(field.key, 60)}` · edit in YAML")
    with st.expander(label, icon=":material/lock:"):
        st.caption(
            safe_markdown(field.note or "The form cannot show this; edit it in the YAML view.")
        )
        st.code(
            yaml.safe_dump({field.key: plain(field.value)}, allow_unicode=True, sort_keys=False),
            language="yaml",
        )
        show_diagnostics(field.diagnostics, f"ro:{field.key}:{field.lines}")


def text_field(
    view: HeaderView | PromptView,
    name: str,
    label: str,
    key: str,
    make: Any,
    *,
    area: bool = False,
    help_text: str | None = None,
) -> None:
    """A text field for `name`; `make(new value or None)` builds the edit."""
    field = view.field(name)
    if field is not None and not field.editable:
        read_only(field)
        return
    current = "" if field is None or field.value is None else str(field.value)
    widget = st.text_area if area or "\n" in current else st.text_input
    widget(
        label,
        help=help_text,
        **bound(key, current, lambda: make(str(value(key) or "").strip("\n") or None)),
    )
    if field is not None:
        show_diagnostics(field.diagnostics, key)
