"""Deriving a structure from state classes: what the code says, found without running it."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
import structure_samples as samples
import structure_twins

import statetree as st
from statetree.structure import Edge, Structure, derive

SIBLING = st.TransitionKind.SIBLING
INNER = st.TransitionKind.INNER
ENTRY = st.TransitionKind.INNER_ENTRY
CONCURRENT = st.TransitionKind.CONCURRENT
SAMPLES = str(Path(samples.__file__).resolve())


def line_of(text: str) -> int:
    """The line of structure_samples.py that is ``text``, or else contains it (one only)."""
    lines = Path(SAMPLES).read_text(encoding="utf-8").splitlines()
    found = [number for number, line in enumerate(lines, 1) if line.strip() == text]
    found = found or [number for number, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, f"{text!r} is on lines {found}"
    return found[0]


def triples(structure: Structure) -> set[tuple[str, str, st.TransitionKind]]:
    return {(edge.source, edge.target, edge.kind) for edge in structure.edges}


def test_character_machine_has_the_books_states_depths_and_edges() -> None:
    structure = derive(samples.Character.Alive)

    assert structure.initial == "Character.Alive"
    assert structure.names == (
        "Character.Alive",
        "Character.Dead",
        "Character.Locomotion",
        "Character.Jump",
        "Character.Stand",
        "Character.Move",
    )
    assert [structure.depth(name) for name in structure.names] == [0, 0, 1, 1, 2, 2]
    assert triples(structure) == {
        ("Character.Alive", "Character.Dead", SIBLING),
        ("Character.Alive", "Character.Locomotion", ENTRY),
        ("Character.Locomotion", "Character.Jump", SIBLING),
        ("Character.Locomotion", "Character.Stand", ENTRY),
        ("Character.Stand", "Character.Move", SIBLING),
        ("Character.Move", "Character.Stand", SIBLING),
        ("Character.Jump", "Character.Locomotion", SIBLING),
    }
    assert structure.unresolved == ()


def test_edges_and_states_carry_their_source_lines() -> None:
    structure = derive(samples.Character.Alive)

    dead = structure.edges_to("Character.Dead")[0]
    assert dead.location is not None
    assert (dead.location.file, dead.location.line) == (SAMPLES, line_of("(Character.Dead)"))
    dead_line = inspect.getsourcelines(samples.Character.Dead)[1]
    assert str(structure.state("Character.Dead").location) == f"{SAMPLES}:{dead_line}"
    assert structure.state("Character.Dead").cls is samples.Character.Dead


def test_inherited_methods_count_and_overridden_ones_only_through_super() -> None:
    structure = derive(samples.Inherit.Root)

    assert triples(structure) == {
        ("Inherit.Root", "Inherit.Quiet", ENTRY),
        ("Inherit.Root", "Inherit.Dead", SIBLING),  # Base.transition, through super()
        ("Inherit.Root", "Inherit.Helped", INNER),  # Base.helper, inherited
        ("Inherit.Quiet", "Inherit.Quiet", SIBLING),  # st.sibling(type(self))
        ("Inherit.Quiet", "Inherit.Helped", INNER),
    }


def test_a_state_reached_at_two_depths_reports_the_smallest() -> None:
    structure = derive(samples.Inherit.Root)

    assert structure.depths("Inherit.Helped") == {1, 2}
    assert structure.depth("Inherit.Helped") == 1


def test_deferred_transition_stored_from_calls_is_followed() -> None:
    structure = derive(samples.Deferred.Root)

    assert ("Deferred.Stand", "Deferred.Crouch", SIBLING) in triples(structure)
    assert all(item.state != "Deferred.Stand" for item in structure.unresolved)


def test_targets_that_cannot_be_told_are_reported_with_method_and_line() -> None:
    structure = derive(samples.Deferred.Root)

    found = [
        (u.state, u.method, u.location.line if u.location else 0, u.expression)
        for u in structure.unresolved
    ]
    crouch, variable = line_of("self.done = done"), line_of("st.sibling(target)")
    assert found == [
        ("Deferred.Crouch", "Deferred.Crouch.on_enter", crouch, "done"),
        ("Deferred.Variable", "Deferred.Variable.transition", variable, "st.sibling(target)"),
    ]
    assert str(structure.unresolved[1]) == (
        f"{SAMPLES}:{variable}: Deferred.Variable.transition: cannot tell which state "
        "`st.sibling(target)` targets; declare the possible targets with "
        "@statetree.structure.targets(...)"
    )


def test_transitions_passed_as_arguments_belong_to_the_state_they_are_passed_to() -> None:
    structure = derive(samples.Reuse.Root)

    assert {t for t in triples(structure) if t[0].startswith("Reuse.")} == {
        ("Reuse.Root", "Reuse.Play", ENTRY),
        ("Reuse.Play", "Reuse.Play", SIBLING),
        ("Reuse.Play", "Reuse.Done", SIBLING),
        ("Reuse.Done", "Deferred.Stand", SIBLING),  # DONE, a module-level transition
    }


def test_states_of_other_containers_join_without_their_unreached_neighbours() -> None:
    structure = derive(samples.Reuse.Root)

    assert "Deferred.Stand" in structure
    assert "Deferred.Variable" not in structure


def test_declared_targets_add_edges_and_silence_the_state() -> None:
    structure = derive(samples.Declared.Root)

    assert triples(structure) == {
        ("Declared.Root", "Declared.Stand", INNER),  # `from statetree import inner as ...`
        ("Declared.Stand", "Declared.Crouch", SIBLING),
        ("Declared.Stand", "Declared.Lie", SIBLING),
        ("Declared.Stand", "Declared.Helper", ENTRY),
        ("Declared.Broken", "Nowhere", SIBLING),
    }
    assert structure.unresolved == ()


def test_get_state_override_gives_an_overridable_edge() -> None:
    (edge,) = derive(samples.Override.Root).edges

    assert edge == Edge("Override.Root", "Override.Attack", ENTRY)
    assert edge.overridable


def test_a_machine_adds_the_edges_its_overrides_lead_to() -> None:
    machine: st.StateMachine[samples.Owner] = st.StateMachine(samples.Override.Root)
    machine.add_state_override(samples.Override.Attack, samples.Override.HeroAttack)

    structure = derive(machine)

    assert triples(structure) == {
        ("Override.Root", "Override.Attack", ENTRY),
        ("Override.Root", "Override.HeroAttack", ENTRY),
    }
    assert structure.depth("Override.HeroAttack") == 1
    assert machine.structure == structure  # every machine has its structure (a chart's too)
    assert st.StateMachine(samples.Override.Root).structure == derive(samples.Override.Root)


def test_unknown_targets_become_edges_to_names_that_are_not_states() -> None:
    structure = derive(samples.Broken.Root)

    unknown = [(e.source, e.target) for e in structure.edges if e.target not in structure]
    assert unknown == [("Broken.Root", "Broken.Missing"), ("Broken.Leaf", "Owner")]


def test_states_next_to_the_initial_one_are_included_even_when_unreachable() -> None:
    structure = derive(samples.Broken.Root)

    assert "Broken.Forgotten" in structure
    assert structure.depth("Broken.Forgotten") is None


def test_states_defined_in_a_function_are_derived_through_their_closures() -> None:
    class Local:
        class A(st.State[None]):
            def transition(self) -> st.Transition:
                return st.sibling(Local.B)

        class B(st.State[None]):
            def transition(self) -> st.Transition:
                return st.inner_entry(Local.A)

    structure = derive(Local.A)

    prefix = "test_states_defined_in_a_function_are_derived_through_their_closures.<locals>"
    assert triples(structure) == {
        (f"{prefix}.Local.A", f"{prefix}.Local.B", SIBLING),
        (f"{prefix}.Local.B", f"{prefix}.Local.A", ENTRY),
    }


def test_classes_sharing_a_qualified_name_are_told_apart_by_module() -> None:
    structure = derive(samples.Twin)

    assert structure.names == ("structure_samples.Twin", "structure_twins.Twin")
    assert structure.name_of(structure_twins.Twin) == "structure_twins.Twin"


@pytest.mark.parametrize("value", [samples.Owner, 3, st.State])
def test_deriving_something_else_than_a_state_class_is_a_usage_error(value: object) -> None:
    with pytest.raises(st.UsageError, match="derive\\(\\) needs a State subclass"):
        derive(value)  # type: ignore[arg-type]


def test_deriving_twice_gives_equal_structures() -> None:
    assert derive(samples.Reuse.Root) == derive(samples.Reuse.Root)


def test_concurrent_regions_are_one_edge_per_region_root() -> None:
    structure = derive(samples.Body.Alive)

    assert {t for t in triples(structure) if t[2] is CONCURRENT} == {
        ("Body.Alive", "Body.Legs", CONCURRENT),
        ("Body.Alive", "Body.Arms", CONCURRENT),
    }
    assert [structure.depth(n) for n in ("Body.Legs", "Body.Walk", "Body.Rest")] == [1, 2, 2]


def _go(target: type[st.State[None]]) -> st.Transition:
    return st.sibling(target)


def test_transitions_kept_in_class_attributes_are_read_from_the_class() -> None:
    class Menu(st.State[None]):
        pass

    class Intro(st.State[None]):
        NEXT = _go(Menu)  # a helper's result: no transition call to read

        def transition(self) -> st.Transition:
            return self.NEXT

    class Pause(st.State[None]):
        NEXT: st.Transition | None = None

        def transition(self) -> st.Transition | None:
            return self.NEXT

    Pause.NEXT = st.sibling(Menu)  # set once the class exists
    for state in (Intro, Pause):
        structure = derive(state)
        assert triples(structure) == {(structure.name_of(state), structure.name_of(Menu), SIBLING)}
        assert structure.unresolved == ()


def test_a_class_attribute_may_name_states_local_to_a_function() -> None:
    class Idle(st.State[None]):
        def transition(self) -> st.Transition:
            return st.sibling(Busy)

    class Busy(st.State[None]):
        BACK = st.sibling(Idle)  # Idle is a name of this function, not of the module

        def transition(self) -> st.Transition:
            return self.BACK

    structure = derive(Idle)
    idle, busy = structure.name_of(Idle), structure.name_of(Busy)
    assert triples(structure) == {(idle, busy, SIBLING), (busy, idle, SIBLING)}
    assert st.structure.validate(structure).errors == ()


def test_names_a_method_binds_itself_are_not_read_as_module_globals() -> None:
    class Guard(st.State[tuple[str, type[st.State[None]]]]):
        def transition(self) -> st.Transition | None:
            from structure_samples import Character  # a local import (a cycle avoided)

            if self.owner[0] == "alive":
                return st.sibling(Character.Alive)
            match self.owner:
                case ("go", target):
                    return st.sibling(target)
            return None

    structure = derive(Guard)
    assert structure.edges == ()
    assert [item.expression for item in structure.unresolved] == [
        "st.sibling(Character.Alive)",
        "st.sibling(target)",
    ]
    assert all("cannot tell which state" in item.reason for item in structure.unresolved)


def test_a_deferred_transition_stored_by_a_tuple_assignment_is_followed() -> None:
    class Done(st.State[None]):
        pass

    class PlayAnim(st.State[None]):
        done: st.Transition | None = None

        def on_enter(self, anim: str, done: st.Transition) -> None:
            self.anim, self.done = anim, done

        def transition(self) -> st.Transition | None:
            return self.done

    class Swing(PlayAnim):
        def on_enter(self, anim: str, done: st.Transition) -> None:
            self.anim, self.done = (anim, st.sibling(Done))

    assert [item.reason.split(";")[0] for item in derive(PlayAnim).unresolved] == [
        "`self.done` may hold `done`, which is not a transition call"
    ]
    swing = derive(Swing)
    assert triples(swing) == {(swing.name_of(Swing), swing.name_of(Done), SIBLING)}


def test_code_nested_past_the_recursion_limit_is_read_or_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chain = " + ".join(['"x"'] * 1500)  # generated code: Python imports it
    (tmp_path / "deep_states.py").write_text(
        "import statetree as st\n"
        f"BANNER = {chain}\n"
        "class Idle(st.State[None]):\n"
        "    def transition(self):\n"
        "        return st.sibling(Busy)\n"
        "class Busy(st.State[None]):\n"
        "    def transition(self):\n"
        f"        return st.sibling(Idle) if len({chain}) else None\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    deep = importlib.import_module("deep_states")
    structure = derive(deep.Idle)
    assert (structure.name_of(deep.Idle), structure.name_of(deep.Busy), SIBLING) in triples(
        structure
    )
    assert [(item.state, item.reason.split(";")[0]) for item in structure.unresolved] == [
        (structure.name_of(deep.Busy), "its code nests too deeply to read")
    ]


def _waiting(then: type[st.State[None]]) -> type[st.State[None]]:
    class Wait(st.State[None]):
        def transition(self) -> st.Transition:
            return st.sibling(then)

    return Wait


def test_states_a_function_makes_twice_are_numbered() -> None:
    class Done(st.State[None]):
        pass

    second = _waiting(Done)
    first = _waiting(second)
    structure = derive(first)
    wait = f"{__name__}._waiting.<locals>.Wait"
    assert [structure.name_of(cls) for cls in (first, second)] == [wait, f"{wait}#2"]
    assert triples(structure) == {
        (wait, f"{wait}#2", SIBLING),
        (f"{wait}#2", structure.name_of(Done), SIBLING),
    }
