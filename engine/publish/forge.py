"""Opening a pull (merge) request on GitHub, GitLab or Gitea, with each forge's own API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from engine.errors import EngineError
from engine.publish.config import Forge

if TYPE_CHECKING:
    import httpx

__all__ = ["FORGE_TIMEOUT_S", "ForgeError", "open_pull_request", "pull_request_call"]

FORGE_TIMEOUT_S = 30.0
"""Seconds the forge has to answer."""


class ForgeError(EngineError):
    """The forge did not open the pull request; the message is plain and holds no token."""


def pull_request_call(
    forge: Forge, branch: str, base: str, title: str, body: str
) -> tuple[str, dict[str, str], dict[str, str]]:
    """The request that opens a pull request: URL, headers (with the token) and JSON body.

    GitHub: `POST /repos/{owner}/{repo}/pulls` with `{title, head, base, body}`; GitLab:
    `POST /projects/{id}/merge_requests` with `{source_branch, target_branch, title,
    description}` (the id is the URL-encoded path or the number); Gitea: as GitHub, with a
    `token` authorization.
    """
    if forge.kind == "gitlab":
        url = f"{forge.api_url}/projects/{quote(forge.project, safe='')}/merge_requests"
        headers = {"PRIVATE-TOKEN": forge.token}
        payload = {
            "source_branch": branch,
            "target_branch": base,
            "title": title,
            "description": body,
        }
        return url, headers, payload
    owner_repo = "/".join(quote(part, safe="") for part in forge.project.strip("/").split("/"))
    url = f"{forge.api_url}/repos/{owner_repo}/pulls"
    if forge.kind == "github":
        headers = {
            "Authorization": f"Bearer {forge.token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        }
    else:
        headers = {"Authorization": f"token {forge.token}", "Accept": "application/json"}
    return url, headers, {"title": title, "head": branch, "base": base, "body": body}


def _said(data: Any) -> str:
    """The forge's own short reason (GitHub's `message` and `errors`, GitLab's `message`)."""
    if not isinstance(data, dict):
        return ""
    parts: list[str] = []
    message = data.get("message") or data.get("error")
    if isinstance(message, str):
        parts.append(message)
    elif isinstance(message, list):
        parts.extend(str(m) for m in message[:3])
    errors = data.get("errors")
    if isinstance(errors, list):
        for item in errors[:3]:
            text = item.get("message") if isinstance(item, dict) else item
            if isinstance(text, str):
                parts.append(text)
    return "; ".join(parts)


_STATUS_WORDS = {
    401: "the forge refused the token (401): check BLUEPRINT_PUBLISH_TOKEN",
    403: "the token may not open pull requests on this repository (403)",
    404: "the forge does not know the project, or the token cannot see it (404)",
    409: "the forge refused the pull request (409)",
    422: "the forge refused the pull request (422)",
}


def _failure(status: int, data: Any, token: str) -> ForgeError:
    words = _STATUS_WORDS.get(status)
    if words is None:
        words = (
            f"the forge failed (HTTP {status}); try again later"
            if status >= 500
            else f"the forge answered HTTP {status}"
        )
    said = _said(data).replace(token, "***") if token else _said(data)
    said = " ".join(said.split())[:300]
    return ForgeError(f"{words}: {said}" if said else words)


def _html_url(kind: str, data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    url = data.get("web_url" if kind == "gitlab" else "html_url")
    return url if isinstance(url, str) and url.startswith(("https://", "http://")) else None


def open_pull_request(
    forge: Forge,
    branch: str,
    base: str,
    title: str,
    body: str,
    *,
    transport: httpx.BaseTransport | None = None,
    timeout: float = FORGE_TIMEOUT_S,
) -> str:
    """Ask the forge to merge `branch` into `base`; return the pull request's web address.

    Args:
        forge: The forge, its project and token.
        branch: The pushed branch.
        base: The branch to merge into.
        title: The pull request's title.
        body: Its description.
        transport: An httpx transport (tests); default: the network.
        timeout: Seconds the forge has to answer.

    Raises:
        ForgeError: The forge could not be reached, refused, failed or answered something
            that is not a pull request; the message never holds the token.
    """
    import httpx

    url, headers, payload = pull_request_call(forge, branch, base, title, body)
    try:
        with httpx.Client(transport=transport, timeout=timeout, follow_redirects=False) as client:
            answer = client.post(url, headers=headers, json=payload)
    except httpx.HTTPError as exc:
        reason = type(exc).__name__
        raise ForgeError(f"the forge could not be reached ({reason}).") from None
    try:
        data = answer.json()
    except ValueError:
        data = None
    if answer.status_code not in (200, 201):
        raise _failure(answer.status_code, data, forge.token)
    found = _html_url(forge.kind, data)
    if found is None:
        raise ForgeError(
            f"the forge answered HTTP {answer.status_code} without the pull request's address; "
            "look for it on the forge."
        )
    return found
