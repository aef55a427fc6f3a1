"""`blueprint members`: who may log in to a team studio, with which role (also before a first login)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

from engine.store.users import ROLES, Role

if TYPE_CHECKING:
    from engine.store import Store

__all__ = ["members"]


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(2)


def _store() -> Store:
    from engine.errors import EngineError
    from engine.store import open_store

    try:
        return open_store()
    except EngineError as exc:
        _fail(str(exc))


def _email(raw: str) -> str:
    email = raw.strip().lower()
    if "@" not in email or email.startswith("@") or email.endswith("@") or " " in email:
        _fail(f"{raw!r} is not an e-mail address: give the one the person logs in with.")
    return email


def _warn_without_admin(store: Store) -> None:
    from engine.login import FIX_NO_ADMIN, has_admin

    if not has_admin(store.users()):
        click.echo(f"warning: the team has no admin; give it one with `{FIX_NO_ADMIN}`.", err=True)


@click.group("members")
def members() -> None:
    """Manage a team studio's members: list them, set a role, remove, disable or enable one.

    The store is the studio's: BLUEPRINT_DATABASE_URL when it is set, else
    $BLUEPRINT_HOME/studio.db. Changes take effect at the member's next click in the studio.
    Exit codes: 0 done; 2 when an argument or the store is unusable or no member has the e-mail.
    """


@members.command("list")
def list_cmd() -> None:
    """List the members: e-mail, role, status and last login."""
    store = _store()
    rows = store.users()
    if not rows:
        click.echo("No members yet: they are recorded at their first login.")
    else:
        width = max(len("e-mail"), *(len(u.email) for u in rows))
        click.echo(f"{'e-mail':<{width}}  {'role':<6}  {'status':<8}  last login")
        for u in rows:
            status = "active" if u.active else "disabled"
            seen = u.last_login_at[:16].replace("T", " ") or "never"
            click.echo(f"{u.email:<{width}}  {u.role:<6}  {status:<8}  {seen}")
    _warn_without_admin(store)


@members.command("set")
@click.argument("email")
@click.argument("role", type=click.Choice(ROLES))
def set_cmd(email: str, role: str) -> None:
    """Give EMAIL the role ROLE (admin, editor or viewer), also before their first login."""
    address = _email(email)
    store = _store()
    known = store.user(address) is not None
    wanted: Role = next(r for r in ROLES if r == role)
    row = store.set_member(address, wanted)
    if known:
        click.echo(f"{row.email} is now {row.role}.")
    else:
        click.echo(f"{row.email} is recorded as {row.role}; the role holds from their first login.")
    if not row.active:
        click.echo(f"{row.email} is disabled: `blueprint members enable {row.email}` lets them in.")
    _warn_without_admin(store)


@members.command("remove")
@click.argument("email")
def remove_cmd(email: str) -> None:
    """Remove EMAIL from the members and end their logins at once."""
    address = _email(email)
    store = _store()
    if not store.remove_member(address):
        _fail(f"No member has the e-mail {address}: see `blueprint members list`.")
    click.echo(
        f"{address} is removed and logged out. If their e-mail domain is allowed they may log "
        f"in again as a viewer: `blueprint members disable {address}` keeps them out."
    )
    _warn_without_admin(store)


def _set_disabled(email: str, disabled: bool) -> None:
    address = _email(email)
    store = _store()
    if store.set_disabled(address, disabled) is None:
        _fail(f"No member has the e-mail {address}: see `blueprint members list`.")
    click.echo(f"{address} is disabled and logged out." if disabled else f"{address} is enabled.")
    _warn_without_admin(store)


@members.command("disable")
@click.argument("email")
def disable_cmd(email: str) -> None:
    """Disable EMAIL: logged out at once, and refused at login until enabled."""
    _set_disabled(email, True)


@members.command("enable")
@click.argument("email")
def enable_cmd(email: str) -> None:
    """Enable EMAIL again (a disabled member may log in)."""
    _set_disabled(email, False)
