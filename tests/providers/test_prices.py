"""Prices, costs and token estimates."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.providers import DEFAULT_PRICES, Price, PriceTable, Usage, estimate_tokens
from engine.settings import Settings
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import ask, chat


def test_cost_from_usage_and_the_table() -> None:
    table = PriceTable()
    usage = Usage(input_tokens=1_000_000, output_tokens=500_000)
    assert table.cost("openai:gpt-4.1-mini", usage) == pytest.approx(0.40 + 0.80)
    assert table.estimate("openrouter:google/gemini-2.5-flash", 2000, 1000) == pytest.approx(
        (2000 * 0.30 + 1000 * 2.50) / 1e6
    )
    assert table.cost("openai:some-future-model", usage) is None
    assert table.cost("ollama:llama3.2", usage) == 0.0


def test_the_table_covers_the_common_models() -> None:
    for model_id in (
        "openai:gpt-4.1",
        "openai:gpt-4.1-mini",
        "openai:gpt-4o-mini",
        "openai:o4-mini",
        "anthropic:claude-haiku-4.5",
        "anthropic:claude-sonnet-4.5",
        "openrouter:openai/gpt-4.1-mini",
        "openrouter:anthropic/claude-haiku-4.5",
        "openrouter:google/gemini-2.5-flash",
    ):
        price = PriceTable().price(model_id)
        assert price is not None and 0 < price.input < price.output, model_id


def test_lookups_tolerate_spelling_variants() -> None:
    table = PriceTable()
    haiku = DEFAULT_PRICES["anthropic:claude-haiku-4.5"]
    assert table.price("anthropic:claude-haiku-4-5") == haiku
    assert table.price("anthropic:claude-haiku-4-5-20251001") == haiku
    assert table.price(" OpenAI:GPT-4.1-mini-2025-04-14 ") == DEFAULT_PRICES["openai:gpt-4.1-mini"]
    assert "openai:gpt-4.1" in table
    assert "openai:gpt-4.1-turbo" not in table


def test_user_overrides_win() -> None:
    settings = Settings(prices={"openai:gpt-4.1-mini": {"input": 1.0, "output": 2.0}})
    table = PriceTable(settings.prices)
    assert table.price("openai:gpt-4.1-mini") == Price(1.0, 2.0)
    assert table.price("openai:gpt-4.1") == DEFAULT_PRICES["openai:gpt-4.1"]
    extended = PriceTable().with_overrides({"vllm:my-model": {"input": 0, "output": 0.5}})
    assert extended.estimate("vllm:my-model", 10, 2_000_000) == pytest.approx(1.0)
    assert PriceTable().price("vllm:my-model") is None


@pytest.mark.parametrize(
    "bad", [{"input": 1.0}, {"input": -1, "output": 1}, {"input": "1", "output": 1}, 3.0]
)
def test_malformed_overrides_are_config_errors(bad: object) -> None:
    with pytest.raises(ConfigError, match="openai:x"):
        PriceTable({"openai:x": bad})  # type: ignore[dict-item]


def test_estimate_tokens_is_characters_over_four() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("x" * 4000) == 1000


def test_responses_and_stats_carry_costs(fake_llm: FakeLLM) -> None:
    prices = PriceTable({"openai:gpt-4.1-mini": {"input": 1_000_000, "output": 0}})
    response = chat(fake_llm.env(), ask("openai:gpt-4.1-mini", "12345678"), prices=prices)
    assert response.usage.input_tokens == 2
    assert response.cost_usd == pytest.approx(2.0)
    assert chat(fake_llm.env(), ask("openai:unpriced")).cost_usd is None
