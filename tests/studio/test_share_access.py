"""Share links in the studio: who may open what, the Share panel, the shared-results page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.store import ShareLink, new_share_token
from studio.access import Viewer, allowed_pages, link_verdict
from tests.studio.helpers import app, buttons, texts

OWNER = Viewer(team=False, logged_in=True)
MEMBER = Viewer(team=True, logged_in=True, email="a@example.org", role="editor")
STRANGER = Viewer(team=True, logged_in=False)


def link(audience: str = "anyone", **kw: str | None) -> ShareLink:
    return ShareLink(new_share_token(), "r" * 22, audience, "2026-01-01T00:00:00+00:00", **kw)  # type: ignore[arg-type]


def test_a_stranger_gets_the_login_and_share_pages_only():
    assert set(allowed_pages(STRANGER)) == {"login", "share"}
    for refusal in ("denied", "disabled", "removed", "logout", "idle"):
        refused = Viewer(team=True, logged_in=False, email="eve@example.org", refusal=refusal)  # type: ignore[arg-type]
        assert set(allowed_pages(refused)) == {"login", "share"}
    work = {"editor", "run", "results", "history", "compare", "preferences", "settings", "share"}
    assert set(allowed_pages(OWNER)) == work


def test_each_role_gets_its_pages():
    def pages(role: str) -> set[str]:
        return set(allowed_pages(Viewer(team=True, logged_in=True, email="a@x.org", role=role)))  # type: ignore[arg-type]

    assert pages("viewer") == {"results", "history", "compare", "share"}
    editor = {"editor", "run", "results", "history", "compare", "preferences", "share"}
    assert pages("editor") == editor
    assert pages("admin") == editor | {"settings", "admin"}


def test_link_verdicts():
    later = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    earlier = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    assert link_verdict(None, STRANGER) == "unknown"
    assert link_verdict(link("anyone", expires_at=later), STRANGER) == "ok"
    assert link_verdict(link("team"), STRANGER) == "login"
    assert link_verdict(link("team"), MEMBER) == "ok"
    assert link_verdict(link("team"), OWNER) == "ok"
    assert link_verdict(link("anyone", expires_at=earlier), MEMBER) == "expired"
    assert link_verdict(link("anyone", revoked_at=earlier), OWNER) == "revoked"


def test_personal_share_panel_creates_lists_and_revokes_links(or_paths_run):
    store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    warning = " ".join(texts(at, "warning"))
    assert "works on this computer only" in warning
    assert "HTML report" in warning and "docs/deploy.md" in warning
    assert "No share link yet." in texts(at, "caption")
    # personal mode has no team members: nobody is offered "Team members (logged in)"
    assert not [r for r in at.radio if r.key == f"share-who-{run_id}"]
    assert any("anyone with the link" in c for c in texts(at, "caption"))
    at.selectbox(key=f"share-exp-{run_id}").set_value("7 days")
    buttons(at, "Create share link")[0].click().run()
    links = store.share_links(run_id)
    assert len(links) == 1 and links[0].audience == "anyone" and links[0].expires_at
    token = links[0].token
    assert any(f"/share?token={token}" in str(c.value) for c in at.code)

    visitor = app().run()  # a first run registers the pages' url_paths
    visitor.query_params["token"] = token
    visitor.switch_page("views/share/share.py").run()
    assert not visitor.exception
    assert "Leaderboard" in texts(visitor, "subheader")
    assert [b.label for b in visitor.get("download_button")][:1] == ["Download report (HTML)"]

    buttons(at, "Revoke")[0].click().run()
    assert store.share_link(token).state() == "revoked"
    visitor.run()
    assert "Leaderboard" not in texts(visitor, "subheader")
    assert any("revoked" in e for e in texts(visitor, "error"))


def test_a_made_up_token_opens_nothing(or_paths_run):
    at = app().run()
    at.query_params["token"] = new_share_token()
    at.switch_page("views/share/share.py").run()
    assert not at.exception
    assert any("does not open anything" in e for e in texts(at, "error"))
    assert "Leaderboard" not in texts(at, "subheader")
