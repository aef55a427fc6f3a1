"""Static HTML tables: every label escaped, optional cell colours, drawn without a data grid.

A page that shows a few small tables (the Compare page) draws in a new tab about 1.5 s sooner
with these than with `st.dataframe`, whose canvas grid is a large script the browser must load
and lay out. Labels may come from a blueprint or a model: each one is HTML-escaped here, so
the table can add no tag, attribute or script. Colours come only from the page's own code.
Pure: no Streamlit import.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Table"]

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


@dataclass(frozen=True)
class Table:
    """A table of text cells, optionally with a header column and a background per cell.

    Attributes:
        columns: The column headers (of the data columns).
        rows: One list of cell texts per row, as long as `columns`.
        label: What the table holds, for screen readers (the table's accessible name).
        row_labels: A header cell per row (shown first), or None for no header column.
        corner: The header of the row-label column.
        colours: A background colour (`#rrggbb`) per cell, or None for plain cells.
        test_id: A `data-testid` for the table, so tests and benchmarks can find it.
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    label: str
    row_labels: Sequence[str] | None = None
    corner: str = ""
    colours: Sequence[Sequence[str]] | None = None
    test_id: str = "bp-table"

    def html(self) -> str:
        """The table as escaped HTML, in a box that scrolls sideways when it is wide.

        Raises:
            ValueError: A colour is not `#rrggbb` (colours come from code, never from input).
        """
        head = "".join(f'<th scope="col">{_e(c)}</th>' for c in self.columns)
        if self.row_labels is not None:
            head = f'<th scope="col">{_e(self.corner)}</th>' + head
        body = []
        for i, row in enumerate(self.rows):
            cells = []
            if self.row_labels is not None:
                cells.append(f'<th scope="row">{_e(self.row_labels[i])}</th>')
            for j, text in enumerate(row):
                cells.append(f"<td{self._style(i, j)}>{_e(text)}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        return (
            '<div class="bp-table-box">'
            f'<table class="bp-table" data-testid="{_e(self.test_id)}" aria-label="{_e(self.label)}">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        )

    def _style(self, i: int, j: int) -> str:
        if self.colours is None:
            return ""
        colour = self.colours[i][j]
        if not _COLOUR.fullmatch(colour):
            raise ValueError(f"not a #rrggbb colour: {colour!r}")
        return f' style="background-color: {colour}; color: #111111"'

    def records(self) -> list[dict[str, str]]:
        """The rows as column → text (row labels under `corner`), as a reader would list them."""
        out = []
        for i, row in enumerate(self.rows):
            record = {self.corner: self.row_labels[i]} if self.row_labels is not None else {}
            record.update(zip(self.columns, row, strict=True))
            out.append(record)
        return out
