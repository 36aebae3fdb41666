"""The C API calls of the compiled core (``capi.pxd``) give what their Python versions
(``capi.py``) and the attribute syntax they replace give, in both builds."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import statetree as st
from statetree.core import capi


class Plain(st.State[None]):
    pass


class Leaving(st.State[list[str]]):
    def on_exit(self) -> None:
        self.owner.append(type(self).__name__)


class Quiet(Leaving):
    """Skips ``State.__init_subclass__``: its ``_st_`` fields are its base's, inherited."""

    @classmethod
    def __init_subclass__(cls, **kwargs: Any) -> None:
        pass


class QuietChild(Quiet):
    def on_exit(self) -> None:
        self.owner.append("QuietChild")


class Other(st.State[list[str]]):
    pass


def test_own_reads_a_class_s_own_or_inherited_attribute_else_none() -> None:
    assert capi.own(Plain, "_st_exits") is False
    assert capi.own(Leaving, "_st_exits") is True
    assert capi.own(QuietChild, "_st_exits") is True  # inherited from Leaving
    assert capi.own(Plain, "no_such_field") is None
    assert capi.own(42, "real") == 42  # not a class: getattr's answer


def test_cached_reads_a_class_s_own_attribute_only() -> None:
    class Silent(Leaving):
        @classmethod
        def __init_subclass__(cls, **kwargs: Any) -> None:
            pass

    class SilentChild(Silent):
        pass

    assert capi.cached(Leaving, "_st_exits") is True
    assert capi.cached(SilentChild, "_st_exits") is None  # Leaving's, not its own
    assert capi.cached(Plain, "no_such_field") is None
    assert capi.cached(Plain(), "_st_exits") is None  # not a class


def test_set_slot_sets_the_field_its_descriptor_names() -> None:
    state = Plain.__new__(Plain)
    capi.set_slot(st.State.__dict__["owner"], state, "me")
    assert state.owner == "me"
    with pytest.raises(TypeError):
        capi.set_slot(st.State.__dict__["owner"], object(), "me")  # not a State


def test_thread_id_is_the_thread_s_identifier() -> None:
    seen: list[int] = []
    thread = threading.Thread(target=lambda: seen.append(capi.thread_id()))
    thread.start()
    thread.join()
    assert capi.thread_id() == threading.get_ident()
    assert seen == [thread.ident]


@pytest.mark.parametrize("leaving", [Leaving, QuietChild])
def test_a_state_s_exit_hook_runs_whether_its_class_holds_its_fields_or_inherits_them(
    leaving: type[st.State[list[str]]],
) -> None:
    log: list[str] = []

    class Start(st.State[list[str]]):
        def transition(self) -> st.Transition:
            return st.inner_entry(leaving)

    machine = st.StateMachine(Start, owner=log)
    machine.process_state_transitions()
    assert [type(state) for state in machine.stack] == [Start, leaving]
    assert all(state.owner is log and state.machine is machine for state in machine.stack)
    machine.stop()
    assert log == [leaving.__name__]


def test_a_transition_to_a_class_without_its_own_fields_is_shared_all_the_same() -> None:
    first = st.sibling(QuietChild)
    assert st.sibling(QuietChild) is first
    assert first.target is QuietChild
