"""Who a team studio lets in, request by request: the login's claims, the members, the sessions.

The identity provider's claims of one login (what Streamlit keeps in its login cookie) name a
server-side session (`session_id`). `admit` is asked on every request: it refuses an e-mail
the studio does not accept, a disabled or removed member, and a session that ended (Log out,
removal, disabling) or went idle for longer than the session lifetime; it records a new
login and makes an e-mail of `BLUEPRINT_ADMINS` an admin at every login, but only when the
provider says the e-mail is verified (`email_verified`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from engine.store.members import MemberStore
from engine.store.users import UserRow, email_allowed

__all__ = [
    "FIX_NO_ADMIN",
    "REFUSALS",
    "TOUCH_EVERY_S",
    "Admission",
    "Refusal",
    "admit",
    "email_verified",
    "has_admin",
    "session_id",
]

Refusal = Literal["denied", "disabled", "logout", "removed", "idle"]
"""Why a logged-in browser is not let in (see `REFUSALS`)."""

REFUSALS: dict[Refusal, str] = {
    "denied": (
        "The account you logged in with may not use this studio. Log out, then log in with "
        "your work account, or ask an admin to allow your e-mail domain."
    ),
    "disabled": (
        "Your access to this studio is disabled. Ask an admin of this studio to enable it."
    ),
    "logout": "You logged out. Log in again to go on.",
    "removed": (
        "You are no longer a member of this studio: an admin removed you. Log in again if "
        "an admin asked you to."
    ),
    "idle": "Your login ended after a long time without use. Log in again to go on.",
}
"""What a refused visitor is told, by refusal."""

FIX_NO_ADMIN = "blueprint members set EMAIL admin"
"""The command that gives a team its first admin (run where the studio's store is reachable)."""

TOUCH_EVERY_S = 60.0
"""A session's last use is written at most this often (a request of an open session reads it)."""

_KEPT_DAYS = 31
"""Sessions unused for longer than this (and the session lifetime) are deleted at a login."""


def email_verified(claims: Mapping[str, object]) -> bool:
    """True when the identity provider says the e-mail is verified (`email_verified`)."""
    flag = claims.get("email_verified")
    return flag is True or (isinstance(flag, str) and flag.strip().lower() == "true")


def session_id(claims: Mapping[str, object]) -> str:
    """The id of the login these claims come from: a digest of who, which provider and when.

    An OpenID Connect ID token of a new login has a new `nonce` and `iat`, so every login
    gets a new id; a copied cookie holds the same claims, hence the same id.
    """
    fields = ("iss", "aud", "sub", "email", "iat", "exp", "nonce", "sid", "auth_time")
    picked = {name: claims.get(name) for name in fields}
    text = json.dumps(picked, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def has_admin(members: list[UserRow]) -> bool:
    """True when an enabled member is an admin."""
    return any(m.role == "admin" and m.active for m in members)


@dataclass(frozen=True)
class Admission:
    """What `admit` decided about one request.

    Attributes:
        email: The e-mail of the claims (lower case), or None when they have none.
        member: The member let in, or None when refused.
        refusal: Why not, or None when let in.
        session: The login's session id.
    """

    email: str | None
    member: UserRow | None
    refusal: Refusal | None
    session: str


_ENDED: dict[str, Refusal] = {"logout": "logout", "removed": "removed", "disabled": "disabled"}


def _moment(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _issued(claims: Mapping[str, object]) -> datetime | None:
    raw = claims.get("iat")
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return datetime.fromtimestamp(raw, UTC)
    return None


def admit(
    store: MemberStore,
    claims: Mapping[str, object],
    *,
    admins: frozenset[str],
    domains: frozenset[str],
    idle_hours: float,
    clock: datetime | None = None,
) -> Admission:
    """Let a logged-in browser in, or say why not; record a new login on the way.

    Args:
        store: The team's store.
        claims: The identity provider's claims of the login (Streamlit's `st.user`).
        admins: `BLUEPRINT_ADMINS` and `[team] admins` (lower case).
        domains: The allowed e-mail domains (empty: any).
        idle_hours: The session lifetime: hours without a request that end a login.
        clock: The current time (tests); default now.
    """
    raw = claims.get("email")
    email = raw.strip().lower() if isinstance(raw, str) and raw.strip() else None
    sid = session_id(claims)
    moment = clock or datetime.now(UTC)
    idle = timedelta(hours=idle_hours)
    listed = frozenset(admins) if email_verified(claims) else frozenset()
    if email is None or not email_allowed(email, domains, listed):
        return Admission(email, None, "denied", sid)
    member = store.user(email)
    if member is not None and not member.active:
        return Admission(email, None, "disabled", sid)
    session = store.session(sid)
    if session is not None and session.ended_reason is not None:
        refusal: Refusal = _ENDED.get(session.ended_reason, "idle")
        return Admission(email, None, refusal, sid)
    if session is None:
        issued = _issued(claims)
        if issued is not None and moment - issued > idle:  # an old login the server never saw
            return Admission(email, None, "idle", sid)
        member = _new_login(store, claims, email, sid, admin=email in listed)
        store.forget_sessions(_stamp(moment - max(idle, timedelta(days=_KEPT_DAYS))))
        return Admission(email, member, None, sid)
    if moment - _moment(session.last_seen_at) > idle:
        store.end_session(sid, "idle")
        return Admission(email, None, "idle", sid)
    if member is None:  # deleted without ending its sessions (by hand, in SQL)
        store.end_sessions(email, "removed")
        return Admission(email, None, "removed", sid)
    if (moment - _moment(session.last_seen_at)).total_seconds() >= TOUCH_EVERY_S:
        store.touch_session(sid)
    return Admission(email, member, None, sid)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _new_login(
    store: MemberStore, claims: Mapping[str, object], email: str, sid: str, *, admin: bool
) -> UserRow:
    """Record a login: the member (new: viewer, or admin when listed), its session."""
    name = claims.get("name")
    member = store.record_login(
        email, name if isinstance(name, str) else None, "admin" if admin else "viewer"
    )
    if admin and member.role != "admin":  # BLUEPRINT_ADMINS holds at every login
        member = store.set_role(email, "admin") or member
    store.start_session(sid, email)
    return member
