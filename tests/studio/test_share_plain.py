"""The plain share page (`studio.views.share.share_route`): a share link's run as HTML with no script.

The middleware is tested in front of a stand-in app (the one Streamlit would be): it answers
`/share` and `/share/download` itself and hands every other request, and "team only" links, to
the app behind it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from engine.store import Store, open_store
from studio.views.share.share_html import MESSAGES
from studio.views.share.share_route import SharePages
from tests.studio.helpers import make_run
from tests.studio.test_report import HOSTILE, assert_inert, parsed

BEHIND = "the app behind the share pages"

TEXT = (
    f"title: 'Shared {HOSTILE}'\n"
    "---\n"
    "- id: xss\n"
    f"  prompt: 'Say {HOSTILE}'\n"
    f"  ideal: '{HOSTILE}'\n"
    "  should:\n"
    "    - $contains: '<script>'\n"
)


async def _behind(request: Request) -> PlainTextResponse:
    return PlainTextResponse(f"{BEHIND}: {request.url.path}")


@pytest.fixture
def client() -> TestClient:
    app = Starlette(routes=[Route("/{path:path}", _behind, methods=["GET", "POST"])])
    app.add_middleware(SharePages)
    return TestClient(app, base_url="http://127.0.0.1:8501")


@pytest.fixture
def shared() -> tuple[Store, str]:
    store = open_store()
    return store, make_run(store, TEXT, ["ideal"])


def test_an_anyone_link_shows_the_scores_as_inert_html(client: TestClient, shared):
    store, run_id = shared
    token = store.create_share_link(run_id, "anyone").token
    answer = client.get(f"/share?token={token}&draft=draft-0001")
    assert answer.status_code == 200
    assert "script-src" not in answer.headers["content-security-policy"]
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-store"
    doc = answer.text
    # the one form is the page's own download form; everything else is the inert report
    form = re.search(r"<form .*?</form>", doc)
    assert form is not None and 'action="share/download"' in form.group(0)
    assert_inert(doc.replace(form.group(0), ""))
    text = " ".join(parsed(doc).text)
    assert "Leaderboard" in text and "1.00" in text and "read-only" in text
    assert HOSTILE in text  # the model's answer is text on the page, never markup
    assert "<script>window" not in doc
    assert f"/share?token={token}" in text  # the link, shown as text
    assert BEHIND not in doc


def test_the_download_buttons_give_the_run_s_files(client: TestClient, shared):
    store, run_id = shared
    token = store.create_share_link(run_id, "anyone").token
    page = client.get(f"/share?token={token}").text
    for kind, name in [("html", "Download report (HTML)"), ("json", "Comparison JSON")]:
        assert f'name=file value="{kind}"' in page and name in page
    report = client.get(f"/share/download?token={token}&file=html")
    assert report.status_code == 200
    assert report.headers["content-disposition"].startswith("attachment; filename=")
    assert report.headers["content-disposition"].endswith('_report.html"')
    assert "<form" not in report.text and "Leaderboard" in report.text
    data = client.get(f"/share/download?token={token}&file=json")
    assert data.headers["content-type"].startswith("application/json")
    assert data.json()["evaluationResults"]["llmCoverageScores"]["xss"]
    assert client.get(f"/share/download?token={token}&file=../etc").status_code == 404


def test_links_that_open_nothing_say_so(client: TestClient, shared):
    store, run_id = shared
    revoked = store.create_share_link(run_id, "anyone").token
    store.revoke_share_link(revoked)
    expired = store.create_share_link(
        run_id, "anyone", datetime.now(UTC) - timedelta(minutes=1)
    ).token
    cases = [
        (f"/share?token={revoked}", 410, "revoked"),
        (f"/share/download?token={revoked}&file=html", 410, "revoked"),
        (f"/share?token={expired}", 410, "expired"),
        ("/share?token=" + "A" * 32, 404, "unknown"),
        ("/share?token=<script>", 404, "unknown"),
        ("/share", 404, "unknown"),
    ]
    for path, status, verdict in cases:
        answer = client.get(path)
        assert answer.status_code == status, path
        assert MESSAGES[verdict] in " ".join(parsed(answer.text).text), path
        assert "Leaderboard" not in answer.text and "xss" not in answer.text, path


def test_other_pages_and_team_links_go_on_to_the_app(
    client: TestClient, shared, monkeypatch: pytest.MonkeyPatch
):
    store, run_id = shared
    for path in ["/", "/results", f"/results?run={run_id}", "/history", "/shared", "/share/x"]:
        assert client.get(path).text == f"{BEHIND}: {path.split('?')[0]}"
    assert client.post("/share").text.startswith(BEHIND)
    team = store.create_share_link(run_id, "team").token
    # personal mode: the owner opens any link of their own store
    assert "Leaderboard" in client.get(f"/share?token={team}").text
    monkeypatch.setenv("BLUEPRINT_MODE", "team")
    monkeypatch.setenv("BLUEPRINT_STUDIO_URL", "https://evals.example.org")
    # team mode: a "team only" link is Streamlit's page, which asks to log in
    assert client.get(f"/share?token={team}").text == f"{BEHIND}: /share"
    assert client.get(f"/share/download?token={team}&file=html").text.startswith(BEHIND)
    anyone = store.create_share_link(run_id, "anyone").token
    page = client.get(f"/share?token={anyone}").text
    assert f"https://evals.example.org/share?token={anyone}" in page  # the public URL


def test_a_link_revoked_after_visits_stops_at_once(client: TestClient, shared):
    store, run_id = shared
    token = store.create_share_link(run_id, "anyone").token
    first = client.get(f"/share?token={token}").text
    assert client.get(f"/share?token={token}").text == first  # drawn once, then kept
    other = store.create_share_link(run_id, "anyone").token
    assert other in client.get(f"/share?token={other}").text  # each link's own page
    store.revoke_share_link(token)
    answer = client.get(f"/share?token={token}")
    assert answer.status_code == 410 and MESSAGES["revoked"] in answer.text
    assert "Leaderboard" in client.get(f"/share?token={other}").text
