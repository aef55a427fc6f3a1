"""The network layer: which hosts may be reached, header and URL grammar, the HTTP/1.1 client.

What is here: the address allow-lists of `$call` and custom models (`guard`), which header
fields a blueprint may set (`headers`), URLs as httpx reads and shows them (`urls`), which URLs
the environment's proxies apply to (`proxies`), and the HTTP/1.1 client: keep-alive connections
on asyncio streams (`connections`), the response reader (`http11`) and the httpx transport over
both (`transport`).

May import: the standard library, httpx, `engine.settings` (the allow-lists),
`engine.js` (JavaScript's `String(x)` for header values), `engine.lazy` and its own modules;
never `engine.checks`, `engine.providers` or anything else of the engine above it. Both of
those import it.

The names load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.net.guard import call_host_refusal

_HOMES = {
    "call_host_refusal": "guard",
}

__all__ = ["call_host_refusal"]

__getattr__ = lazy_names(__name__, _HOMES)
