"""Which hosts `$call` and custom models may reach: an allow-list, no private addresses by default.

A blueprint is untrusted: its `$call` could aim at the cloud metadata service
(`169.254.169.254`), a database on localhost or the office network. Before any request the host
must be in `Settings.call_allow` (exact host, or `*.domain` for its subdomains), and every
address it resolves to must be public. Loopback, private, link-local, unspecified, multicast
and other non-global addresses are refused unless the host is listed literally (an explicit
opt-in such as `127.0.0.1` for a local service).

A blueprint's custom model objects (`models: [{id, url, ...}]`) pass the same guard with their
own list, `Settings.model_allow` (`BLUEPRINT_MODEL_ALLOW`, `[models] allow`): `kind="model"`.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Final, Literal
from urllib.parse import urlsplit

from engine.settings import Settings

__all__ = [
    "ALLOW_HELP",
    "MODEL_ALLOW_HELP",
    "GuardKind",
    "call_host_refusal",
    "embedded_ipv4",
    "host_of",
    "resolve_refusal",
]

ALLOW_HELP = (
    "To allow it, add the host to the environment variable BLUEPRINT_CALL_ALLOW "
    "(comma-separated host names; `*.example.org` allows subdomains, `*` any public host; "
    "e.g. BLUEPRINT_CALL_ALLOW=api.example.org,*.example.org) or to "
    '`[call] allow = ["api.example.org", "*.example.org"]` in $BLUEPRINT_HOME/settings.toml.'
)

MODEL_ALLOW_HELP = (
    "To allow a custom model's address, add its host to the environment variable "
    "BLUEPRINT_MODEL_ALLOW (comma-separated host names, e.g. BLUEPRINT_MODEL_ALLOW=127.0.0.1 for "
    'a model server on this machine) or to `[models] allow = ["llm.example.org"]` in '
    "$BLUEPRINT_HOME/settings.toml."
)

GuardKind = Literal["call", "model"]
"""Whose allow-list applies: `$call`'s (`call_allow`) or custom models' (`model_allow`)."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def _allow_list(settings: Settings, kind: GuardKind) -> tuple[str, ...]:
    return settings.model_allow if kind == "model" else settings.call_allow


def _help(kind: GuardKind) -> str:
    return MODEL_ALLOW_HELP if kind == "model" else ALLOW_HELP


def host_of(url: str) -> str | None:
    """Return the lower-case host of an http(s) URL, or None if it has none."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    return (parts.hostname or "").lower().rstrip(".") or None


def _literal_ip(host: str) -> IPAddress | None:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        if not host or any(c not in "0123456789abcdefx." for c in host):
            return None
        try:  # legacy IPv4 spellings: 2130706433, 0x7f.1, 0177.0.0.1
            ip = ipaddress.ip_address(socket.inet_aton(host))
        except OSError:
            return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


_NAT64: Final = 0x0064_FF9B << 64  # 64:ff9b::/96, the well-known NAT64 prefix (high 96 bits)
_NAT64_LOCAL: Final = ipaddress.IPv6Network("64:ff9b:1::/48")
_SIIT: Final = 0xFFFF_0000  # ::ffff:0:0/96, IPv4-translated (high 96 bits)
_ISATAP: Final = 0x0000_5EFE  # interface id ::0:5efe:a.b.c.d (or ::200:5efe:a.b.c.d)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """Return the IPv4 addresses an IPv6 address carries, each with the name of its form.

    Forms: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), IPv4-translated
    (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::/48`), Teredo
    (`2001::/32`: server and client) and ISATAP (`...:0:5efe:a.b.c.d`, any prefix).
    """
    n = int(ip)
    low = ipaddress.IPv4Address(n & 0xFFFF_FFFF)
    high = n >> 32
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if ip.ipv4_mapped is not None:
        found.append(("IPv4-mapped", ip.ipv4_mapped))
    if high == 0 and int(low) > 1:
        found.append(("IPv4-compatible", low))
    if high == _SIIT:
        found.append(("IPv4-translated", low))
    if high == _NAT64 or ip in _NAT64_LOCAL:
        found.append(("NAT64", low))
    if ip.sixtofour is not None:
        found.append(("6to4", ip.sixtofour))
    if ip.teredo is not None:
        found += [("Teredo", ip.teredo[0]), ("Teredo", ip.teredo[1])]
    if high & 0xFDFF_FFFF == _ISATAP:
        found.append(("ISATAP", low))
    return found


def _carried(ip: IPAddress) -> tuple[str, str] | None:
    """Return (kind, description) of the first non-public IPv4 address `ip` carries, if any."""
    if isinstance(ip, ipaddress.IPv6Address):
        for form, inner in embedded_ipv4(ip):
            kind = _non_public(inner)
            if kind is not None:
                return kind, f"{ip}, which carries {inner} in {form} form"
    return None


def _shown(ip: IPAddress) -> str:
    carried = _carried(ip)
    return str(ip) if carried is None else carried[1]


def _non_public(ip: IPAddress) -> str | None:
    """Name the kind of a non-public address, or None if it is public.

    An IPv6 address that carries an IPv4 address (6to4, NAT64, Teredo, ISATAP, mapped or
    compatible forms) is as public as the IPv4 address it carries, at most.
    """
    if (carried := _carried(ip)) is not None:
        return carried[0]
    for kind, flag in (
        ("loopback", ip.is_loopback),
        ("unspecified", ip.is_unspecified),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return kind
    return None if ip.is_global else "non-public"


def _listed(host: str, settings: Settings, kind: GuardKind = "call") -> tuple[bool, bool]:
    """Return (allowed by the list, listed literally).

    `*` allows every host; `*.example.org` allows the subdomains of example.org (never an IP
    address); anything else must equal the host.
    """
    literal = False
    allowed = False
    is_ip = _literal_ip(host) is not None
    for entry in _allow_list(settings, kind):
        entry = entry.strip().lower().rstrip(".")
        if entry.startswith("[") and entry.endswith("]"):
            entry = entry[1:-1]
        if entry == host:
            allowed = literal = True
        elif entry == "*" or (
            entry.startswith("*.")
            and not is_ip
            and host.endswith(entry[1:])
            and len(host) > len(entry) - 1
        ):
            allowed = True
    return allowed, literal


def _address_refusal(host: str, kind: str, address: str, guard: GuardKind = "call") -> str:
    variable = "BLUEPRINT_MODEL_ALLOW" if guard == "model" else "BLUEPRINT_CALL_ALLOW"
    return (
        f"Refusing to call '{host}': it is a {kind} address ({address}). Loopback, private, "
        "link-local, unspecified and multicast addresses are refused unless the host is listed "
        f"literally in the allow-list (e.g. {variable}={host}). {_help(guard)}"
    )


def call_host_refusal(url: str, settings: Settings, kind: GuardKind = "call") -> str | None:
    """Return why `$call` (or, with `kind="model"`, a custom model) may not reach `url`.

    A static check for the linter: the URL's scheme and host, the allow-list, and literal IP
    addresses or `localhost`. It never resolves DNS (`resolve_refusal` does, before a request).
    """
    host = host_of(url)
    if host is None:
        return f"Refusing to call '{url}': only http:// and https:// URLs with a host are allowed."
    allowed, literal = _listed(host, settings, kind)
    if not allowed:
        what = "custom model" if kind == "model" else "$call"
        return f"Refusing to call '{host}': it is not in the {what} allow-list. {_help(kind)}"
    if literal:
        return None
    if host == "localhost" or host.endswith(".localhost"):
        return _address_refusal(host, "loopback", host, kind)
    ip = _literal_ip(host)
    if ip is not None and (address_kind := _non_public(ip)) is not None:
        return _address_refusal(host, address_kind, _shown(ip), kind)
    return None


def _default_resolve(host: str) -> list[str]:
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, None)})


def resolve_refusal(
    url: str,
    settings: Settings,
    resolve: Callable[[str], list[str]] | None = None,
    kind: GuardKind = "call",
) -> str | None:
    """`call_host_refusal`, then resolve the host and refuse any non-public address.

    Args:
        url: The URL about to be requested.
        settings: The allow-lists.
        resolve: Host name to addresses (default: `socket.getaddrinfo`).
        kind: Whose allow-list applies (`$call`'s or custom models').
    """
    static = call_host_refusal(url, settings, kind)
    if static is not None:
        return static
    host = host_of(url) or ""
    if _listed(host, settings, kind)[1] or _literal_ip(host) is not None:
        return None
    try:
        addresses = (resolve or _default_resolve)(host)
    except OSError as exc:
        reason = exc.strerror or "no answer"  # never Python's `[Errno -2] ...` wording
        return f"Refusing to call '{host}': its name does not resolve ({reason})."
    if not addresses:
        return f"Refusing to call '{host}': its name does not resolve."
    for address in addresses:
        ip = _literal_ip(address.split("%")[0])
        found = "unparseable" if ip is None else _non_public(ip)
        if found is not None:
            return _address_refusal(host, found, address if ip is None else _shown(ip), kind)
    return None
