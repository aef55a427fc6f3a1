"""One HTTP attempt of a chat call, classified as a reply or a (retryable or final) failure."""

from __future__ import annotations

import asyncio
import functools
import ssl
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from engine.jsonbound import BoundError, loads_bounded
from engine.net.http11 import Answer
from engine.net.urls import display_url
from engine.providers import wire
from engine.providers.direct import DirectPost
from engine.providers.endpoints import Endpoint
from engine.providers.failure import Failure, FailureKind, redact
from engine.providers.limits import parse_retry_after
from engine.providers.types import ChatRequest

if TYPE_CHECKING:
    import httpx

__all__ = ["Failure", "FailureKind", "redact", "send", "send_built"]

_DETAIL_CHARS = 300

_R = TypeVar("_R")


def _error_text(data: Any) -> str | None:
    """The message of an error body (`{"error": {"message"}}`, `{"error": "..."}`, ...)."""
    if not isinstance(data, dict):
        return None
    error = data.get("error", data)
    if isinstance(error, str):
        return error
    if isinstance(error, dict):
        for key in ("message", "detail", "error"):
            if isinstance(error.get(key), str):
                return str(error[key])
    return None


def _detail(response: httpx.Response, secrets: tuple[str, ...]) -> str:
    try:
        text = _error_text(loads_bounded(response.content)) or response.text
    except ValueError:
        text = response.text
    text = " ".join(redact(text, secrets).split())
    if not text:
        return ""
    if len(text) > _DETAIL_CHARS:
        text = text[: _DETAIL_CHARS - 1] + "…"
    return f": {text}"


def _classify(
    endpoint: Endpoint,
    response: httpx.Response,
    url: str,
    parse: Callable[[Endpoint, Any], _R],
) -> _R | Failure:
    status = response.status_code
    secrets = endpoint.secrets
    if 200 <= status < 300:
        try:  # the common case first; the URL is formatted only when something is wrong
            return parse(endpoint, loads_bounded(response.content))
        except (ValueError, wire.WireFormatError):
            pass
    where = display_url(url)
    if 200 <= status < 300:
        try:
            data = loads_bounded(response.content)
        except BoundError as exc:
            return Failure("invalid_response", f"{where} answered HTTP {status}, but {exc}")
        except ValueError:
            return Failure("invalid_response", f"{where} answered HTTP {status} with invalid JSON")
        if isinstance(data, dict) and "error" in data and not data.keys() & {
            "choices", "content", "message", "data"
        }:  # fmt: skip
            code = data["error"].get("code") if isinstance(data["error"], dict) else None
            final = isinstance(code, int) and 400 <= code < 500 and code not in (408, 429)
            text = redact(_error_text(data) or "unknown error", secrets)[:_DETAIL_CHARS]
            return Failure("server", f"{where} answered with an error: {text}", status, not final)
        try:
            return parse(endpoint, data)
        except (ValueError, wire.WireFormatError) as exc:
            return Failure("invalid_response", f"unexpected answer from {where}: {exc}", status)
    detail = _detail(response, secrets)
    after = parse_retry_after(response.headers.get("retry-after"))
    if status == 429:
        return Failure(
            "rate_limited", f"rate limited (HTTP 429) by {where}{detail}", 429, True, after
        )
    if status in (408, 425) or status >= 500:
        return Failure("server", f"HTTP {status} from {where}{detail}", status, True, after)
    if status in (401, 403):
        if endpoint.custom:
            what = f"{where} refused the custom model '{endpoint.model_id}'"
            todo = "check the `headers` of its definition in the blueprint"
        elif endpoint.key:
            what = f"the provider '{endpoint.provider}' refused the API key in {endpoint.key_env}"
            todo = f"check {endpoint.key_env}"
        else:
            what = f"{where} requires an API key"
            todo = f"set {endpoint.key_env}"
        return Failure("auth", f"{what} (HTTP {status}); {todo}{detail}", status, False)
    if status == 404:
        return Failure(
            "not_found",
            f"not found (HTTP 404) at {where}: the model id '{endpoint.model_id}' may be wrong, "
            f"or {'its `url`' if endpoint.custom else endpoint.url_env} may point at the wrong "
            f"endpoint{detail}",
            404,
            False,
        )
    return Failure(
        "rejected", f"{where} rejected the request (HTTP {status}){detail}", status, False
    )


def _untrusted_certificate(exc: BaseException) -> bool:
    """Whether `exc` comes from a TLS certificate that failed verification."""
    seen: BaseException | None = exc
    for _ in range(8):  # the chain of causes is short (httpx -> httpcore -> ssl)
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLCertVerificationError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@functools.lru_cache(maxsize=256)
def _parsed(url: str) -> httpx.URL:
    """Parse each endpoint URL once (httpx re-parses a string URL on every request)."""
    import httpx

    return httpx.URL(url)


async def send(
    client: httpx.AsyncClient, endpoint: Endpoint, request: ChatRequest
) -> wire.Reply | Failure:
    """Make one attempt of `request`; never raises for network or protocol trouble."""
    built = wire.build(endpoint, request)
    return await send_built(lambda: client, endpoint, built, request.timeout_s, wire.parse)


async def send_built(
    client: Callable[[], httpx.AsyncClient],
    endpoint: Endpoint,
    built: tuple[str, dict[str, str], dict[str, Any]],
    timeout_s: float,
    parse: Callable[[Endpoint, Any], _R],
    direct: DirectPost | None = None,
) -> _R | Failure:
    """Post a built request `(url, headers, body)` once and read its answer with `parse`.

    `client` gives the HTTP client (made, and httpx imported, the first time it is asked for).
    `direct` (for `client`'s own `Http11Transport`) sends it without the client's layers
    when that cannot change the request or its outcome; a plain answer then needs no httpx.

    Never raises for network or protocol trouble: a `Failure` says what went wrong.
    """
    url, headers, body = built
    try:
        async with asyncio.timeout(timeout_s):
            if direct is None or not direct.usable():
                response = await client().post(
                    _parsed(url), headers=headers, json=body, timeout=timeout_s
                )
            elif isinstance(answer := await direct.post(url, headers, body, timeout_s), Answer):
                try:  # a plain 2xx, the common case (as `_classify` tries it first)
                    return parse(endpoint, loads_bounded(answer.body))
                except (ValueError, wire.WireFormatError):
                    response = await direct.response(answer, url, headers, body, timeout_s)
            else:
                response = answer
    except TimeoutError:
        return _timed_out(url, timeout_s)
    except Exception as exc:
        failure = _network_failure(exc, endpoint, url, timeout_s)
        if failure is None:
            raise
        return failure
    return _classify(endpoint, response, url, parse)


def _timed_out(url: str, timeout_s: float) -> Failure:
    return Failure("timeout", f"no answer from {display_url(url)} within {timeout_s:g} s")


def _network_failure(
    exc: Exception, endpoint: Endpoint, url: str, timeout_s: float
) -> Failure | None:
    """The failure an httpx error stands for (None for any other error).

    httpx is imported here, not with the module: a run's first calls need none of it.
    """
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return _timed_out(url, timeout_s)
    if isinstance(exc, httpx.HTTPError):
        where, reason = display_url(url), redact(str(exc), endpoint.secrets)
        message = f"connection to {where} failed ({type(exc).__name__}: {reason or 'no detail'})"
        if _untrusted_certificate(exc):  # the same certificate will be refused again
            message += "; if a proxy or a private CA signs it, set SSL_CERT_FILE to its certificate"
            return Failure("connection", message, retryable=False)
        if isinstance(exc, httpx.ConnectError):
            server = "Ollama" if endpoint.api == "ollama" else "the endpoint"
            setting = "the custom model's `url`" if endpoint.custom else endpoint.url_env
            message += f"; is {server} running there? {setting} sets the address"
        return Failure("connection", message)
    return None
