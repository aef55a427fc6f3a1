"""Model providers: chat calls to OpenAI, Anthropic, Ollama and OpenAI-compatible endpoints.

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
"""

from engine.providers.attempt import FailureKind
from engine.providers.endpoints import SECRETS_PATH, load_environ, read_secrets
from engine.providers.limits import AdaptiveLimit, parse_retry_after
from engine.providers.pool import RETRY_AFTER_CAP_S, ProviderCallError, ProviderPool
from engine.providers.prices import DEFAULT_PRICES, Price, PriceTable, estimate_tokens
from engine.providers.types import ChatMessage, ChatRequest, ChatResponse, ProviderStats, Usage

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
