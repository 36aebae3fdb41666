"""Every policy, trigger type and built-in action is defined once, and every place that
needs one reads that definition: the loader, the structure, the machine, the JSON Schema,
the inspector's editor and the docs. The tests run over the definitions, so a new one is
checked by them as it is added."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chart_samples import ROOT
from policy_samples import child_data

from statetree._pyinstaller import get_hook_dirs
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    ChartError,
    ChartMachine,
    Event,
    Param,
    Registry,
    TriggerType,
    chart_structure,
    compile_chart,
    from_data,
    schema,
)
from statetree.chart import policy as policy_package
from statetree.chart.json_schema import generated, readers, render, schema_text
from statetree.chart.model import DEFAULT_POLICY
from statetree.chart.parts import READERS, placements
from statetree.chart.policy import DEFINITIONS, PARTS, Entry, PolicyDef, definition
from statetree.chart.registry import BUILTIN_ACTIONS, BUILTIN_TRIGGERS
from statetree.core.transition import TransitionKind
from statetree.errors import DefinitionError
from statetree.structure import EdgeRecorder

NAMES = ("A", "B", "C")


def sample(found: PolicyDef) -> dict[str, Any]:
    """A state ``Top`` of the policy with three children, each given every part the policy
    reads of it (see :func:`child_data`)."""
    children = [child_data(found, NAMES, index) for index in range(len(NAMES))]
    top = {"name": "Top", "policy": found.policy, "states": children}
    return {"name": "Sample", "root": top}


def drive(machine: ChartMachine) -> None:
    """Every input the sample charts respond to, child by child."""
    machine.start()
    for name in NAMES:
        machine.hold(Event("held", name))
        machine.release(Event("held", name))
        machine.send(Event("input", f"{name}Done"))
        machine.send(Event("input", f"To{name}"))


EACH = pytest.mark.parametrize("found", list(DEFINITIONS.values()), ids=lambda d: d.policy)


# -- policies -------------------------------------------------------------------------------


def test_every_module_of_the_policy_package_is_one_policy_named_as_it() -> None:
    folder = Path(policy_package.__file__).parent
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__", "definition"}
    assert set(DEFINITIONS) == modules
    assert all(definition(name).policy == name for name in modules)
    # The default first, then by name: the order of the schema, the editor and messages.
    assert list(DEFINITIONS) == [DEFAULT_POLICY, *sorted(modules - {DEFAULT_POLICY})]


@EACH
def test_a_child_lacking_a_part_its_policy_needs_is_refused(found: PolicyDef) -> None:
    for part, why in found.needs:
        data = sample(found)
        del data["root"]["states"][1][part]
        with pytest.raises(ChartError) as caught:
            from_data(data)
        assert [(p.path, p.message) for p in caught.value.problems] == [
            ("root.states[1]", f"Top.B has no {part}-condition, {why.format(path='Top')}")
        ]
    last = sample(found)
    for part, _ in found.needs:  # the last child may lack it
        last["root"]["states"][-1].pop(part, None)
    from_data(last)


@EACH
def test_a_state_holds_the_child_its_definition_enters(found: PolicyDef) -> None:
    machine = ChartMachine(from_data(sample(found)))
    machine.start()
    held = {
        Entry.FIRST: ("Top.A",),
        Entry.GROUND: ("Top.C",),  # no pre-condition holds: the ground
        Entry.EVERY: ("Top.A", "Top.B", "Top.C"),
    }[found.entry]
    assert machine.active == ("Top", *held)


@EACH
def test_the_structure_predicts_every_move_the_machine_makes(found: PolicyDef) -> None:
    chart = from_data(sample(found))
    machine = ChartMachine(chart)
    recorder = EdgeRecorder.attach(machine.machine)
    drive(machine)
    # A child resumed or chosen again is reached by another kind of push than the edge that
    # first reached it (an entry from history, an inner to the ground): compare the moves.
    taken = {(edge.source, edge.target) for edge in recorder.edges}
    predicted = {(edge.source, edge.target) for edge in chart_structure(chart).edges}
    assert taken <= predicted
    assert {move for move in predicted if move[0] == "Top"} <= taken


@EACH
def test_the_structure_holds_the_entry_edge_of_the_definition(found: PolicyDef) -> None:
    edges = [e for e in chart_structure(from_data(sample(found))).edges if e.source == "Top"]
    order = [NAMES.index(e.target.removeprefix("Top.")) for e in edges]
    assert order == sorted(order)  # in the order of the children
    entries = [(e.target, e.kind) for e in edges if e.kind is not TransitionKind.INNER]
    assert (
        entries
        == {
            Entry.FIRST: [("Top.A", TransitionKind.INNER_ENTRY)],
            Entry.GROUND: [("Top.C", TransitionKind.INNER_ENTRY)],
            Entry.EVERY: [(f"Top.{n}", TransitionKind.CONCURRENT) for n in NAMES],
        }[found.entry]
    )


@EACH
def test_the_compiled_state_runs_the_definition_s_methods(found: PolicyDef) -> None:
    data = sample(found)
    top = compile_chart(from_data(data)).root
    assert top.transition is found.run
    data["root"]["transitions"] = [{"on": {"input": "Never"}, "to": "Top"}]
    wrapped = {"name": "Sample", "root": {"name": "Outer", "states": [data["root"]]}}
    top = compile_chart(from_data(wrapped)).by_path["Outer.Top"]
    assert top.transition is found.fire_then_run


@EACH
def test_a_child_may_have_exactly_the_parts_its_definition_reads(found: PolicyDef) -> None:
    offered = placements(from_data(sample(found)))
    for index, name in enumerate(NAMES):
        read = found.parts_read(index, len(NAMES))
        assert offered[f"Top.{name}"] == read
        for part in PARTS:
            data = sample(found)
            child = data["root"]["states"][index]
            if part in child:
                continue
            child[part] = [{"on": "Go", "to": name}] if part == "transitions" else "Go"
            if part in read:
                from_data(data)  # loads
            elif part in found.reads:  # a ground state's: see the next test
                with pytest.raises(ChartError):
                    from_data(data)
            else:
                with pytest.raises(ChartError, match=f"{part} of Top.{name} would never be read"):
                    from_data(data)


def test_a_ground_state_is_neither_chosen_nor_left_by_a_condition() -> None:
    grounded = [found for found in DEFINITIONS.values() if found.entry is Entry.GROUND]
    for found in grounded:
        assert found.parts_read(2, 3) == tuple(p for p in found.reads if p not in ("pre", "post"))
        data = sample(found)
        data["root"]["states"][2] |= {"pre": "Go", "post": "Done"}
        with pytest.raises(ChartError) as caught:
            from_data(data)
        assert [p.message for p in caught.value.problems] == [
            f"{found.policy} state Top has no ground state: its last child C has a "
            "pre-condition; add a last child without one, chosen when no other is",
            "the ground state Top.C cannot have a post-condition: it is where Top rests "
            "when no other child's pre-condition holds",
        ]


def test_the_readers_of_each_part_are_the_definitions() -> None:
    assert {part: set(found) for part, found in READERS.items()} == {
        part: {p for p, found in DEFINITIONS.items() if part in found.reads} for part in PARTS
    }


# -- the JSON Schema and the docs ---------------------------------------------------------


def test_the_schema_says_what_the_definitions_say() -> None:
    # The schema is a file other tools read without Python: generated from the definitions
    # by `make schema`, and checked here to be current.
    assert render(generated(schema())) + "\n" == schema_text(), "run make schema"
    state = schema()["$defs"]["state"]["properties"]
    assert state["policy"]["enum"] == list(DEFINITIONS)
    for name, found in DEFINITIONS.items():
        assert f"{name}: {found.summary}" in state["policy"]["description"]
    for part in PARTS:
        assert readers(part) in state[part]["description"]


CHARTS_PAGE = (ROOT / "docs" / "charts.md").read_text()


def _row(page: str, key: str) -> str:
    found = re.search(rf"^\| `{key}` \| .*$", page, flags=re.MULTILINE)
    assert found is not None, key
    return found.group(0)


def test_the_format_reference_says_what_the_definitions_say() -> None:
    names = [f"`{policy}`" for policy in DEFINITIONS]
    listed = ", ".join(names[:-1]) + f" or {names[-1]}"
    assert f"| no | {listed}; a state with children and no policy is `{DEFAULT_POLICY}`" in (
        _row(CHARTS_PAGE, "policy")
    )
    for part in PARTS:
        assert f"Read by {readers(part)} |" in _row(CHARTS_PAGE, part), part


def test_the_contributors_guide_lists_every_policy_module() -> None:
    guide = (ROOT / "docs" / "contributing-charts.md").read_text()
    for policy in DEFINITIONS:
        assert f"chart/policy/{policy}.py`" in guide


# -- trigger types and built-in actions ---------------------------------------------------


def _arguments(action: ActionType) -> dict[str, Any]:
    samples: dict[type, Any] = {str: "X", float: 0.0, int: 0, bool: False}
    return {param.name: samples[param.type] for param in action.params}


@pytest.mark.parametrize("action", BUILTIN_ACTIONS, ids=lambda a: a.name)
def test_every_built_in_action_runs_without_a_handler_and_makes_its_events(
    action: ActionType,
) -> None:
    # A state performing the action; a sibling reached by the event it makes, if any.
    performing: dict[str, Any] = {"name": "Acting", "enter": [{action.name: _arguments(action)}]}
    if action.makes is not None:
        performing["transitions"] = [{"on": {action.makes: "X"}, "to": "Done"}]
    data = {"name": "Acts", "root": {"name": "Top", "states": [performing, {"name": "Done"}]}}
    machine = ChartMachine(from_data(data))
    made: list[Event] = []
    machine.add_event_listener(made.append)
    machine.start()
    machine.tick(0.0)
    expected = "Top.Acting" if action.makes is None else "Top.Done"
    assert machine.active == ("Top", expected)
    assert made == ([] if action.makes is None else [Event(action.makes, "X")])


def test_the_loader_and_the_palette_find_the_events_actions_make() -> None:
    from statetree.inspect.chart_adapter import palette

    makers = [action for action in BUILTIN_ACTIONS if action.makes is not None]
    enter = [{action.name: _arguments(action) | {"name": action.name}} for action in makers]
    data = {"name": "Makes", "root": {"name": "Top", "enter": enter}}
    chart = from_data(data)
    assert [(t.type, t.name) for t in palette(chart)] == sorted(
        ((a.makes, a.name) for a in makers),
        key=lambda made: list(DEFAULT_REGISTRY.triggers).index(made[0]),
    )


def test_only_a_built_in_action_makes_events() -> None:
    with pytest.raises(DefinitionError) as caught:
        ActionType("ring", (Param("name"),), makes="timer")
    assert str(caught.value) == (
        "action type ring(name: string) cannot make timer events: only the chart runtime's "
        "built-in actions make events (a handler sends them instead)"
    )


@pytest.mark.parametrize(
    ("declare", "message"),
    [
        (
            lambda: ActionType("play", (Param("name"))),  # the tuple's comma left out
            "action type 'play': params are a tuple of Param, such as (Param('name'),), got "
            f"{Param('name')!r} (a tuple of one needs its comma)",
        ),
        (
            lambda: ActionType("play", "name"),
            "action type 'play': params are a tuple of Param, such as (Param('name'),), got 'name'",
        ),
        (lambda: ActionType(""), "an action type's name is a non-empty string, got ''"),
        (
            lambda: DEFAULT_REGISTRY.with_actions("play"),
            "a registry's action types are ActionType objects, such as ActionType('play'), "
            "got 'play'",
        ),
        (
            lambda: DEFAULT_REGISTRY.with_triggers("landed"),
            "a registry's trigger types are TriggerType objects, such as "
            "TriggerType('landed'), got 'landed'",
        ),
        (
            lambda: TriggerType("landed", level="yes"),
            "trigger type 'landed': level is True or False, got 'yes'",
        ),
        (lambda: Param(3), "a parameter's name is a non-empty string, got 3"),
        (
            lambda: Param("text", str, minimum=0),
            "parameter 'text': a minimum is a finite number, for an int or float parameter "
            "only, got 0 for a string",
        ),
        (
            lambda: Param("count", int, minimum=True),
            "parameter 'count': a minimum is a finite number, for an int or float parameter "
            "only, got True for an integer",
        ),
        (
            lambda: Param("style", choices="hold"),
            "parameter 'style': choices are a tuple of values, got 'hold'",
        ),
    ],
)
def test_a_malformed_declaration_is_refused_where_it_is_made(
    declare: Callable[[], object], message: str
) -> None:
    before = dict(DEFAULT_REGISTRY.actions), dict(DEFAULT_REGISTRY.triggers)
    with pytest.raises(DefinitionError) as caught:
        declare()
    assert str(caught.value) == message
    assert (dict(DEFAULT_REGISTRY.actions), dict(DEFAULT_REGISTRY.triggers)) == before


@pytest.mark.parametrize("trigger", BUILTIN_TRIGGERS, ids=lambda t: t.name)
def test_every_built_in_trigger_fires_on_its_event(trigger: Any) -> None:
    data = {
        "name": "Fires",
        "root": {
            "name": "Top",
            "states": [
                {"name": "Waiting", "transitions": [{"on": {trigger.name: "X"}, "to": "Done"}]},
                {"name": "Done"},
            ],
        },
    }
    if trigger.name == "timer":  # a timer trigger names a timer the chart starts
        data["root"]["states"][0]["enter"] = [{"start_timer": {"name": "X", "delay": 9}}]
    machine = ChartMachine(from_data(data))
    machine.start()
    assert machine.active == ("Top", "Top.Waiting")
    if trigger.level:
        machine.hold(Event(trigger.name, "X"))
    else:
        machine.send(Event(trigger.name, "X"))
    assert machine.active == ("Top", "Top.Done")


def _first_column(page: str, heading: str) -> list[str]:
    table = page[page.index(heading) :].split("\n\n")[1]
    return re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE)


def test_the_docs_list_the_built_in_triggers_and_actions() -> None:
    actions = (ROOT / "docs" / "chart-actions.md").read_text()
    events = (ROOT / "docs" / "chart-events.md").read_text()
    documented = _first_column(actions, "## Built-in actions")
    assert sorted(documented) == sorted(a.name for a in BUILTIN_ACTIONS)
    documented = _first_column(events, "The built-in trigger types are")
    assert sorted(documented) == sorted(t.name for t in BUILTIN_TRIGGERS)


def test_a_timer_trigger_names_a_timer_that_an_action_of_the_registry_starts() -> None:
    data = {
        "name": "Waits",
        "root": {
            "name": "Top",
            "states": [
                {"name": "A", "transitions": [{"on": {"timer": "T"}, "to": "B"}]},
                {"name": "B"},
            ],
        },
    }
    for registry, makers in (
        (DEFAULT_REGISTRY, "start_timer "),
        (Registry.of(BUILTIN_TRIGGERS), ""),
    ):
        with pytest.raises(ChartError) as caught:
            from_data(data, registry)
        assert [p.message for p in caught.value.problems] == [
            f"no {makers}action starts a timer named 'T' (timers started: none)"
        ]


def test_a_policy_package_without_modules_says_what_a_frozen_program_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A frozen program whose tool saw no import of the policy modules finds none of them.
    monkeypatch.setattr(policy_package.pkgutil, "iter_modules", lambda path: iter(()))
    with pytest.raises(ImportError) as refused:
        policy_package._discover()
    assert str(refused.value) == (
        "statetree.chart.policy holds no policy module: a frozen program must take every "
        "module of it (statetree's PyInstaller hook does; with another tool, include the "
        "package statetree.chart.policy whole)"
    )


def test_the_pyinstaller_hook_takes_every_policy_module() -> None:
    (folder,) = map(Path, get_hook_dirs())
    hook = folder / "hook-statetree.chart.policy.py"
    assert 'collect_submodules("statetree.chart.policy")' in hook.read_text()
    entry = 'hook-dirs = "statetree._pyinstaller:get_hook_dirs"'
    assert f"[project.entry-points.pyinstaller40]\n{entry}" in (ROOT / "pyproject.toml").read_text()
