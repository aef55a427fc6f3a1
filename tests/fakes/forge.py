"""A fake forge API on 127.0.0.1 (GitHub, GitLab and Gitea pull requests), recording requests.

`with FakeForge() as forge:` serves in a thread; `forge.url` is its base URL, `forge.requests`
what it received (method, path, headers, JSON body), and `forge.answer` what it says next:
`"ok"` (201 with the pull request, its address in `html_url` or GitLab's `web_url`), `"401"`,
`"422"` (GitHub's validation failure), `"500"`, or `"garbage"` (a 201 that is not JSON).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

PR_NUMBER = 17


@dataclass
class Received:
    """One request the fake forge received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeForge:
    """The fake forge server; see the module's docstring."""

    answer: str = "ok"
    requests: list[Received] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Self:
        forge = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                forge.requests.append(
                    Received(
                        "POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body
                    )
                )
                status, payload = forge.reply(self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    def reply(self, path: str, body: Any) -> tuple[int, bytes]:
        """The status and body of the answer to a POST of `body` to `path`."""
        if self.answer == "401":
            return 401, b'{"message": "Bad credentials"}'
        if self.answer == "422":
            return 422, json.dumps(
                {
                    "message": "Validation Failed",
                    "errors": [{"message": "A pull request already exists for me:x."}],
                }
            ).encode()
        if self.answer == "500":
            return 500, b"<html>Internal error</html>"
        if self.answer == "garbage":
            return 201, b"\x00\xffnot json"
        web = f"{self.url}/web{path.replace('/pulls', '/pull').replace('/merge_requests', '/-/merge_requests')}/{PR_NUMBER}"
        return 201, json.dumps({"number": PR_NUMBER, "html_url": web, "web_url": web}).encode()
