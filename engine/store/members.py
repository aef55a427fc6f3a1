"""Team members and their login sessions in SQL (both backends), and the store's contract for them.

A member is a row of `users` (recorded at the first login, or by `blueprint members set`
before it). A login session is a row of `member_sessions`, keyed by a digest of the identity
provider's claims of one login (`engine.login.session_id`): logging out, removing or disabling
the member ends it on the server, so a copied login cookie stops working at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.errors import StoreError
from engine.store.migrations import now
from engine.store.users import Role, UserRow

__all__ = ["EndReason", "MemberQueries", "MemberStore", "SessionRow"]

EndReason = Literal["logout", "removed", "disabled", "idle"]
"""Why a login session ended: its member logged out, was removed or disabled, or went idle."""

_USER_COLUMNS = "email, name, role, created_at, last_login_at, disabled_at"
_SESSION_COLUMNS = "id, email, started_at, last_seen_at, ended_at, ended_reason"


@dataclass(frozen=True)
class SessionRow:
    """One login of a member, as the server knows it.

    Attributes:
        id: The digest of the login's claims (see `engine.login.session_id`).
        email: The member's e-mail.
        started_at: The first request of the login (ISO-8601, UTC).
        last_seen_at: The latest request seen (updated at most once a minute).
        ended_at: When the session ended, or None while it is open.
        ended_reason: Why it ended (`EndReason`), or None while it is open.
    """

    id: str
    email: str
    started_at: str
    last_seen_at: str
    ended_at: str | None = None
    ended_reason: str | None = None


def _key(email: str) -> str:
    return email.strip().lower()


class MemberStore(Protocol):
    """The members and sessions part of `engine.store.base.Store`."""

    def record_login(self, email: str, name: str | None, role: Role) -> UserRow:
        """Record a login: a new member gets `role`; a known one keeps theirs. Return the row."""
        ...

    def user(self, email: str) -> UserRow | None:
        """Return a member by e-mail, or None."""
        ...

    def users(self) -> list[UserRow]:
        """Return every member, by e-mail."""
        ...

    def set_role(self, email: str, role: Role) -> UserRow | None:
        """Change a member's role; return the row, or None when no member has that e-mail."""
        ...

    def set_member(self, email: str, role: Role) -> UserRow:
        """Give `email` a role, recording the member now if they never logged in. Return the row."""
        ...

    def remove_member(self, email: str) -> bool:
        """Delete a member and end their sessions; False when no member has that e-mail."""
        ...

    def set_disabled(self, email: str, disabled: bool) -> UserRow | None:
        """Disable (ending their sessions) or enable a member; None when there is no such member."""
        ...

    def session(self, session_id: str) -> SessionRow | None:
        """Return a login session by id, or None."""
        ...

    def start_session(self, session_id: str, email: str) -> SessionRow:
        """Record a login session (kept as it is when already recorded); return it."""
        ...

    def touch_session(self, session_id: str) -> None:
        """Mark an open session as used now."""
        ...

    def end_session(self, session_id: str, reason: EndReason) -> None:
        """End one session (an ended one keeps its first reason)."""
        ...

    def end_sessions(self, email: str, reason: EndReason) -> int:
        """End every open session of a member; return how many were open."""
        ...

    def forget_sessions(self, before: str) -> int:
        """Delete the sessions last seen before `before` (ISO-8601); return how many."""
        ...


class MemberQueries(ABC):
    """`MemberStore` over a backend's `_query` (see `engine.store.base.Store`)."""

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data lives (a file path or a database address without secrets)."""

    @abstractmethod
    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one statement in its own transaction; return the column names and the rows."""

    def _recorded(self, email: str) -> UserRow:
        row = self.user(email)
        if row is None:  # pragma: no cover - just written
            raise StoreError(f"{self.location}: the member {email} could not be recorded.")
        return row

    def record_login(self, email: str, name: str | None, role: Role) -> UserRow:
        """Record a login: a new member gets `role`; a known one keeps theirs. Return the row."""
        key, stamp = _key(email), now()
        self._query(
            f"INSERT INTO users({_USER_COLUMNS}) VALUES (?,?,?,?,?,NULL) ON CONFLICT(email) DO "
            "UPDATE SET name=COALESCE(excluded.name, users.name), last_login_at=excluded.last_login_at",
            (key, name, role, stamp, stamp),
            writing=True,
        )
        return self._recorded(key)

    def user(self, email: str) -> UserRow | None:
        """Return a member by e-mail, or None."""
        rows = self._query(f"SELECT {_USER_COLUMNS} FROM users WHERE email=?", (_key(email),))[1]
        return UserRow(*rows[0]) if rows else None

    def users(self) -> list[UserRow]:
        """Return every member, by e-mail."""
        rows = self._query(f"SELECT {_USER_COLUMNS} FROM users ORDER BY email")[1]
        return [UserRow(*r) for r in rows]

    def set_role(self, email: str, role: Role) -> UserRow | None:
        """Change a member's role; return the row, or None when no member has that e-mail."""
        self._query("UPDATE users SET role=? WHERE email=?", (role, _key(email)), writing=True)
        return self.user(email)

    def set_member(self, email: str, role: Role) -> UserRow:
        """Give `email` a role, recording the member now if they never logged in. Return the row."""
        key = _key(email)
        self._query(
            f"INSERT INTO users({_USER_COLUMNS}) VALUES (?,NULL,?,?,'',NULL) "
            "ON CONFLICT(email) DO UPDATE SET role=excluded.role",
            (key, role, now()),
            writing=True,
        )
        return self._recorded(key)

    def remove_member(self, email: str) -> bool:
        """Delete a member and end their sessions; False when no member has that e-mail."""
        key = _key(email)
        gone = self._query("DELETE FROM users WHERE email=? RETURNING email", (key,), writing=True)
        self.end_sessions(key, "removed")
        return bool(gone[1])

    def set_disabled(self, email: str, disabled: bool) -> UserRow | None:
        """Disable (ending their sessions) or enable a member; None when there is no such member."""
        key = _key(email)
        if disabled:
            self._query(
                "UPDATE users SET disabled_at=? WHERE email=? AND disabled_at IS NULL",
                (now(), key),
                writing=True,
            )
            self.end_sessions(key, "disabled")
        else:
            self._query("UPDATE users SET disabled_at=NULL WHERE email=?", (key,), writing=True)
        return self.user(key)

    def session(self, session_id: str) -> SessionRow | None:
        """Return a login session by id, or None."""
        rows = self._query(
            f"SELECT {_SESSION_COLUMNS} FROM member_sessions WHERE id=?", (session_id,)
        )[1]
        return SessionRow(*rows[0]) if rows else None

    def start_session(self, session_id: str, email: str) -> SessionRow:
        """Record a login session (kept as it is when already recorded); return it."""
        stamp = now()
        self._query(
            f"INSERT INTO member_sessions({_SESSION_COLUMNS}) VALUES (?,?,?,?,NULL,NULL) "
            "ON CONFLICT(id) DO NOTHING",
            (session_id, _key(email), stamp, stamp),
            writing=True,
        )
        row = self.session(session_id)
        if row is None:  # pragma: no cover - just written
            raise StoreError(f"{self.location}: a login session could not be recorded.")
        return row

    def touch_session(self, session_id: str) -> None:
        """Mark an open session as used now."""
        self._query(
            "UPDATE member_sessions SET last_seen_at=? WHERE id=? AND ended_at IS NULL",
            (now(), session_id),
            writing=True,
        )

    def end_session(self, session_id: str, reason: EndReason) -> None:
        """End one session (an ended one keeps its first reason)."""
        self._query(
            "UPDATE member_sessions SET ended_at=?, ended_reason=? WHERE id=? AND ended_at IS NULL",
            (now(), reason, session_id),
            writing=True,
        )

    def end_sessions(self, email: str, reason: EndReason) -> int:
        """End every open session of a member; return how many were open."""
        rows = self._query(
            "UPDATE member_sessions SET ended_at=?, ended_reason=? "
            "WHERE email=? AND ended_at IS NULL RETURNING id",
            (now(), reason, _key(email)),
            writing=True,
        )[1]
        return len(rows)

    def forget_sessions(self, before: str) -> int:
        """Delete the sessions last seen before `before` (ISO-8601); return how many."""
        rows = self._query(
            "DELETE FROM member_sessions WHERE last_seen_at < ? RETURNING id",
            (before,),
            writing=True,
        )[1]
        return len(rows)
