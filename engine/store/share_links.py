"""Share links: read-only capabilities to one run's results, separate from run ids."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, TypeGuard
from urllib.parse import parse_qs, urlencode, urlsplit

__all__ = [
    "Audience",
    "LinkState",
    "ShareLink",
    "is_share_token",
    "new_share_token",
    "parse_duration",
    "share_url",
    "token_from_link",
]

Audience = Literal["team", "anyone"]
"""Who may open a link: logged-in team members only, or anyone holding it."""

LinkState = Literal["active", "revoked", "expired"]

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{31}")
_DURATION = re.compile(r"\s*(\d{1,4})\s*([mhdw])\s*")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def new_share_token() -> str:
    """Return a new link token: 192 random bits, URL-safe, never starting with - or _."""
    while True:
        token = secrets.token_urlsafe(24)
        if token[0].isalnum():
            return token


def is_share_token(value: object) -> TypeGuard[str]:
    """True for a string shaped like a share-link token (32 URL-safe characters)."""
    return isinstance(value, str) and bool(_TOKEN.fullmatch(value))


SHARE_PATH = "share"
"""The url_path of the studio's page that opens a share link: `/share?token=TOKEN`."""


def share_url(base: str, token: str) -> str:
    """The full link of a token: `<base>/share?token=TOKEN` (the path alone without a base)."""
    return f"{base.rstrip('/')}/{SHARE_PATH}?{urlencode({'token': token})}"


def token_from_link(link: str) -> str | None:
    """The token in a share link (or a bare token); None when it holds none."""
    text = link.strip()
    if is_share_token(text):
        return text
    values = parse_qs(urlsplit(text[:2000]).query).get("token") or []
    return values[0] if values and is_share_token(values[0]) else None


def parse_duration(text: str) -> timedelta:
    """Read a duration like `30m`, `12h`, `7d` or `2w`.

    Raises:
        ValueError: The text is not a number (1 to 9999) followed by m, h, d or w.
    """
    match = _DURATION.fullmatch(text)
    if match is None or int(match.group(1)) == 0:
        raise ValueError(
            "write the expiry as a number and a unit: 30m, 12h, 7d or 2w (minutes, hours, "
            "days, weeks)"
        )
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def _parse(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class ShareLink:
    """A share link of a run.

    Attributes:
        token: The secret in the link (the capability itself).
        run_id: The run it opens.
        audience: `team` (logged-in members) or `anyone` holding the link.
        created_at: When it was made (ISO-8601, UTC).
        expires_at: When it stops working, or None for never.
        revoked_at: When it was revoked, or None.
        created_by: Who made it (an e-mail in team mode), if known.
    """

    token: str
    run_id: str
    audience: Audience
    created_at: str
    expires_at: str | None = None
    revoked_at: str | None = None
    created_by: str | None = None

    def state(self, at: datetime | None = None) -> LinkState:
        """Whether the link works at `at` (default now): active, revoked or expired."""
        if self.revoked_at is not None:
            return "revoked"
        moment = at or datetime.now(UTC)
        if self.expires_at is not None and _parse(self.expires_at) <= moment:
            return "expired"
        return "active"
