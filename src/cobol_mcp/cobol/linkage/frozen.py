"""Immutable value objects, the base of the spec model: frozen dataclasses without their import cost.

``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``) and builds every class
by running generated code, which a server that loads the codec after its first reply pays on its first
tool call. A :class:`Frozen` subclass instead names its fields in ``stored``, in constructor order,
declares their types in the class body and stores them with :meth:`Frozen.fill` in a plain
``__init__``. Instances compare and hash by their values (only against the same class), print as
``Name(field=value, ...)``, refuse assignment, and pickle and copy through their constructor;
:func:`replace` is ``dataclasses.replace`` for them.

The values live in the instance ``__dict__``, filled in one step: a spec file of hundreds of items loads
faster so than through ``__slots__``, whose every value an immutable class has to store with
``object.__setattr__`` (about 3 times the cost); reading an attribute costs the same either way.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, NoReturn, TypeVar

    T = TypeVar("T", bound="Frozen")

__all__ = ["Frozen", "make", "replace"]

_new = object.__new__


class Frozen:
    # The stored fields, in constructor order, and the constructor's parameter names for them: the same
    # unless a class keeps a field under another name (a property of the parameter's name converts it).
    stored: ClassVar[tuple[str, ...]] = ()
    init_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        cls.init_names = cls.__dict__.get("init_names", cls.stored)

    def fill(self, *values: object) -> None:
        """Store every field, in ``stored`` order: what a subclass's ``__init__`` does, once."""
        self.__dict__.update(zip(self.stored, values, strict=True))

    def astuple(self) -> tuple[Any, ...]:
        """The stored values, in constructor order: ``type(x)(*x.astuple()) == x``."""
        return tuple(self.__dict__.values())

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Frozen) and other.__class__ is self.__class__:
            return self.__dict__ == other.__dict__
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.astuple())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.init_names, self.astuple(), strict=True))
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self.astuple()


def make(cls: type[T], values: list[Any]) -> T:
    """An instance from its stored values, in order, without running ``__init__`` (a spec file's load)."""
    obj = _new(cls)
    obj.__dict__.update(zip(cls.stored, values, strict=True))
    return obj


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with the named fields changed (TypeError for a name that is not a field)."""
    values = dict(zip(obj.init_names, obj.astuple(), strict=True))
    values.update(changes)
    build: Any = type(obj)
    copy: T = build(**values)
    return copy
