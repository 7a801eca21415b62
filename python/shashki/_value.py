"""Immutable value objects without the import cost of dataclasses (``import shashki`` and
its game, engine and PDN modules are meant to load in milliseconds)."""

from __future__ import annotations


class Value:
    """Immutable value objects with named fields, given by position or keyword, with
    equality, hash and repr: what frozen dataclasses give, without their import cost.
    Fields are the class's annotations (not ``ClassVar``); class attributes are defaults."""

    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        own = [
            name
            for name, kind in cls.__dict__.get("__annotations__", {}).items()
            if "ClassVar" not in str(kind)
        ]
        cls._fields = tuple(dict.fromkeys([*cls._fields, *own]))

    def __init__(self, *args: object, **kwargs: object) -> None:
        name = type(self).__name__
        if len(args) > len(self._fields):
            raise TypeError(f"{name}() takes at most {len(self._fields)} arguments")
        values = dict(zip(self._fields, args))
        for key, value in kwargs.items():
            if key not in self._fields or key in values:
                raise TypeError(f"{name}() got an unexpected or repeated argument {key!r}")
            values[key] = value
        for key in self._fields:
            if key not in values:
                if not hasattr(type(self), key):
                    raise TypeError(f"{name}() is missing the argument {key!r}")
                values[key] = getattr(type(self), key)
            object.__setattr__(self, key, values[key])

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, key) for key in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__name__}({inner})"
