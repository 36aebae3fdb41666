"""Finding the machines of a module, and declaring targets the code does not show."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

import statetree as st
from statetree.structure import Targets, declared_targets, find_initial_states, targets
from statetree.structure.discover import InitialStatesError

HEADER = "from __future__ import annotations\nimport statetree as st\n"

Loader = Callable[[str], ModuleType]


@pytest.fixture
def load(tmp_path: Path) -> Iterator[Loader]:
    """Write a module to a file and import it (derivation reads real files)."""
    names: list[str] = []

    def write_and_import(body: str) -> ModuleType:
        name = f"discover_sample_{len(names)}"
        path = tmp_path / f"{name}.py"
        path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        names.append(name)
        spec.loader.exec_module(module)
        return module

    yield write_and_import
    for name in names:
        sys.modules.pop(name, None)


def qualnames(states: tuple[type, ...]) -> list[str]:
    return [state.__qualname__ for state in states]


def test_a_module_can_say_which_machines_it_defines(load: Loader) -> None:
    module = load("""
        class S:
            class A(st.State[None]): ...
            class B(st.State[None]): ...

        def initial_states():
            return [S.B]
    """)

    assert qualnames(find_initial_states(module)) == ["S.B"]


def test_initial_states_come_from_the_state_machines_it_builds(load: Loader) -> None:
    module = load("""
        class Hero:
            def __init__(self):
                self.body = st.StateMachine(Body.Stand, self)
                self.arms = st.StateMachine(initial=st.sibling(Arms.Idle, 1), owner=self)

        class Body:
            class Stand(st.State[Hero]): ...

        class Arms:
            class Idle(st.State[Hero]):
                def on_enter(self, speed): ...
    """)

    assert qualnames(find_initial_states(module)) == ["Body.Stand", "Arms.Idle"]


def test_otherwise_the_states_no_transition_targets_are_the_roots(load: Loader) -> None:
    module = load("""
        class S:
            class Base(st.State[None]): ...

            class Done(Base): ...

            class Play(Base):
                def transition(self):
                    return st.sibling(S.Done)

            class Alive(Base):
                def transition(self):
                    return st.inner_entry(S.Play)
    """)

    assert qualnames(find_initial_states(module)) == ["S.Alive"]


def test_states_that_only_target_each_other_give_their_first_as_root(load: Loader) -> None:
    module = load("""
        class S:
            class Alive(st.State[None]):
                def transition(self):
                    return st.sibling(S.Dead)

            class Dead(st.State[None]):
                def transition(self):
                    return st.sibling(S.Alive)

        class Other(st.State[None]): ...
    """)

    assert qualnames(find_initial_states(module)) == ["S.Alive", "Other"]


def test_a_module_without_states_has_no_machines(load: Loader) -> None:
    assert find_initial_states(load("VALUE = 1\n")) == ()


def test_a_convention_returning_something_else_is_a_definition_error(load: Loader) -> None:
    module = load("def initial_states():\n    return 'Alive'\n")

    with pytest.raises(st.DefinitionError, match=r"initial_states\(\) must return State"):
        find_initial_states(module)


def test_a_convention_that_raises_is_a_definition_error_caused_by_what_it_raised(
    load: Loader,
) -> None:
    module = load("""
        class Alive(st.State[None]): ...

        def initial_states():
            return (Alive, Dead)
    """)

    with pytest.raises(InitialStatesError) as caught:
        find_initial_states(module)

    assert isinstance(caught.value, st.DefinitionError)
    assert isinstance(caught.value.__cause__, NameError)
    assert str(caught.value).startswith(f"{module.__name__}.initial_states() raised NameError: ")


def test_a_module_getattr_is_not_run_to_find_its_machines(load: Loader) -> None:
    module = load("""
        class Alive(st.State[None]): ...

        def __getattr__(name):
            raise RuntimeError("computed lazily: " + name)
    """)

    assert qualnames(find_initial_states(module)) == ["Alive"]


def test_targets_accepts_classes_names_and_single_values() -> None:
    class Crouch(st.State[None]):
        pass

    @targets(sibling=Crouch, inner_entry=("Helper", Crouch))
    class Stand(st.State[None]):
        pass

    assert declared_targets(Stand) == ((Stand, Targets((Crouch,), (), ("Helper", Crouch))),)
    assert [(kind.name, ref) for kind, ref in declared_targets(Stand)[0][1].items()] == [
        ("SIBLING", Crouch),
        ("INNER_ENTRY", "Helper"),
        ("INNER_ENTRY", Crouch),
    ]


def test_declarations_of_base_classes_are_inherited() -> None:
    @targets(sibling="Dead")
    class Base(st.State[None]):
        pass

    class Leaf(Base):
        pass

    assert [owner for owner, _ in declared_targets(Leaf)] == [Base]


def test_targets_rejects_what_is_neither_a_state_nor_a_name() -> None:
    with pytest.raises(st.DefinitionError, match=r"targets\(inner=...\): 3 is neither"):
        targets(inner=[3])  # type: ignore[list-item]


def test_targets_decorates_state_classes_only() -> None:
    with pytest.raises(st.DefinitionError, match="Plain is not one"):

        @targets(sibling="A")
        class Plain:
            pass
