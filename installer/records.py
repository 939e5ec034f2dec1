"""Frozen records: a class that names its fields, written as a `typing.NamedTuple` is, and that
is a tuple (compared, hashed, sorted, unpacked and pickled as one, copied with `_replace`).

    class Place(Record):
        line: int
        column: int = 1

`typing.NamedTuple` builds each such class by compiling its methods and every annotation when
the module is imported: about 0.9 M instructions a class, and doctor's path defines about forty,
which was 6% of `doctor FILE` on a typical file (26 M of 436 M instructions; issue 37).
A Record class is built from the annotations as written (the strings `from __future__ import
annotations` leaves, never evaluated) in a few microseconds, and its instances cost what a
NamedTuple's do. mypy reads it as a NamedTuple."""
from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["Record", "TupleRecord"]
_NO_DEFAULT = object()
# a record's fields are read by a namedtuple's own field getters, C code that reads one place of
# any tuple: through property(itemgetter(place)) a read was a call from Python, about 350
# instructions. doctor reads some 200,000 fields on the corpus tree: 4,343.1 M -> 4,296.0 M
# instructions (valgrind, one worker); making the namedtuple costs 0.8 M, about what one typical
# file's reads save
_PLACES = namedtuple("_PLACES", "at0 at1 at2 at3 at4 at5 at6 at7 at8 at9 at10 at11 at12 at13 at14 at15")
MAX_FIELDS = len(_PLACES._fields)


class _RecordType(type):
    """Makes each Record class's fields from its annotations: one read-only attribute a field, at
    its place in the tuple, and the defaults its body gives."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _RecordType:
        names = tuple(namespace.get("__annotations__", {}))
        if not names:  # (Record itself, or a subclass that only adds methods)
            namespace.setdefault("__slots__", ())
            return super().__new__(mcs, name, bases, namespace)
        defaults = {field: namespace.pop(field) for field in names if field in namespace}
        if any(field not in defaults for field in names[len(names) - len(defaults):]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        if len(names) > MAX_FIELDS:
            raise TypeError(f"{name}: a record has at most {MAX_FIELDS} fields")
        namespace.update({field: getattr(_PLACES, f"at{place}") for place, field in enumerate(names)})
        namespace.update(__slots__=(), _fields=names, _defaults=defaults, _tail=tuple(defaults.values()),
                         __match_args__=names, _index={field: index for index, field in enumerate(names)},
                         _required=len(names) - len(defaults))
        return super().__new__(mcs, name, bases, namespace)


class TupleRecord(tuple, metaclass=_RecordType):  # type: ignore[type-arg]
    """A record of named fields (see the module's docstring): the base of each `Record` class."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _tail: ClassVar[tuple[Any, ...]] = ()  # the defaults of the last fields, in order
    _index: ClassVar[dict[str, int]] = {}  # each field's place
    _required: ClassVar[int] = 0  # how many fields (the first ones) have no default

    def __new__(cls, *values: Any, **named: Any) -> Self:
        if named or len(values) != len(cls._fields):
            values = cls._complete(values, named)
        return tuple.__new__(cls, values)

    @classmethod
    def _complete(cls, given: tuple[Any, ...], named: dict[str, Any]) -> tuple[Any, ...]:
        """The values of every field, from those given by place, by name, and the defaults."""
        count, required = len(given), cls._required
        missing = len(cls._fields) - count
        if not named and 0 < missing <= len(cls._tail):  # (the common case: the last fields left out)
            return given + cls._tail[len(cls._tail) - missing:]
        if missing < 0:
            raise TypeError(f"{cls.__name__} takes {len(cls._fields)} values, not {len(given)}")
        # the given values, then each field's default, then the named values in their places: a
        # record with a dozen fields made by name (the shell resolver's) is made thousands of times a run
        values = [*given, *((_NO_DEFAULT,) * (required - count)), *cls._tail[max(count - required, 0):]]
        index = cls._index
        for field, value in named.items():
            at = index.get(field, -1)
            if at < count:
                raise TypeError(f"{cls.__name__} has no field {field}"
                                f"{' (or it is given twice)' if at >= 0 else ''}")
            values[at] = value
        for at in range(count, required):
            if values[at] is _NO_DEFAULT:
                raise TypeError(f"{cls.__name__} needs a value for {cls._fields[at]}")
        return tuple(values)

    def __getnewargs__(self) -> tuple[Any, ...]:  # (pickle and copy make it again from its values)
        return tuple(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, self))})"

    def _replace(self, **changes: Any) -> Self:
        """A copy with the named fields changed (as a NamedTuple's `_replace`)."""
        values, index = list(self), self._index
        for field, value in changes.items():  # (by each field's place: the shell reader replaces thousands a run)
            at = index.get(field, -1)
            if at < 0:
                raise TypeError(f"{type(self).__name__} has no field {field}")
            values[at] = value
        return type(self)(*values)

    def _asdict(self) -> dict[str, Any]:
        """The fields by name (as a NamedTuple's `_asdict`)."""
        return dict(zip(self._fields, self))


if TYPE_CHECKING:  # a type checker reads each Record class as the NamedTuple it behaves as
    from typing import NamedTuple as Record
else:
    Record = TupleRecord
