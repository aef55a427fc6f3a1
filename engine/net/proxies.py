"""Which request URLs the environment's proxies apply to, read as httpx reads them.

`HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY` name proxies by scheme; `NO_PROXY` lists what
bypasses them: `*` (everything), `localhost`, IPv4 and IPv6 addresses, `host` (the host and
its subdomains), `.host` (its subdomains only), `host:port`, and `scheme://host[:port]`.
The pool sends a bypassing URL on its own connections, and a proxied one through a plain
HTTP proxy on them too (absolute-form requests for `http://`, a `CONNECT` tunnel for
`https://`); other proxies are left to httpx. Which URLs are proxied must agree with httpx on
every URL, so these rules are httpx's (`httpx._utils.get_environment_proxies` and
`URLPattern`, checked against it in the tests).
"""

from __future__ import annotations

import base64
import ipaddress
import os
import re
import sys
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

__all__ = ["Proxy", "ProxyRoutes", "proxy_routes"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


class Proxy(NamedTuple):
    """A plain HTTP proxy (`http://[user:password@]host[:port]`), which the pool reaches itself.

    Attributes:
        host: The proxy's host.
        port: Its port (80 when none is written).
        authorization: The `Proxy-Authorization` field's value for its user and password.
    """

    host: str
    port: int
    authorization: str | None


def _plain_proxy(url: str) -> Proxy | None:
    """The proxy `url` names when it is plain HTTP (as httpx reads a bare `host:port`)."""
    try:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        port = parts.port or 80
    except ValueError:
        return None
    if parts.scheme.lower() != "http" or not parts.hostname or parts.path not in ("", "/"):
        return None
    authorization = None
    if parts.username is not None:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        authorization = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
    return Proxy(parts.hostname, port, authorization)


class _Bypass(NamedTuple):
    scheme: str  # "" for any scheme
    host: re.Pattern[str] | None  # None for any host
    port: int | None


def _is_address(text: str, kind: type[ipaddress.IPv4Address | ipaddress.IPv6Address]) -> bool:
    try:
        kind(text.split("/")[0])
    except ValueError:
        return False
    return True


def _host_pattern(host: str) -> re.Pattern[str] | None:
    if not host or host == "*":
        return None
    if host.startswith("*."):
        return re.compile(rf"^.+\.{re.escape(host[2:])}$")
    if host.startswith("*"):
        return re.compile(rf"^(.+\.)?{re.escape(host[1:])}$")
    return re.compile(rf"^{re.escape(host)}$")


def _port(scheme: str, port: int | None) -> int | None:
    """A URL's port as httpx keeps it: None for its scheme's default."""
    return None if port is None or _DEFAULT_PORTS.get(scheme) == port else port


def _bypass(entry: str) -> _Bypass | None:
    """One `NO_PROXY` entry as a pattern (None when it cannot be read: it bypasses nothing)."""
    if "://" in entry:
        pattern = entry
    elif _is_address(entry, ipaddress.IPv4Address) or entry.lower() == "localhost":
        pattern = f"all://{entry}"
    elif _is_address(entry, ipaddress.IPv6Address):
        pattern = f"all://[{entry}]"
    else:
        pattern = f"all://*{entry}"
    try:
        parts = urlsplit(pattern)
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower()
        port = _port(scheme, parts.port)
    except ValueError:
        return None
    if not host:  # `scheme://` alone: httpx ranks the proxy of that scheme above it
        return None
    return _Bypass("" if scheme == "all" else scheme, _host_pattern(host), port)


class ProxyRoutes:
    """The environment's proxies: which URLs go through one.

    Args:
        info: What `urllib.request.getproxies()` reads (`http`, `https`, `all`, `no`).
    """

    def __init__(self, info: Mapping[str, str]) -> None:
        self._schemes = {s for s in ("http", "https", "all") if info.get(s)}
        self._urls = {s: info[s] for s in self._schemes}
        entries = [e.strip() for e in info.get("no", "").split(",")]
        self._everything = "*" in entries
        self._bypass = [b for e in entries if e for b in [_bypass(e)] if b is not None]
        self._seen: dict[str, bool] = {}

    def proxied(self, url: str) -> bool:
        """Whether httpx would send a request for `url` through a proxy."""
        known = self._seen.get(url)
        if known is None:
            known = self._seen[url] = self._decide(url)
        return known

    def forward(self, url: str) -> Proxy | None:
        """The plain HTTP proxy a request for a proxied `url` goes through, if it is one.

        None when the proxy is another kind (`https://`, `socks5://`): httpx reaches those.
        As in httpx, a proxy set for the URL's scheme comes before `ALL_PROXY`'s.
        """
        scheme = url.partition(":")[0].lower()
        named = self._urls.get(scheme) or self._urls.get("all")
        return _plain_proxy(named) if named else None

    def _decide(self, url: str) -> bool:
        try:
            parts = urlsplit(url)
            scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
            port = _port(scheme, parts.port)
        except ValueError:
            return True  # httpx says what is wrong with it
        if self._everything or (scheme not in self._schemes and "all" not in self._schemes):
            return False
        for bypass in self._bypass:
            if (
                (not bypass.scheme or bypass.scheme == scheme)
                and (bypass.host is None or bypass.host.match(host))
                and (bypass.port is None or bypass.port == port)
            ):
                return False
        return True


def proxy_routes() -> ProxyRoutes | None:
    """The proxies the environment names, or None when it names none (the common case).

    Only where a `*_proxy` variable is set (or on macOS and Windows, whose system settings
    `urllib.request.getproxies` also reads) is `urllib.request` imported and asked.
    """
    if sys.platform not in ("darwin", "win32") and not any(
        name[-6:].lower() == "_proxy" for name in os.environ
    ):
        return None
    import urllib.request

    info = urllib.request.getproxies()
    routes = ProxyRoutes(info)
    return routes if routes._schemes else None
