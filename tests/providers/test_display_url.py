"""`display_url` shows a URL as httpx parses it, whether or not it takes the no-parse path."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.net.urls import display_url


def as_httpx_shows(url: str) -> str:
    """The reference: httpx's own parse, without credentials, query or fragment."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<invalid URL>"
    return f"{parsed.scheme}://{parsed.netloc.decode('ascii', 'replace')}{parsed.path}"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://127.0.0.1:44031/v1", "http://127.0.0.1:44031/v1"),
        ("https://api.openai.com:443/v1", "https://api.openai.com/v1"),
        ("http://localhost:80", "http://localhost/"),
        ("https://user:secret@api.example.com/v1?key=k#f", "https://api.example.com/v1"),
        ("HTTPS://API.example.com:443/v1/", "https://api.example.com:443/v1/"),
        ("http://h:08/", "http://h:8/"),
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
        ("http://999.1.1.1/v1", "<invalid URL>"),
        ("http://01.2.3.4/v1", "<invalid URL>"),
        ("http://0/.", "http://0/"),
        ("http://h/v1/./chat/../x", "http://h/v1/x"),
    ],
)
def test_a_url_is_shown_without_secrets_and_normalised(url: str, shown: str) -> None:
    assert display_url(url) == shown == as_httpx_shows(url)


_HOST = st.one_of(
    st.from_regex(r"[a-zA-Z0-9.-]{1,12}", fullmatch=True),
    st.lists(st.from_regex(r"[0-9]{1,3}", fullmatch=True), min_size=4, max_size=4).map(".".join),
)
_PORT = st.one_of(st.just(""), st.integers(0, 99999).map(lambda p: f":{p}"), st.just(":080"))
_PATH = st.from_regex(r"(/[A-Za-z0-9._~%?#@:/-]{0,12})?", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["http", "https", "HTTP", "ftp"]), _HOST, _PORT, _PATH)
def test_every_url_is_shown_as_httpx_parses_it(
    scheme: str, host: str, port: str, path: str
) -> None:
    url = f"{scheme}://{host}{port}{path}"
    assert display_url(url) == as_httpx_shows(url)
