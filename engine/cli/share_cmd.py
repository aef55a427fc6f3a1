"""`blueprint share`: make (or revoke) a read-only link to one run's results."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime

import click

__all__ = ["DEFAULT_STUDIO_URL", "share_cmd"]

DEFAULT_STUDIO_URL = "http://127.0.0.1:8501"


def _fail(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(2)


@click.command("share")
@click.argument("run_id", metavar="RUN", required=False)
@click.option(
    "--anyone", is_flag=True, help="Anyone holding the link may open it, not only the team."
)
@click.option(
    "--expires", metavar="DURATION", help="The link stops working after 30m, 12h, 7d, 2w..."
)
@click.option("--revoke", metavar="LINK", help="Revoke this link (the link or its token) instead.")
def share_cmd(run_id: str | None, anyone: bool, expires: str | None, revoke: str | None) -> None:
    """Print a read-only share link to RUN's results, or revoke one with --revoke LINK.

    The link opens that run's scores and report download and nothing else. It starts with
    $BLUEPRINT_STUDIO_URL (the team's public URL; default http://127.0.0.1:8501). Without
    --anyone only logged-in team members may open it. Exit codes: 0, or 2 when the run or
    link is unknown or an option is unusable. Put `--` before a run id that starts with `-`.
    """
    from engine.errors import EngineError
    from engine.store import open_store
    from engine.store.share_links import parse_duration, share_url, token_from_link

    base = os.environ.get("BLUEPRINT_STUDIO_URL") or DEFAULT_STUDIO_URL
    if revoke is not None:
        if run_id is not None or anyone or expires is not None:
            _fail("--revoke LINK takes nothing else: give only the link to revoke.")
        token = token_from_link(revoke)
        if token is None:
            _fail("That is not a share link: copy the whole link (…/share?token=…).")
            return
        try:
            link = open_store().revoke_share_link(token)
        except EngineError as exc:
            _fail(str(exc))
            return
        if link is None:
            _fail("No share link has that token: check the link you copied.")
            return
        click.echo(f"Revoked: {share_url(base, link.token)} now says it was revoked.")
        return
    if run_id is None:
        _fail("Give the run to share (blueprint share RUN), or --revoke LINK.")
        return
    expires_at = None
    if expires is not None:
        try:
            expires_at = datetime.now(UTC) + parse_duration(expires)
        except ValueError as exc:
            _fail(f"--expires {expires[:20]!s}: {exc}.")
    try:
        store = open_store()
        if len(run_id) > 100 or store.get_run(run_id) is None:
            _fail(
                f"No run {run_id[:40]!s} in {store.location}: copy the id `blueprint run` printed."
            )
            return
        link = store.create_share_link(run_id, "anyone" if anyone else "team", expires_at)
    except EngineError as exc:
        _fail(str(exc))
        return
    click.echo(share_url(base, link.token))
    who = "anyone with the link" if anyone else "logged-in team members"
    until = f" until {link.expires_at.replace('T', ' ')} UTC" if link.expires_at else ""
    click.echo(f"Read-only, for {who}{until}. Revoke: blueprint share --revoke LINK", err=True)
