"""Where a results page's links go: a prompt's detail, and a pair of answers side by side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

__all__ = ["Links", "anchor", "report_links"]


def anchor(prompt_id: str) -> str:
    """The id of a prompt's detail (`p-` and the id, percent-encoded, so it is one token)."""
    return "p-" + quote(prompt_id, safe="")


@dataclass(frozen=True)
class Links:
    """How a page links to a prompt's detail and picks two answers to read side by side.

    Attributes:
        prompt: The href of a prompt's detail.
        pair: The href of a prompt with models a and b side by side; None in the offline
            report, where two radio groups pick them with CSS alone (no script).
    """

    prompt: Callable[[str], str]
    pair: Callable[[str, str, str], str] | None = None


def report_links() -> Links:
    """The one-file report's links: anchors within the file."""
    return Links(prompt=lambda pid: "#" + anchor(pid))
