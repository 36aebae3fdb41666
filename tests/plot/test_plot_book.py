"""Every book example plots: its machines are found, their SVGs parse and show every state.

The examples in examples/book/ are discovered, not listed, so new ones are covered as they
are written. A module names its machines with ``initial_states()``, or they are found from
its ``StateMachine(...)`` calls or, failing that, from the states no transition targets.
"""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from plot_samples import K, needs_graphviz

import statetree as st
from statetree.plot import plot_bytes, to_dot, to_mermaid
from statetree.structure import Structure, derive, find_initial_states

BOOK = Path(__file__).resolve().parents[2] / "examples" / "book"
EXAMPLES = sorted(BOOK.glob("*.py"))
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


Loader = Callable[[Path], ModuleType]


@pytest.fixture
def load() -> Iterator[Loader]:
    loaded: list[str] = []

    def import_example(path: Path) -> ModuleType:
        name = f"plot_book_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loaded.append(name)
        spec.loader.exec_module(module)
        return module

    yield import_example
    for name in loaded:
        sys.modules.pop(name, None)


def defines_states(module: ModuleType) -> bool:
    def nested(namespace: object) -> Iterator[object]:
        for value in vars(namespace).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                yield value
                yield from nested(value)

    return any(isinstance(v, type) and issubclass(v, st.State) for v in nested(module))


@needs_graphviz
@pytest.mark.parametrize("path", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_book_example_plots_to_an_svg_showing_every_state(path: Path, load: Loader) -> None:
    module = load(path)
    initial_states = find_initial_states(module)
    if not defines_states(module):
        # An example that only runs another one: nothing to plot, and nothing found.
        assert initial_states == ()
        return
    assert initial_states, f"{path.name}: no machine found"

    for initial in initial_states:
        structure = derive(initial)
        svg = ET.fromstring(plot_bytes(structure, "svg"))
        texts = "\n".join(element.text or "" for element in svg.iter(SVG_TEXT))
        for info in structure.states:
            assert f"{info.short_name} (" in texts or f"{info.name} (" in texts, info.name
        assert structure.validate().ok, str(structure.validate())


def edges_of(structure: Structure) -> set[tuple[str, str, K]]:
    return {(e.source, e.target, e.kind) for e in structure.edges}


def example(name: str, load: Loader) -> ModuleType:
    return load(BOOK / f"{name}.py")


def test_inner_entry_transition_has_the_books_edges(load: Loader) -> None:
    module = example("inner_entry_transition", load)
    (initial,) = find_initial_states(module)

    structure = derive(initial)

    assert edges_of(structure) == {
        ("MyStates.Alive", "MyStates.Dead", K.SIBLING),
        ("MyStates.Alive", "MyStates.Locomotion", K.INNER_ENTRY),
        ("MyStates.Locomotion", "MyStates.Stand", K.INNER_ENTRY),
        ("MyStates.Stand", "MyStates.Move", K.SIBLING),
        ("MyStates.Move", "MyStates.Stand", K.SIBLING),
    }
    assert [structure.depth(n) for n in structure.names] == [0, 0, 1, 2, 2]


def test_reusable_states_attach_the_queued_siblings_to_play_anim(load: Loader) -> None:
    module = example("reusable_states", load)
    (initial,) = find_initial_states(module)

    structure = derive(initial)

    assert edges_of(structure) == {
        ("CharacterStates.Alive", "CharacterStates.Stand", K.INNER_ENTRY),
        ("CharacterStates.Stand", "CharacterStates.Attack", K.SIBLING),
        ("CharacterStates.Attack", "CharacterStates.Stand", K.SIBLING),
        ("CharacterStates.Attack", "CharacterStates.PlayAnim", K.INNER_ENTRY),
        ("CharacterStates.PlayAnim", "CharacterStates.PlayAnim", K.SIBLING),
        ("CharacterStates.PlayAnim", "CharacterStates.PlayAnim_Done", K.SIBLING),
    }


def test_state_overrides_are_overridable_edges(load: Loader) -> None:
    module = example("state_overrides", load)
    (initial,) = find_initial_states(module)

    overridable = {(e.source, e.target) for e in derive(initial).edges if e.overridable}

    assert overridable == {
        ("CharacterStates.Stand", "CharacterStates.Attack"),
        ("CharacterStates.Stand", "CharacterStates.Jump"),
    }


def test_text_plots_of_every_example_are_deterministic(load: Loader) -> None:
    for path in EXAMPLES:
        for initial in find_initial_states(load(path)):
            structure = derive(initial)
            assert to_dot(structure) == to_dot(derive(initial))
            assert to_mermaid(structure) == to_mermaid(derive(initial))
