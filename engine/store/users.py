"""Team members: recorded on first login (or by an admin before it), each with one role."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ROLES",
    "Role",
    "UserRow",
    "allowed_domains",
    "email_allowed",
    "first_admins",
    "first_role",
]

Role = Literal["admin", "editor", "viewer"]
"""Admins change roles; editors write blueprints and start runs; viewers read runs."""

ROLES: tuple[Role, ...] = ("admin", "editor", "viewer")


@dataclass(frozen=True)
class UserRow:
    """A team member.

    Attributes:
        email: The e-mail the identity provider gave (lower case), the member's key.
        name: The display name, if the provider gave one.
        role: admin, editor or viewer.
        created_at: When the member was recorded: the first login, or `blueprint members
            set` before it (ISO-8601, UTC).
        last_login_at: The latest login; empty when the member never logged in.
        disabled_at: When an admin disabled the member (who may then not log in), or None.
    """

    email: str
    name: str | None
    role: Role
    created_at: str
    last_login_at: str
    disabled_at: str | None = None

    @property
    def active(self) -> bool:
        """True unless the member is disabled."""
        return self.disabled_at is None


def _names(raw: str | None) -> frozenset[str]:
    return frozenset(
        p.strip().lower() for p in (raw or "").replace(";", ",").split(",") if p.strip()
    )


def first_admins(environ: Mapping[str, str], configured: Iterable[str] = ()) -> frozenset[str]:
    """The e-mails that are admins from their first login.

    From `BLUEPRINT_ADMINS` (comma separated) and `configured` (`[team] admins` of
    settings.toml).
    """
    return _names(environ.get("BLUEPRINT_ADMINS")) | {a.strip().lower() for a in configured}


def allowed_domains(environ: Mapping[str, str], configured: Iterable[str] = ()) -> frozenset[str]:
    """The e-mail domains in `BLUEPRINT_ALLOWED_DOMAINS` and `configured`.

    `configured` is `[team] allowed_domains` of settings.toml. Empty: any domain may log in.
    """
    names = [*_names(environ.get("BLUEPRINT_ALLOWED_DOMAINS")), *configured]
    return frozenset(d.strip().lower().lstrip("@") for d in names if d.strip())


def email_allowed(email: str, domains: frozenset[str], admins: frozenset[str]) -> bool:
    """True when this e-mail may use the studio: a first admin, or in an allowed domain."""
    address = email.strip().lower()
    if address in admins or not domains:
        return "@" in address or address in admins
    return address.rpartition("@")[2] in domains


def first_role(email: str, admins: frozenset[str]) -> Role:
    """The role of a member at first login: admin when listed in `BLUEPRINT_ADMINS`, else viewer."""
    return "admin" if email.strip().lower() in admins else "viewer"
