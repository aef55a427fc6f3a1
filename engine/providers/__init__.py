"""Model providers: chat calls to OpenAI, Anthropic, Ollama and OpenAI-compatible endpoints.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
`engine.js`, `engine.net`, `engine.blueprint` and `engine.store`; never `engine.checks` (the
allow-list it once came there for is `engine.net`), the judges, scoring or anything above.

```python
async with ProviderPool() as pool:
    response = await pool.chat(ChatRequest(model_id="openai:gpt-4.1-mini", messages=[...]))
```

Model ids are `provider:model`. Keys come from `<PROVIDER>_API_KEY` and endpoints from
`<PROVIDER>_BASE_URL` (environment, or `.streamlit/secrets.toml`; see `load_environ`); any
unknown prefix works as an OpenAI-compatible endpoint once its `<PREFIX>_BASE_URL` is set.
A blueprint's custom model objects are called by their `id` (`engine.providers.custom`), and
collection names such as `CORE` are expanded first (`engine.providers.collections`).
Keys never appear in messages, logs, reprs or statistics.

The HTTP/1.1 client, the address allow-list and the header and URL grammar are `engine.net`;
this package holds what is particular to providers (endpoints, wire protocols, retries, limits,
prices, the pool).

The names load on first use (PEP 562), so `blueprint lint` (which needs only the collections and
the custom models) and a fully cached run do not import the HTTP client behind the pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.providers.endpoints import SECRETS_PATH, load_environ, read_secrets
    from engine.providers.failure import FailureKind
    from engine.providers.limits import AdaptiveLimit, parse_retry_after
    from engine.providers.pool import RETRY_AFTER_CAP_S, ProviderCallError, ProviderPool
    from engine.providers.prices import DEFAULT_PRICES, Price, PriceTable, estimate_tokens
    from engine.providers.types import ChatMessage, ChatRequest, ChatResponse, ProviderStats, Usage

_HOMES = {
    "FailureKind": "failure",
    "SECRETS_PATH": "endpoints",
    "load_environ": "endpoints",
    "read_secrets": "endpoints",
    "AdaptiveLimit": "limits",
    "parse_retry_after": "limits",
    "RETRY_AFTER_CAP_S": "pool",
    "ProviderCallError": "pool",
    "ProviderPool": "pool",
    "DEFAULT_PRICES": "prices",
    "Price": "prices",
    "PriceTable": "prices",
    "estimate_tokens": "prices",
    "ChatMessage": "types",
    "ChatRequest": "types",
    "ChatResponse": "types",
    "ProviderStats": "types",
    "Usage": "types",
}

__all__ = [
    "DEFAULT_PRICES",
    "RETRY_AFTER_CAP_S",
    "SECRETS_PATH",
    "AdaptiveLimit",
    "ChatMessage",
    "ChatRequest",
    "ChatResponse",
    "FailureKind",
    "Price",
    "PriceTable",
    "ProviderCallError",
    "ProviderPool",
    "ProviderStats",
    "Usage",
    "estimate_tokens",
    "load_environ",
    "parse_retry_after",
    "read_secrets",
]


__getattr__ = lazy_names(__name__, _HOMES)
