"""Recording what a running machine does and comparing it with what its code predicts."""

from __future__ import annotations

import pytest
import structure_samples as samples

import statetree as st
from statetree.structure import Edge, EdgeRecorder, derive

SIBLING = st.TransitionKind.SIBLING
INNER = st.TransitionKind.INNER
ENTRY = st.TransitionKind.INNER_ENTRY
CONCURRENT = st.TransitionKind.CONCURRENT


def character() -> tuple[samples.Owner, st.StateMachine[samples.Owner]]:
    owner = samples.Owner()
    return owner, st.StateMachine(samples.Character.Alive, owner)


def test_the_recorder_sees_entries_and_siblings_with_their_sources() -> None:
    owner, machine = character()
    recorder = EdgeRecorder.attach(machine)

    machine.process_state_transitions()  # Alive > Locomotion > Stand
    owner.flag = True
    machine.process_state_transitions()  # Alive siblings to Dead at once

    assert recorder.edges == (
        Edge("Character.Alive", "Character.Locomotion", ENTRY),
        Edge("Character.Locomotion", "Character.Stand", ENTRY),
        Edge("Character.Alive", "Character.Dead", SIBLING),
    )
    assert recorder.states == (
        "Character.Alive",
        "Character.Locomotion",
        "Character.Stand",
        "Character.Dead",
    )


def test_a_deep_sibling_takes_the_state_popped_at_its_depth_as_source() -> None:
    owner, machine = character()
    recorder = EdgeRecorder.attach(machine)
    machine.process_state_transitions()

    owner.flag = True
    machine.stop()  # pops everything; the next processing starts from Init again
    machine.process_state_transitions()

    assert recorder.edges[-1] == Edge("Character.Alive", "Character.Dead", SIBLING)
    assert recorder.count(Edge("Character.Alive", "Character.Locomotion", ENTRY)) == 1


def test_a_recorder_attached_to_a_running_machine_starts_from_its_stack() -> None:
    owner, machine = character()
    machine.process_state_transitions()
    recorder = EdgeRecorder.attach(machine)

    owner.flag = True
    machine.process_state_transitions()

    assert recorder.edges == (Edge("Character.Alive", "Character.Dead", SIBLING),)
    assert recorder.states[:3] == (
        "Character.Alive",
        "Character.Locomotion",
        "Character.Stand",
    )


def test_everything_a_machine_does_is_predicted_by_its_structure() -> None:
    owner = samples.Owner()
    machine = st.StateMachine(samples.Inherit.Root, owner)
    recorder = EdgeRecorder.attach(machine)
    machine.process_state_transitions()
    owner.flag = True
    machine.process_state_transitions()

    structure = derive(samples.Inherit.Root)

    assert recorder.edges  # the run did something
    assert structure.unpredicted(recorder.edges) == ()


def test_an_edge_the_code_hides_shows_up_as_unpredicted() -> None:
    owner = samples.Owner()
    machine = st.StateMachine(samples.Deferred.Root, owner)
    recorder = EdgeRecorder(derive(samples.Deferred.Root).name_of)
    machine.add_listener(recorder)
    machine.process_state_transitions()
    owner.flag = True
    machine.update_states()  # Stand stores its transition to Crouch
    machine.process_state_transitions()
    machine.stack[-1].done = st.sibling(samples.Deferred.Variable)  # type: ignore[attr-defined]
    machine.process_state_transitions()

    unpredicted = derive(samples.Deferred.Root).unpredicted(recorder.edges)

    # Crouch's stored `done` and Variable's `st.sibling(target)`: both reported unresolved.
    assert unpredicted == (
        Edge("Deferred.Crouch", "Deferred.Variable", SIBLING),
        Edge("Deferred.Variable", "Deferred.Stand", SIBLING),
    )


def test_inner_transitions_replacing_an_inner_are_recorded_as_inner() -> None:
    class Flip:
        class Root(st.State[list[bool]]):
            def transition(self) -> st.Transition:
                return st.inner(Flip.B if self.owner[0] else Flip.A)

        class A(st.State[list[bool]]):
            pass

        class B(st.State[list[bool]]):
            pass

    switch = [False]
    machine = st.StateMachine(Flip.Root, switch)
    recorder = EdgeRecorder.attach(machine, namer=lambda cls: cls.__name__)
    machine.process_state_transitions()
    switch[0] = True
    machine.process_state_transitions()

    assert recorder.edges == (Edge("Root", "A", INNER), Edge("Root", "B", INNER))


def test_concurrent_regions_are_recorded_with_their_hosts_and_roots() -> None:
    owner = samples.Owner()
    machine = st.StateMachine(samples.Body.Alive, owner)
    recorder = EdgeRecorder.attach(machine)
    machine.process_state_transitions()
    owner.flag = True
    machine.process_state_transitions()

    assert recorder.edges == (
        Edge("Body.Alive", "Body.Legs", CONCURRENT),
        Edge("Body.Alive", "Body.Arms", CONCURRENT),
        Edge("Body.Legs", "Body.Walk", ENTRY),
        Edge("Body.Arms", "Body.Wave", ENTRY),
        Edge("Body.Walk", "Body.Run", SIBLING),
        Edge("Body.Wave", "Body.Rest", SIBLING),
    )
    assert derive(samples.Body.Alive).unpredicted(recorder.edges) == ()


def test_a_recorder_given_a_machine_where_its_namer_goes_says_to_attach() -> None:
    machine = st.StateMachine(samples.Character.Alive)
    with pytest.raises(st.UsageError) as caught:
        EdgeRecorder(machine)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"an EdgeRecorder's namer names a state class, got {machine!r}: attach to a "
        "machine with EdgeRecorder.attach(machine)"
    )
    with pytest.raises(st.UsageError, match=r"^an EdgeRecorder listens to a StateMachine, got 5$"):
        EdgeRecorder(None, 5)  # type: ignore[arg-type]
    assert machine._listeners() == ()  # nothing was attached
