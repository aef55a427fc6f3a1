"""Typed records on `dataclasses`, with the few pydantic methods the engine uses (no pydantic)."""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal, Self

__all__ = [
    "EXCLUDE",
    "Record",
    "coerce_float_lists",
    "coerce_floats",
    "is_validation_error",
]

EXCLUDE: Mapping[str, Any] = types.MappingProxyType({"exclude": True})
"""Field metadata of a field that `model_dump` leaves out (pydantic's `exclude=True`)."""

_CONSTRAINTS = ("ge", "gt", "min_length")


class _Slow(Exception):
    """A value is not exactly of its field's type: pydantic decides (coerces or refuses)."""


def _same(value: Any) -> Any:
    return value


def _exact(kind: type) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if type(value) is not kind:
            raise _Slow
        return value

    return convert


def _to_float(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        return value
    if kind is int and -(2**53) <= value <= 2**53:
        return float(value)
    raise _Slow


def _none(value: Any) -> Any:
    if value is not None:
        raise _Slow
    return value


def _literal(allowed: tuple[Any, ...]) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise _Slow
        return value

    return convert


def _union(arms: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        for arm in arms:
            try:
                return arm(value)
            except _Slow:
                continue
        raise _Slow

    return convert


def _list(item: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if not isinstance(value, list):
            raise _Slow
        return [item(x) for x in value]  # a new plain list, as pydantic builds

    return convert


def _dict(key: Callable[[Any], Any], item: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if not isinstance(value, dict):
            raise _Slow
        return {key(k): item(x) for k, x in value.items()}  # a new plain dict, as pydantic's

    return convert


def _typed_dict(kind: Any) -> Callable[[Any], Any]:
    fields = {name: _converter(ann) for name, ann in typing.get_type_hints(kind).items()}

    def convert(value: Any) -> Any:
        if not isinstance(value, dict) or value.keys() != fields.keys():
            raise _Slow  # pydantic drops or refuses the keys
        return {name: field_convert(value[name]) for name, field_convert in fields.items()}

    return convert


def _instance(kind: type) -> Callable[[Any], Any]:
    validate = getattr(kind, "model_validate", None) if issubclass(kind, Record) else None

    def convert(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if validate is not None and isinstance(value, dict):
            return validate(value)
        raise _Slow

    return convert


def _converter(ann: Any) -> Callable[[Any], Any]:
    """A function returning `value` as pydantic's lax mode would, or raising `_Slow`.

    Exact values come back unchanged, lists and dicts as new plain ones (pydantic copies them);
    an int where a float belongs becomes a float; anything else is left to pydantic (which
    coerces it or raises its `ValidationError`).
    """
    if ann is Any:
        return _same
    if ann is float:
        return _to_float
    if ann in (str, int, bool):
        return _exact(ann)
    if ann is type(None) or ann is None:
        return _none
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is Literal:
        return _literal(args)
    if origin is typing.Union or origin is types.UnionType:
        return _union([_converter(a) for a in args])
    if origin is list:
        return _list(_converter(args[0]))
    if origin is dict:
        return _dict(_converter(args[0]), _converter(args[1]))
    from typing_extensions import is_typeddict  # only once a record is validated

    if is_typeddict(ann):
        return _typed_dict(ann)
    if isinstance(ann, type):
        return _instance(ann)
    raise TypeError(f"no converter for the annotation {ann!r}")


class _Info:
    """What `Record` needs of one record class: its fields, defaults and converters."""

    def __init__(self, cls: type) -> None:
        fields = dataclasses.fields(cls)
        self.cls = cls
        self.names = tuple(f.name for f in fields)
        self.excluded = frozenset(f.name for f in fields if f.metadata.get("exclude"))
        self.defaults: dict[str, Callable[[], Any]] = {}
        self.plain = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
        for f in fields:
            if f.default is not dataclasses.MISSING:
                self.defaults[f.name] = (lambda v: lambda: v)(f.default)
            elif f.default_factory is not dataclasses.MISSING:
                self.defaults[f.name] = f.default_factory
        self.constraints = {
            f.name: {k: f.metadata[k] for k in _CONSTRAINTS if k in f.metadata}
            for f in fields
            if any(k in f.metadata for k in _CONSTRAINTS)
        }
        self._converters: dict[str, Callable[[Any], Any]] | None = None

    @property
    def converters(self) -> dict[str, Callable[[Any], Any]]:
        """Each field's converter, built from the type hints on first use."""
        if self._converters is None:
            hints = typing.get_type_hints(self.cls)
            self._converters = {name: _converter(hints[name]) for name in self.names}
        return self._converters


_INFO: dict[type, _Info] = {}


def _info(cls: type) -> _Info:
    info = _INFO.get(cls)
    if info is None:
        info = _INFO[cls] = _Info(cls)
    return info


def _met(value: Any, constraints: Mapping[str, Any]) -> bool:
    if value is None:
        return True
    if "ge" in constraints and not value >= constraints["ge"]:
        return False
    if "gt" in constraints and not value > constraints["gt"]:
        return False
    return "min_length" not in constraints or len(value) >= constraints["min_length"]


def _convert(cls: type[Record], values: dict[str, Any]) -> dict[str, Any]:
    """Every field's value as pydantic would validate `values`; `_Slow` when pydantic must."""
    info = _info(cls)
    if cls.extra_keys == "ignore":
        values = {k: v for k, v in values.items() if k in info.names}
    elif any(k not in info.names for k in values):
        raise _Slow
    converters = info.converters
    out: dict[str, Any] = {}
    for name in info.names:
        if name in values:
            value = converters[name](values[name])
            constraints = info.constraints.get(name)
            if constraints is not None and not _met(value, constraints):
                raise _Slow
            check = cls.field_checks.get(name)
            if check is not None:
                try:
                    value = check(value)
                except ValueError:
                    raise _Slow from None
            out[name] = value
        elif name in info.defaults:
            out[name] = info.defaults[name]()
        else:
            raise _Slow  # a required field is missing
    return out


def _validated(cls: type[Record], values: dict[str, Any]) -> dict[str, Any]:
    try:
        return _convert(cls, values)
    except _Slow:
        from engine.records_pydantic import validate

        return validate(cls, values)


def _dump(value: Any, exclude_none: bool, mode: Literal["python", "json"]) -> Any:
    if isinstance(value, Record):
        return value.model_dump(exclude_none=exclude_none, mode=mode)
    kind = type(value)
    if kind is list:
        return [_dump(v, exclude_none, mode) for v in value]
    if kind is dict:
        return {k: _dump(v, exclude_none, mode) for k, v in value.items()}
    if kind is tuple:
        items = [_dump(v, exclude_none, mode) for v in value]
        return items if mode == "json" else tuple(items)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _dump(getattr(value, f.name), exclude_none, mode)
            for f in dataclasses.fields(value)
        }
    return value


class Record:
    """Base of the engine's records: pydantic's `model_*` methods, over a dataclass's fields.

    A subclass is a `dataclass(kw_only=True)` (frozen where the record must not change). Its
    constructor does not validate unless the class says so (`__post_init__`); `model_validate`
    always does, as pydantic's lax mode would: exact values are kept, an int where a float
    belongs becomes a float, and anything else is given to pydantic (imported only then), which
    coerces it or raises its `ValidationError`.
    """

    __slots__ = ()

    extra_keys: ClassVar[Literal["forbid", "ignore"]] = "forbid"
    """What `model_validate` does with an unknown key: refuse it or drop it."""

    field_checks: ClassVar[Mapping[str, Callable[[Any], Any]]] = types.MappingProxyType({})
    """Per field, a check run after the type's (pydantic's `field_validator`).

    It returns the value or raises ValueError.
    """

    @classmethod
    def model_validate(cls, data: Mapping[str, Any]) -> Self:
        """Build a record from a mapping, validated as pydantic's lax mode would.

        Raises:
            pydantic.ValidationError: A value cannot be coerced to its field's type, a
                constraint fails, or a key is unknown.
        """
        if isinstance(data, cls):
            return data
        return cls.model_construct(**_validated(cls, dict(data)))

    @classmethod
    def validated(cls, **values: Any) -> Self:
        """`model_validate(values)`: build a record validated as pydantic's lax mode would.

        Raises:
            pydantic.ValidationError: As `model_validate`.
        """
        return cls.model_construct(**_validated(cls, values))

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """Build a record from already-typed values, without any check.

        Missing fields get their defaults.
        """
        info = _info(cls)
        record = object.__new__(cls)
        for name in info.names:
            if name in values:
                value = values[name]
            else:
                value = info.defaults[name]()
            object.__setattr__(record, name, value)
        return record

    def validate_fields(self) -> None:
        """Check and coerce this record's fields in place (for `__post_init__`).

        Raises:
            pydantic.ValidationError: As `model_validate`.
        """
        info = _info(type(self))
        values = {name: getattr(self, name) for name in info.names}
        given = {  # a value that is the field's default is not validated, as in pydantic
            name: value
            for name, value in values.items()
            if value is not info.plain.get(name, _Slow)
        }
        for name, value in _validated(type(self), given).items():
            if value is not values[name]:
                object.__setattr__(self, name, value)

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """A shallow copy, with `update`'s fields replaced (not validated)."""
        info = _info(type(self))
        values = {name: getattr(self, name) for name in info.names}
        if update:
            values.update(update)
        return type(self).model_construct(**values)

    def model_dump(
        self,
        *,
        exclude: set[str] | None = None,
        exclude_none: bool = False,
        mode: Literal["python", "json"] = "python",
    ) -> dict[str, Any]:
        """The fields as a dict, nested records as dicts too (excluded fields left out).

        Args:
            exclude: Field names to leave out (at this level).
            exclude_none: Leave out fields whose value is None (at every level).
            mode: `json` turns tuples into lists.
        """
        info = _info(type(self))
        out: dict[str, Any] = {}
        for name in info.names:
            if name in info.excluded or (exclude is not None and name in exclude):
                continue
            value = getattr(self, name)
            if exclude_none and value is None:
                continue
            out[name] = _dump(value, exclude_none, mode)
        return out

    def model_dump_json(self) -> str:
        """The fields as compact JSON text."""
        import json

        return json.dumps(self.model_dump(mode="json"), separators=(",", ":"), ensure_ascii=False)

    @property
    def model_fields_set(self) -> set[str]:
        """The names of the fields (every field is set on a record)."""
        return set(_info(type(self)).names)


def coerce_floats(record: object, names: tuple[str, ...]) -> None:
    """Make the int values of these float fields floats (pydantic's coercion; bools stay)."""
    for name in names:
        value = getattr(record, name)
        if type(value) is int:
            object.__setattr__(record, name, float(value))


def coerce_float_lists(record: object, names: tuple[str, ...]) -> None:
    """Make the int items of these `list[float]` fields floats, in a new list if any is."""
    for name in names:
        value = getattr(record, name)
        if value is not None and any(type(v) is int for v in value):
            object.__setattr__(record, name, [float(v) if type(v) is int else v for v in value])


def is_validation_error(exc: BaseException) -> bool:
    """Whether `exc` is pydantic's `ValidationError` (without importing pydantic)."""
    core = sys.modules.get("pydantic_core")
    return core is not None and isinstance(exc, core.ValidationError)
