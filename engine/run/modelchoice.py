"""Which models a run calls: `--models` or the blueprint's, collections expanded, custom models."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.blueprint.models import Blueprint
from engine.modelids import is_collection, split_model_id
from engine.providers.collections import model_collections, unknown_collection
from engine.providers.custom import CustomModel, custom_models
from engine.settings import load_settings

__all__ = ["ModelChoice", "choose_models", "resolve_models"]


@dataclass
class ModelChoice:
    """The models a run will call, and what stops or questions that choice."""

    models: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    custom: dict[str, CustomModel] = field(default_factory=dict)


def choose_models(
    blueprint: Blueprint,
    override: Sequence[str] | None,
    collections: Mapping[str, Sequence[str]] | None = None,
) -> ModelChoice:
    """The models of a run: `--models` or the blueprint's, collections expanded (spec §1.4).

    Custom model objects run under their `id` (also when `--models` names that id), collection
    names (`CORE`) become their ids, `{provider: model}` pairs become `provider:model`, and
    duplicates are dropped.

    Args:
        blueprint: The blueprint (its custom models are known to `--models` too).
        override: `--models`, if given.
        collections: Known collections (default: the shipped ones and the user's settings).
    """
    known: Mapping[str, Sequence[str]] = (
        collections if collections is not None else model_collections(load_settings())
    )
    custom = custom_models(blueprint.models)
    choice = _ChoiceBuilder(choice=ModelChoice(custom=custom), collections=known)
    for entry in list(override) if override else list(blueprint.models):
        choice.add(entry)
    out = choice.choice
    if not out.models and not out.problems:
        out.problems.append("No models to run: add `models:` to the blueprint or pass --models.")
    return out


@dataclass
class _ChoiceBuilder:
    """Adds `models` entries to a `ModelChoice` one by one."""

    choice: ModelChoice
    collections: Mapping[str, Sequence[str]]
    """Read only when an entry is a collection name (it may be a `KnownCollections`)."""

    def _append(self, model: str) -> None:
        if model not in self.choice.models:
            self.choice.models.append(model)

    def add(self, entry: Any, collection: str | None = None) -> None:
        """Add one entry: a custom model object, a pair, a collection name or a model id."""
        out = self.choice
        if isinstance(entry, dict):
            if isinstance(entry.get("id"), str) and entry["id"] in out.custom:
                self._append(entry["id"])
            elif "id" not in entry and len(entry) == 1:
                ((provider, name),) = entry.items()
                self.add(f"{str(provider).strip()}:{str(name).strip()}")
            else:
                out.problems.append(
                    f"The models entry {str(entry)[:60]} is not a model; remove it."
                )
            return
        text = str(entry).strip()
        if text in out.custom:
            self._append(text)
        elif is_collection(text) and collection is None:
            ids = self.collections.get(text)
            if ids is None:
                out.problems.append(unknown_collection(text, list(self.collections)))
            elif not ids:
                out.warnings.append(f"The model collection {text} is empty; it adds no models.")
            for model in ids or ():
                self.add(model, text)
        elif (split := split_model_id(text)) is None:
            where = f" (in the collection {collection})" if collection else ""
            out.problems.append(
                f"'{text}'{where} is not a model id; write provider:model, e.g. "
                "openai:gpt-4.1-mini."
            )
        else:
            self._append(text if text == "ideal" else f"{split[0]}:{split[1]}")


def resolve_models(
    blueprint: Blueprint,
    override: Sequence[str] | None,
    collections: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[str], list[str]]:
    """Return (model ids, problems) from `--models` or the blueprint's `models` (`choose_models`)."""
    choice = choose_models(blueprint, override, collections)
    return choice.models, choice.problems
