"""Pydantic twins of the records, imported only when a value needs pydantic's coercion or error."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal, Protocol

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, InstanceOf, create_model

__all__ = ["validate"]


class Record(Protocol):
    """What a twin is made from: `engine.records.Record` (a dataclass), as seen from here."""

    extra_keys: ClassVar[Literal["forbid", "ignore"]]
    field_checks: ClassVar[Mapping[str, Callable[[Any], Any]]]


_TWINS: dict[type, type[BaseModel]] = {}


def _twin_type(ann: Any) -> Any:
    """The annotation pydantic validates: a dataclass (a record, a span) is kept as it is."""
    if isinstance(ann, type) and dataclasses.is_dataclass(ann):
        instance_of: Any = InstanceOf
        return instance_of[ann]
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Union or origin is types.UnionType:
        return typing.Union[tuple(_twin_type(a) for a in args)]  # noqa: UP007
    generic: Any = origin
    if origin is list:
        return generic[_twin_type(args[0])]
    if origin is dict:
        return generic[args[0], _twin_type(args[1])]
    return ann


def _twin(cls: type[Record]) -> type[BaseModel]:
    """A pydantic model with the record's fields, types, defaults, constraints and checks."""
    twin = _TWINS.get(cls)
    if twin is not None:
        return twin
    hints = typing.get_type_hints(cls)
    definitions: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        ann = _twin_type(hints[f.name])
        check = cls.field_checks.get(f.name)
        if check is not None:
            ann = Annotated[ann, AfterValidator(check)]
        constraints = {k: f.metadata[k] for k in ("ge", "gt", "min_length") if k in f.metadata}
        if f.default is not dataclasses.MISSING:
            spec = Field(default=f.default, **constraints)
        elif f.default_factory is not dataclasses.MISSING:
            spec = Field(default_factory=f.default_factory, **constraints)
        else:
            spec = Field(**constraints)
        definitions[f.name] = (ann, spec)
    config = ConfigDict(extra=cls.extra_keys, arbitrary_types_allowed=True)
    twin = create_model(cls.__name__, __config__=config, **definitions)
    _TWINS[cls] = twin
    return twin


def validate(cls: type[Record], values: dict[str, Any]) -> dict[str, Any]:
    """Every field's value as pydantic validates `values` for `cls`.

    Raises:
        pydantic.ValidationError: As the pydantic model `cls` once was raised it.
    """
    model = _twin(cls).model_validate(values)
    return {f.name: getattr(model, f.name) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
