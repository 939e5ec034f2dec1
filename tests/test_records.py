"""Records (installer/records.py) behave as the NamedTuples they replace: tuples with named fields."""
import copy
import pickle

import pytest
from hookwright.records import Record


class Place(Record):
    line: int
    column: int = 1


class Shifted(Place):
    def shifted(self) -> "Shifted":
        return self._replace(line=self.line + 1)


def test_a_record_is_the_tuple_of_its_fields_in_the_order_written():
    place = Place(3, 4)

    assert place == (3, 4) and tuple(place) == (3, 4) and hash(place) == hash((3, 4))
    assert (place.line, place.column) == (3, 4)
    assert Place._fields == ("line", "column")
    line, column = place
    assert (line, column) == (3, 4)


def test_a_field_left_out_takes_its_default_and_one_without_a_default_must_be_given():
    assert Place(3) == (3, 1)
    assert Place(line=5) == (5, 1)
    with pytest.raises(TypeError, match="needs a value for line"):
        Place()
    with pytest.raises(TypeError, match="takes 2 values"):
        Place(1, 2, 3)
    with pytest.raises(TypeError, match="no field row"):
        Place(1, row=2)


class Call(Record):
    program: str
    script: str | None = None
    direct: bool = False
    dynamic: str | None = None


def test_fields_given_by_name_land_in_their_places_and_the_others_take_their_defaults():
    assert Call("sh", dynamic="$(x)") == ("sh", None, False, "$(x)")
    assert Call(program="node", direct=True) == ("node", None, True, None)
    assert Call("py", "x.py", dynamic="d", direct=True) == ("py", "x.py", True, "d")
    with pytest.raises(TypeError, match="needs a value for program"):
        Call(direct=True)
    with pytest.raises(TypeError, match="no field script \\(or it is given twice\\)"):
        Call("sh", "x.sh", script="y.sh")


def test_records_sort_and_compare_as_tuples():
    assert sorted([Place(2, 1), Place(1, 9), Place(1, 2)]) == [(1, 2), (1, 9), (2, 1)]
    assert Place(1, 2) != Place(1, 3)


def test_replace_asdict_and_repr_say_the_fields_by_name():
    place = Place(3, 4)

    assert place._replace(column=7) == Place(3, 7) and place == (3, 4)
    assert place._asdict() == {"line": 3, "column": 4}
    assert repr(place) == "Place(line=3, column=4)"
    with pytest.raises(TypeError, match="no field row"):
        place._replace(row=1)


def test_a_record_is_frozen_and_holds_nothing_beside_its_fields():
    place = Place(3, 4)

    with pytest.raises(AttributeError):
        place.line = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        place.note = "x"  # type: ignore[attr-defined]


def test_a_record_survives_pickle_and_copy_as_itself():
    for again in (pickle.loads(pickle.dumps(Place(3, 4))), copy.copy(Place(3, 4)), copy.deepcopy(Place(3, 4))):
        assert type(again) is Place and again == Place(3, 4)


def test_a_subclass_that_adds_methods_keeps_its_parents_fields():
    assert Shifted(1, 2).shifted() == Shifted(2, 2) and type(Shifted(1, 2).shifted()) is Shifted
    assert Shifted._fields == ("line", "column")


def test_a_field_without_a_default_after_one_with_a_default_is_refused_as_a_namedtuple_refuses_it():
    with pytest.raises(TypeError, match="without a default follows"):
        class Broken(Record):
            line: int = 1
            column: int


def test_a_record_holds_at_most_as_many_fields_as_there_are_getters():
    from hookwright.records import MAX_FIELDS

    with pytest.raises(TypeError, match=f"at most {MAX_FIELDS} fields"):
        type(Record)("Wide", (Record,), {"__annotations__": {f"f{n}": "int" for n in range(MAX_FIELDS + 1)}})
