"""What `blueprint studio` serves: the studio app behind a Host check (DNS rebinding).

Streamlit's own `server.allowedHosts` guards only the WebSocket; starlette's
`TrustedHostMiddleware`, given to `st.App`, answers every request whose `Host` is not one the
studio serves with 400, pages and static files included. The names come from
`$BLUEPRINT_ALLOWED_HOSTS` (set by `blueprint studio`); without it, loopback only. Behind the
check, `studio.views.share.share_route` answers share links (`/share?token=...`) with a plain page.
The pages' modules are imported in the background as the server starts (`studio.warm`), so
the first link opened after a restart does not wait for them.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from studio.views.share.share_route import SharePages
from studio.warm import warm_in_background

_HOSTS = [
    name.strip()
    for name in os.environ.get("BLUEPRINT_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if name.strip() and name.strip() != "*"
] or ["127.0.0.1", "localhost"]

app = st.App(
    str(Path(__file__).resolve().parent / "app.py"),
    # the first one listed runs first: a foreign Host is refused before a share page is drawn
    middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=_HOSTS, www_redirect=False),
        Middleware(SharePages),
    ],
)

warm_in_background()
