"""The header's `embeddingModel`: a model id that can embed texts for similarity (§5.10)."""

from __future__ import annotations

from engine.blueprint.text import excerpt
from engine.lint.context import LintContext
from engine.lint.rules.header import known_provider
from engine.modelids import PROVIDERS, split_model_id
from engine.providers.local_embed import LOCAL_MODELS

__all__ = ["RULES"]

_EXAMPLES = "openai:text-embedding-3-small, ollama:nomic-embed-text or local:wordllama"


def embedding_model(ctx: LintContext) -> None:
    """`embeddingModel` names a provider that has an embeddings endpoint."""
    if "embeddingModel" not in ctx.header:
        return
    value = ctx.header["embeddingModel"]
    span = ctx.value_span(ctx.header, "embeddingModel", ctx.header_span)
    if not isinstance(value, str) or not value.strip():
        ctx.add(
            "embedding-model",
            span,
            f"`embeddingModel` must be a model id written as text, such as {_EXAMPLES}.",
        )
        return
    shown = excerpt(value.strip(), quote=False)
    split = split_model_id(value.strip())
    if split is None:
        ctx.add(
            "embedding-model",
            span,
            f"`{shown}` does not say which provider serves it. Write `provider:model`, such as "
            f"{_EXAMPLES}.",
        )
        return
    provider, name = split[0].lower(), split[1].strip()
    if provider == "local":
        if name not in LOCAL_MODELS:
            known = ", ".join(f"local:{n}" for n in sorted(LOCAL_MODELS))
            ctx.add(
                "embedding-model",
                span,
                f"`{shown}` is not a local embedding model. Known: {known}.",
            )
        return
    from engine.providers.embeddings import unsupported  # the embeddings client: only here

    why = unsupported(value.strip())
    if why is not None:
        ctx.add("embedding-model", span, excerpt(why, 300, quote=False))
        return
    info = PROVIDERS.get(provider)
    if not known_provider(provider) or (info is not None and info.api == "offline"):
        ctx.add(
            "embedding-model",
            span,
            f"Blueprint Studio cannot embed with `{shown}`: its provider is not one it knows. "
            f"Use {_EXAMPLES}, or set {excerpt(provider, 30, quote=False).upper()}_BASE_URL "
            "to an OpenAI-compatible service.",
        )


RULES = (embedding_model,)
