"""States, machines and state classes are freed as any Python object is, weak references
included, whether the core runs compiled or not."""

from __future__ import annotations

import gc
import weakref

import statetree as st


def test_a_class_whose_machine_is_dropped_while_in_it_is_freed() -> None:
    """The machine, its stack and its state form a cycle: one collection frees them all,
    the state's class included."""

    def dropped() -> weakref.ref[type[st.State[None]]]:
        class Only(st.State[None]):
            pass

        st.StateMachine(Only).start()
        return weakref.ref(Only)

    gone = dropped()
    gc.collect()
    assert gone() is None


class Kept(st.State[None]):
    pass


def test_weak_references_to_a_state_and_a_machine_die_with_them() -> None:
    machine = st.StateMachine(Kept)
    machine.start()
    freed: list[str] = []
    state = weakref.ref(machine.stack[0])
    weakref.finalize(machine.stack[0], freed.append, "state")
    weakref.finalize(machine, freed.append, "machine")
    machine.stop()
    assert (state(), freed) == (None, ["state"])
    machine.start()
    again = weakref.ref(machine.stack[0])
    held = weakref.ref(machine)
    del machine
    gc.collect()
    assert (again(), held(), freed) == (None, None, ["state", "machine"])


class Lean(st.State[None]):
    __slots__ = ()


def test_states_without_a_dict_and_state_values_take_weak_references_too() -> None:
    machine = st.StateMachine(Lean)
    machine.start()
    value = st.StateValue(0)
    lean, held = weakref.ref(machine.stack[0]), weakref.ref(value)
    assert (lean(), held()) == (machine.stack[0], value)
    machine.stop()
    del value
    assert (lean(), held()) == (None, None)
