"""URLs as httpx reads them: the plain ones written without parsing, shown without credentials.

A plain URL (lower-case `http`/`https` scheme and host, no credentials, query or fragment) is
taken apart here as httpx would (`plain_url`), so the pool writes a request's head and a message
shows a URL without importing httpx; any other URL is parsed by httpx itself.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["PlainURL", "display_url", "mask_credentials", "plain_url"]

_PLAIN_URL = re.compile(r"(https?)://([a-z0-9.-]+)(?::([1-9][0-9]{0,4}))?(/[A-Za-z0-9._~/-]*)?")
"""A URL that needs no normalising (lower-case scheme and host, no credentials, query or
fragment): `display_url` writes it without parsing, as httpx would."""

_IPV4 = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
_DEFAULT_PORTS = {"http": "80", "https": "443"}


class PlainURL(NamedTuple):
    """A plain URL (see `_PLAIN_URL`) in the parts httpx would parse it into.

    Attributes:
        scheme: `http` or `https`.
        host: The host, lower-case.
        port: The port connected to (the scheme's default when none is written).
        netloc: The `Host` header's value: the host, and the port when it is not the default.
        path: The path, `/` when none is written.
    """

    scheme: str
    host: str
    port: int
    netloc: str
    path: str


def plain_url(url: str) -> PlainURL | None:
    """The parts of `url` when it is a plain URL that httpx takes as it is written, else None."""
    found = _PLAIN_URL.fullmatch(url)
    if found is None:
        return None
    scheme, host, port, path = found.groups()
    if path is not None and any(part in (".", "..") for part in path.split("/")):
        return None  # httpx removes dot segments (`/a/./b` is `/b`): let it
    if _IPV4.fullmatch(host) and any(
        int(part) > 255 or str(int(part)) != part for part in host.split(".")
    ):
        return None  # httpx refuses it (a part above 255 or with a leading 0): let it say so
    default = _DEFAULT_PORTS[scheme]
    number = int(port or default)
    if number > 65535:
        return None  # httpx refuses it: let it say so
    netloc = host if port in (None, default) else f"{host}:{port}"
    return PlainURL(scheme, host, number, netloc, path or "/")


def _plain(url: str) -> str | None:
    """`url` as httpx would show it when it is a plain URL (see `_PLAIN_URL`), else None."""
    parts = plain_url(url)
    return None if parts is None else f"{parts.scheme}://{parts.netloc}{parts.path}"


_USERINFO = re.compile(r"(?i)\b(https?://)[^\s/?#@'\"<>]*@")


def mask_credentials(text: str) -> str:
    """`text` with the user name and password of every http(s) URL in it replaced by `***`.

    For what is stored (a run's blueprint, the comparison JSON): `http://user:pass@host/` is
    kept as `http://***@host/`.
    """
    return _USERINFO.sub(r"\1***@", text) if "@" in text else text


def display_url(url: str) -> str:
    """Return `url` without credentials, query or fragment (safe for messages and logs)."""
    plain = _plain(url)  # most base URLs: shown without importing the HTTP client
    if plain is not None:
        return plain
    import httpx  # the general case, parsed as the client will

    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<invalid URL>"
    return f"{parsed.scheme}://{parsed.netloc.decode('ascii', 'replace')}{parsed.path}"
