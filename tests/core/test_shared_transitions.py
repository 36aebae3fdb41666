"""Transitions without arguments are shared values, kept as long as their target class."""

from __future__ import annotations

import gc
import inspect
import pickle
import weakref
from collections.abc import Callable
from typing import ClassVar

import pytest

import statetree as st
from statetree.core import transition as transition_module

Maker = Callable[[type[st.State[None]]], st.Transition]
MAKERS: tuple[Maker, ...] = (st.sibling, st.inner, st.inner_entry, st.concurrent)


class Base(st.State[None]):
    pass


class Derived(Base):
    pass


@pytest.mark.parametrize("make", MAKERS)
def test_a_transition_without_arguments_is_one_shared_value(make: Maker) -> None:
    first = make(Derived)
    assert make(Derived) is first
    assert first.target is Derived


@pytest.mark.parametrize("make", MAKERS)
def test_a_subclass_gets_its_own_transition_not_its_base_s(make: Maker) -> None:
    base, derived = make(Base), make(Derived)
    assert (base.target, derived.target) == (Base, Derived)
    assert make(Base) is base


def test_each_kind_has_its_own_shared_transition() -> None:
    kinds = [make(Derived).kind for make in MAKERS]
    assert kinds == [
        st.TransitionKind.SIBLING,
        st.TransitionKind.INNER,
        st.TransitionKind.INNER_ENTRY,
        st.TransitionKind.CONCURRENT,
    ]


def test_concurrent_roots_in_another_order_are_another_transition() -> None:
    class Upper(st.State[None]):
        pass

    class Lower(st.State[None]):
        pass

    both = st.concurrent(Upper, Lower)
    assert st.concurrent(Upper, Lower) is both
    assert st.concurrent(Lower, Upper).regions == (Lower, Upper)
    assert st.concurrent(Upper).regions == (Upper,)


def test_arguments_make_a_new_transition_each_call() -> None:
    class Hit(st.State[None]):
        def on_enter(self, damage: int) -> None:
            pass

    assert st.sibling(Hit, 3) is not st.sibling(Hit, 3)
    assert st.sibling(Hit, 3) == st.sibling(Hit, 3)


def _run_a_class_made_at_run_time() -> weakref.ref[type[st.State[None]]]:
    """A class made at run time (as a reloaded chart makes them), its transitions made and
    a machine run through it; only a weak reference to it is returned."""

    class Second(st.State[None]):
        pass

    class First(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Second)

    for make in MAKERS:
        make(Second)
        make(First)
    st.concurrent(Second, First)
    machine = st.StateMachine(First)
    machine.process_state_transitions()
    assert type(machine.stack[0]) is Second
    return weakref.ref(Second)


def test_a_class_made_at_run_time_is_freed_with_its_shared_transitions() -> None:
    gone = _run_a_class_made_at_run_time()
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("make", MAKERS)
def test_a_target_that_is_not_a_state_class_still_raises(make: Maker) -> None:
    with pytest.raises(st.TransitionTargetError, match="needs a State subclass"):
        make("Stand")  # type: ignore[arg-type]


HELPERS = ("sibling", "inner", "inner_entry")


@pytest.mark.parametrize("name", HELPERS)
def test_the_exported_helpers_are_the_core_functions(name: str) -> None:
    """``statetree`` exports the core's helpers themselves, in both builds: shared values
    without arguments, new transitions with them, the same errors, picklable by name."""
    exported, source = getattr(st, name), getattr(transition_module, name)
    assert exported is source
    assert exported.__name__ == name and exported.__module__ == "statetree.core.transition"
    parameters = inspect.signature(exported).parameters.values()
    assert [(p.name, p.kind) for p in parameters] == [
        ("target", inspect.Parameter.POSITIONAL_ONLY),
        ("args", inspect.Parameter.VAR_POSITIONAL),
        ("kwargs", inspect.Parameter.VAR_KEYWORD),
    ]
    assert exported(Derived) is source(Derived)
    assert exported(Armed, 2, power=3) == source(Armed, 2, power=3) != exported(Armed)
    for bad in ("Stand", int, None):
        with pytest.raises(st.TransitionTargetError) as from_exported:
            exported(bad)
        with pytest.raises(st.TransitionTargetError) as from_source:
            source(bad)
        assert str(from_exported.value) == str(from_source.value)
    with pytest.raises(st.StateArgumentError, match="Derived takes no state arguments"):
        exported(Derived, 1)
    assert pickle.loads(pickle.dumps(exported)) is exported


class Armed(st.State[None]):
    def on_enter(self, level: int = 0, power: int = 0) -> None:
        self.level = level + power


class Registered(st.State[list[str]]):
    """A game's base class keeping a registry, whose ``__init_subclass__`` forgets
    ``super()``: its subclasses skip ``State.__init_subclass__``."""

    names: ClassVar[list[str]] = []

    def __init_subclass__(cls, **kwargs: object) -> None:
        Registered.names.append(cls.__name__)

    def on_exit(self) -> None:
        self.owner.append(f"exit {type(self).__name__}")


class Outer(Registered):
    def on_enter(self) -> None:
        self.owner.append("enter Outer")

    def update(self) -> None:
        self.owner.append("update Outer")

    def transition(self) -> st.Transition | None:
        return st.inner_entry(Inner, "run")


class Inner(Registered):
    def on_enter(self, gait: str = "walk") -> None:
        self.owner.append(f"enter Inner {gait}")


@pytest.mark.parametrize("make", MAKERS[:3])
def test_a_class_that_skipped_state_s_init_subclass_gets_its_own_transition(
    make: Maker,
) -> None:
    class Skipping(Registered):
        pass

    assert make(Registered).target is Registered  # shared on the base first
    assert make(Skipping).target is Skipping
    assert make(Skipping) is make(Skipping)
    assert make(Registered).target is Registered


def test_a_class_that_skipped_state_s_init_subclass_runs_its_own_hooks() -> None:
    log: list[str] = []
    machine = st.StateMachine(Outer, log)
    machine.process_state_transitions()
    machine.update_states()
    machine.stop()
    assert Registered.names[:2] == ["Outer", "Inner"]
    assert log == [
        "enter Outer",
        "enter Inner run",
        "update Outer",
        "exit Inner",
        "exit Outer",
    ]


class Updating(Registered):
    def update(self) -> None:
        self.owner.append("update Updating")


class Host(Registered):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Updating)


def test_a_loaded_state_of_a_class_that_skipped_state_s_init_subclass_runs_its_hooks() -> None:
    """In a fresh process a save may bring a class no transition was made to yet."""
    machine = st.StateMachine(Host, [])
    machine.process_state_transitions()
    data = pickle.dumps(machine)
    own = [name for name in vars(Updating) if name.startswith("_st_")]
    assert own  # set up by the transition to it
    for name in own:  # as a fresh process has it: its base's fields only
        delattr(Updating, name)
    loaded = pickle.loads(data)
    loaded.update_states()
    loaded.stop()
    assert loaded.owner == ["update Updating", "exit Updating", "exit Host"]
