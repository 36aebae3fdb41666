"""Structure.validate(): each problem as a frozen issue with a severity and a readable text."""

from __future__ import annotations

import pytest
import structure_samples as samples

import statetree as st
from statetree.structure import Edge, Issue, Severity, StateInfo, Structure, derive, validate

SIBLING = st.TransitionKind.SIBLING
INNER = st.TransitionKind.INNER
ENTRY = st.TransitionKind.INNER_ENTRY


def codes(structure: Structure) -> list[tuple[str, str, str]]:
    return [(i.severity.value, i.code, i.state) for i in structure.validate().issues]


def test_a_sound_machine_has_no_issues() -> None:
    report = derive(samples.Character.Alive).validate()

    assert report.issues == ()
    assert report.ok
    assert str(report) == "0 errors, 0 warnings"


def test_unknown_targets_and_sources_are_errors() -> None:
    structure = Structure(
        "A", (StateInfo("A"),), (Edge("A", "Typo", SIBLING), Edge("Ghost", "A", SIBLING))
    )

    report = structure.validate()

    assert codes(structure) == [
        ("error", "unknown-target", "A"),
        ("error", "unknown-source", "Ghost"),
    ]
    assert not report.ok
    assert str(report.errors[0]) == (
        "error: A -> Typo (sibling): the target 'Typo' is not a state of this machine "
        "[unknown-target]"
    )


def test_unreachable_states_are_warnings() -> None:
    structure = Structure.from_names("A", [], states=["Orphan"])

    assert codes(structure) == [("warning", "unreachable", "Orphan")]
    assert structure.validate().ok


def test_siblings_at_different_depths_and_states_at_several_depths_are_flagged() -> None:
    structure = Structure.from_names(
        "Root",
        [
            ("Root", "Anim", INNER),
            ("Root", "Outer", ENTRY),
            ("Outer", "Inner", ENTRY),
            ("Inner", "Anim", SIBLING),
        ],
    )

    assert codes(structure) == [
        ("warning", "sibling-depth", "Inner"),
        ("warning", "multiple-depths", "Anim"),
    ]
    messages = [issue.message for issue in structure.validate().issues]
    assert messages == [
        "Inner -> Anim (sibling): Inner is at depth 2 but its sibling Anim is at depth 1",
        "Anim can be at depths 1, 2; plots show 1",
    ]


def test_derived_machine_reports_every_kind_of_problem_errors_first() -> None:
    report = derive(samples.Broken.Root).validate()

    assert [(i.severity, i.code, i.state) for i in report.issues] == [
        (Severity.ERROR, "unknown-target", "Broken.Root"),
        (Severity.ERROR, "unknown-target", "Broken.Leaf"),
        (Severity.WARNING, "unreachable", "Broken.Forgotten"),
        (Severity.WARNING, "sibling-depth", "Broken.Outer"),
        (Severity.WARNING, "nesting-cycle", "Broken.Root"),
        (Severity.WARNING, "nesting-cycle", "Broken.Outer"),
        (Severity.WARNING, "nesting-cycle", "Broken.Leaf"),
    ]
    assert str(report).endswith("\n2 errors, 5 warnings")
    assert all(issue.location is not None for issue in report.issues)


def test_unresolved_transitions_are_warnings_naming_method_and_line() -> None:
    report = derive(samples.Deferred.Root).validate()
    unresolved = [issue for issue in report.issues if issue.code == "unresolved"]

    assert [issue.state for issue in unresolved] == ["Deferred.Crouch", "Deferred.Variable"]
    assert unresolved[1].message.startswith(
        "Deferred.Variable.transition: cannot tell which state `st.sibling(target)` targets"
    )
    assert str(unresolved[1]).startswith(f"warning: {samples.__file__}:")


def test_issues_are_frozen_values() -> None:
    issue = Issue(Severity.WARNING, "unreachable", "A", "A is not reachable")

    assert issue == Issue(Severity.WARNING, "unreachable", "A", "A is not reachable")
    assert str(issue) == "warning: A is not reachable [unreachable]"


def test_validate_given_a_class_or_a_machine_says_to_derive_its_structure() -> None:
    machine = st.StateMachine(samples.Character.Alive)
    for given in (samples.Character.Alive, machine, None):
        with pytest.raises(st.UsageError) as caught:
            validate(given)  # type: ignore[arg-type]
        assert str(caught.value) == (
            f"validate() takes a Structure, got {given!r} ({type(given).__name__}): pass "
            "statetree.structure.derive(...) of a state class or a machine"
        )
    assert validate(derive(machine)).ok


class Misspelt:
    class Idle(st.State[None]):
        def transiton(self) -> st.Transition:  # never called: Idle never leaves
            return st.sibling(Misspelt.Walk)

        def on_entr(self) -> None:
            pass

        def helper(self) -> None:  # no hook's name: not flagged
            pass

    class Base(st.State[None]):
        def on_exitt(self) -> None:
            pass

    class Walk(Base):
        def on_exit(self) -> None:  # the real hook: not flagged
            pass


def test_a_method_named_almost_as_a_hook_is_a_warning_at_its_line() -> None:
    report = derive(Misspelt.Idle).validate()
    found = [(i.code, i.state, i.message, i.location) for i in report.issues]
    line = Misspelt.Idle.transiton.__code__.co_firstlineno
    assert [(code, state, message) for code, state, message, _ in found] == [
        (
            "misspelt-hook",
            "Misspelt.Idle",
            "Misspelt.Idle.transiton is never called by the machine: did you mean transition?",
        ),
        (
            "misspelt-hook",
            "Misspelt.Idle",
            "Misspelt.Idle.on_entr is never called by the machine: did you mean on_enter?",
        ),
        (
            "misspelt-hook",
            "Misspelt.Walk",
            "Misspelt.Base.on_exitt is never called by the machine: did you mean on_exit?",
        ),
    ]
    assert found[0][3] is not None and (found[0][3].file, found[0][3].line) == (__file__, line)
    assert report.ok  # warnings only


class Ported:
    class Stand(st.State[None]):
        def OnEnter(self) -> None:  # the C++ name, as ported
            pass

        def Update(self) -> None:
            pass

        def GetTransition(self) -> None:
            pass

        def OnHit(self) -> None:  # no hook's name: not flagged
            pass


def test_a_hook_under_its_cpp_name_is_a_misspelt_hook() -> None:
    report = derive(Ported.Stand).validate()
    assert [(i.code, i.message.partition(": did you mean ")[2]) for i in report.issues] == [
        ("misspelt-hook", "on_enter?"),
        ("misspelt-hook", "update?"),
        ("misspelt-hook", "transition?"),
    ]
