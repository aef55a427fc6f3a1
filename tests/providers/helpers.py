"""Helpers for the provider tests: run a pool against the fake server, fake time, TLS."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from engine.providers import ChatRequest, ChatResponse, ProviderPool
from engine.providers.limits import call_order, reset_call_order

T = TypeVar("T")

FAST: dict[str, Any] = {"backoff_base_s": 0.01, "backoff_cap_s": 0.05}
"""Pool arguments that make retries quick."""


class Slots(Protocol):
    """A limit on calls in flight: `AdaptiveLimit` or a worker's `PartGate`."""

    async def acquire(self) -> Any: ...

    def release(self) -> None: ...


async def ranked_call(slots: Slots, rank: int, name: str, served: list[str]) -> None:
    """Take a slot as a call of rank `rank` (`call_order`), note `name` as served, give it back."""
    token = call_order(rank)
    try:
        await slots.acquire()
        served.append(name)
        await asyncio.sleep(0)
        slots.release()
    finally:
        reset_call_order(token)


def ask(model_id: str, text: str = "hello", **fields: Any) -> ChatRequest:
    """A one-message chat request."""
    return ChatRequest(model_id=model_id, messages=[{"role": "user", "content": text}], **fields)


def with_pool(
    environ: Mapping[str, str], body: Callable[[ProviderPool], Awaitable[T]], **kwargs: Any
) -> T:
    """Run `body(pool)` in a fresh event loop with a fresh pool, then close the pool."""

    async def main() -> T:
        async with ProviderPool(environ=environ, **kwargs) as pool:
            return await body(pool)

    return asyncio.run(main())


def chat(environ: Mapping[str, str], request: ChatRequest, **kwargs: Any) -> ChatResponse:
    """Send one request through a fresh pool."""
    return with_pool(environ, lambda pool: pool.chat(request), **kwargs)


class FakeTime:
    """A clock and a sleep that advance together without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """Write a one-day certificate for 127.0.0.1 and its key (PEM); return (cert, key) paths.

    Made in-process with the `cryptography` package (a dev dependency), so no `openssl` binary.
    """
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class GatedTime(FakeTime):
    """A `FakeTime` whose sleeps wait for `open()`, so a test can act while a call waits."""

    def __init__(self) -> None:
        super().__init__()
        self._gate = asyncio.Event()
        self._changed = asyncio.Condition()

    async def sleep(self, seconds: float) -> None:
        async with self._changed:
            self.sleeps.append(seconds)
            self._changed.notify_all()
        await self._gate.wait()
        self.now += seconds

    async def sleeping(self, count: int, timeout_s: float = 10.0) -> None:
        """Return once `count` sleeps have started (real time is bounded by `timeout_s`)."""
        async with asyncio.timeout(timeout_s), self._changed:
            await self._changed.wait_for(lambda: len(self.sleeps) >= count)

    def open(self) -> None:
        """Let every sleep, present and future, end at once."""
        self._gate.set()
