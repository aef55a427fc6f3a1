"""What a results link holds, validated both ways: `ResultsView` ⇄ query parameters.

A share link is `/results?run=<id>`. Run ids are 128-bit random (`engine.store.new_run_id`),
so the link is the only capability needed to read a run. The view may also carry the prompt
page, the prompt and the model being looked at; nothing else ever goes into a link (no keys,
no responses, no blueprint text). Pure: no Streamlit import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

__all__ = [
    "RESULTS_PATH",
    "ResultsView",
    "base_url",
    "is_draft_id",
    "is_run_id",
    "results_link",
    "results_path",
]

RESULTS_PATH = "results"
"""The url_path of the Results page."""

_RUN_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_DRAFT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
_MAX_ID = 500


def is_run_id(value: object) -> bool:
    """True for a string shaped like a run id (URL-safe base64, 16-64 characters)."""
    return isinstance(value, str) and bool(_RUN_ID.fullmatch(value))


def is_draft_id(value: object) -> bool:
    """True for a string shaped like a draft id (URL-safe, 8-64 characters)."""
    return isinstance(value, str) and bool(_DRAFT_ID.fullmatch(value))


def _first(params: Mapping[str, object], key: str) -> str | None:
    value = params.get(key)
    if isinstance(value, list | tuple):
        value = value[0] if value else None
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class ResultsView:
    """The state of the Results page that a link can carry.

    Attributes:
        run: The run id, or None (an invalid id is dropped).
        page: The 1-based page of prompts.
        prompt: The prompt id being looked at, if any.
        model: The model id being looked at, if any.
    """

    run: str | None = None
    page: int = 1
    prompt: str | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        if self.run is not None and not is_run_id(self.run):
            raise ValueError(f"not a run id: {self.run!r}")
        if self.page < 1:
            raise ValueError("page must be 1 or more")
        for name in ("prompt", "model"):
            value = getattr(self, name)
            if value is not None and (not value or len(value) > _MAX_ID):
                raise ValueError(f"{name} must be a non-empty id of at most {_MAX_ID} characters")

    @classmethod
    def from_query_params(cls, params: Mapping[str, object]) -> ResultsView:
        """Read a view from query parameters, dropping whatever is malformed."""
        run = _first(params, "run")
        raw_page = _first(params, "page") or "1"
        page = int(raw_page) if raw_page.isdigit() and 0 < int(raw_page) < 1_000_000 else 1
        prompt = _first(params, "prompt")
        model = _first(params, "model")
        return cls(
            run=run if is_run_id(run) else None,
            page=page,
            prompt=prompt if prompt and len(prompt) <= _MAX_ID else None,
            model=model if model and len(model) <= _MAX_ID else None,
        )

    def to_query_params(self) -> dict[str, str]:
        """Return the query parameters of this view (defaults left out)."""
        out: dict[str, str] = {}
        if self.run is not None:
            out["run"] = self.run
        if self.page != 1:
            out["page"] = str(self.page)
        if self.prompt is not None:
            out["prompt"] = self.prompt
        if self.model is not None:
            out["model"] = self.model
        return out


def results_path(run_id: str) -> str:
    """The path of a run's results, `/results?run=<id>`."""
    if not is_run_id(run_id):
        raise ValueError(f"not a run id: {run_id!r}")
    return f"/{RESULTS_PATH}?{urlencode({'run': run_id})}"


def base_url(page_url: str | None, page_paths: tuple[str, ...] = ()) -> str:
    """The studio's base URL (scheme, host and base path) from the URL of any of its pages.

    Args:
        page_url: The URL the browser shows (for example `st.context.url`), or None.
        page_paths: The url_paths of the studio's pages, stripped from the end of the path.
    """
    if not page_url:
        return ""
    parts = urlsplit(page_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    path = parts.path.rstrip("/")
    last = path.rsplit("/", 1)[-1]
    if last and last in page_paths:
        path = path[: -len(last)].rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


def results_link(base: str, run_id: str) -> str:
    """The full share link of a run: `<base>/results?run=<id>` (just the path without a base)."""
    return base.rstrip("/") + results_path(run_id)
