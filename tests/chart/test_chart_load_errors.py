"""Bad charts fail at load time with the file, line and path of each problem."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from chart_samples import GAME

from statetree.chart import ChartError, chart_structure, compile_chart, from_data, load, loads
from statetree.chart.loading import read_chart_file
from statetree.chart.parts import readers_named
from statetree.chart.policy import DEFINITIONS
from statetree.errors import DefinitionError, UsageError

GOOD = """\
name: Sample
root:
  name: Top
  states:
    - name: A
      transitions:
        - {on: {input: Go}, to: B}
    - name: B
"""


def problem(text: str, format: str = "yaml") -> ChartError:
    with pytest.raises(ChartError) as failure:
        loads(text, format, GAME, file=f"sample.{format}")  # type: ignore[arg-type]
    return failure.value


def test_the_good_sample_loads() -> None:
    assert loads(GOOD, "yaml", GAME).root.states[1].name == "B"


def test_a_chart_error_is_a_definition_error_with_structured_fields() -> None:
    error = problem(GOOD.replace("to: B", "to: C"))
    assert isinstance(error, DefinitionError)
    assert (error.file, error.line, error.path) == (
        "sample.yaml",
        7,
        "root.states[0].transitions[0].to",
    )
    assert error.message == (
        "unknown state 'C' in a transition of Top.A; it can go to its siblings: A, B"
    )
    assert str(error) == f"sample.yaml:7 at root.states[0].transitions[0].to: {error.message}"


NESTED = """\
name: Door
root:
  name: Door
  states:
    - name: Working
      states:
        - {name: Closed, transitions: [{on: {input: Kick}, to: TARGET}]}
        - {name: Opening}
    - name: Broken
"""


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "Broken",
            "'Broken' is not a sibling of Door.Working.Closed (it is Door.Broken): a transition "
            "goes to a sibling (Closed, Opening); write it on Door.Working, whose sibling "
            "Door.Broken is",
        ),
        (
            "Working",
            "'Working' is not a sibling of Door.Working.Closed (it is Door.Working): a "
            "transition goes to a sibling (Closed, Opening)",
        ),
        (
            "Door.Broken",
            "a transition goes to a sibling, named alone, got the path 'Door.Broken'; a "
            "transition out of a parent state is written on that parent",
        ),
    ],
)
def test_a_transition_to_a_state_that_is_no_sibling_says_where_it_belongs(
    target: str, message: str
) -> None:
    error = problem(NESTED.replace("TARGET", target))
    assert (error.line, error.path, error.message) == (
        7,
        "root.states[0].states[0].transitions[0].to",
        message,
    )


@pytest.mark.parametrize(
    ("old", "new", "line", "path", "message"),
    [
        (
            "{input: Go}",
            "{inptu: Go}",
            7,
            "root.states[0].transitions[0].on",
            "unknown trigger type 'inptu'; known: input, anim_finished, timer, event, held",
        ),
        (
            "{on: {input: Go}, to: B}",
            "{on: input Go, to: B}",
            7,
            "root.states[0].transitions[0].on",
            "a trigger is a mapping: write {input: Go}",
        ),
        (
            "        - {on: {input: Go}, to: B}\n",
            "        {on: {input: Go}, to: B}\n",
            6,  # the line of its key
            "root.states[0].transitions",
            "expected a list, got a mapping (a list of one: '- ' before it in YAML, [ ] around it)",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      enter: [play_sond: X]\n",
            9,
            "root.states[1].enter[0]",
            "unknown action type 'play_sond' (did you mean 'play_sound'?); known: start_timer, "
            "clear_history, raise, "
            "play_animation, play_sound, enable_damage_collision, disable_damage_collision",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      enter: [enable_damage_collision: {name: X, damage: high}]\n",
            9,
            "root.states[1].enter[0].enable_damage_collision.damage",
            "enable_damage_collision: 'damage' must be a number, got 'high'",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      enter: [play_animation: {name: X, lop: true}]\n",
            9,
            "root.states[1].enter[0].play_animation.lop",
            "play_animation(name: string, loop: boolean = False) has no parameter 'lop'",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      enter: [enable_damage_collision: {name: X}]\n",
            9,
            "root.states[1].enter[0]",
            "enable_damage_collision(name: string, damage: number) needs 'damage'",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      policy: sequential\n",
            9,
            "root.states[1].policy",
            "'B' is a sequential state with no children; give it 'states' or remove its policy",
        ),
        (
            "    - name: B\n",
            "    - name: B\n    - name: A\n",
            9,
            "root.states[2].name",
            "Top has two children named 'A'",
        ),
        (
            "  states:\n",
            "  policy: prio\n  states:\n",
            4,
            "root.policy",
            f"unknown policy 'prio'; use one of {', '.join(DEFINITIONS)}",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      colour: red\n",
            9,
            "root.states[1].colour",
            "unknown key 'colour'; expected name, policy, states, pre, post, enter, exit, "
            "transitions, use, with",
        ),
        (
            "    - name: B\n",
            "    - name: B\n      pre: {input: Go}\n",
            9,
            "root.states[1].pre",
            f"pre of Top.B would never be read: only a parent of policy {readers_named('pre')} "
            "reads them, and its parent's policy is explicit",
        ),
    ],
)
def test_each_problem_names_its_line_path_and_cause(
    old: str, new: str, line: int, path: str, message: str
) -> None:
    error = problem(GOOD.replace(old, new))
    assert (error.line, error.path, error.message) == (line, path, message)


PRIORITY = """\
name: Sample
root:
  name: Top
  policy: priority
  states:
    - name: Attack
      pre: {input: Attack}
    - name: Idle
      pre: {input: Rest}
"""


def test_a_priority_state_needs_a_ground_state() -> None:
    error = problem(PRIORITY)
    assert (error.line, error.path) == (9, "root.states[1].pre")
    assert error.message.startswith(
        "priority state Top has no ground state: its last child Idle has a pre-condition"
    )


def test_every_problem_is_listed_in_document_order() -> None:
    text = GOOD.replace("to: B", "to: C") + "    - name: A\n"
    error = problem(text)
    assert [(p.line, p.path) for p in error.problems] == [
        (7, "root.states[0].transitions[0].to"),
        (9, "root.states[2].name"),
    ]
    assert str(error).count("\n") == 1  # one line per problem


def test_the_shape_is_checked_before_the_meaning() -> None:
    # A document that is not shaped like a chart reports only its shape problems.
    text = GOOD.replace("to: B", "to: C").replace("- name: B", "- name: B\n      policy: odd")
    assert [p.path for p in problem(text).problems] == ["root.states[1].policy"]


def test_a_timer_trigger_needs_a_timer_of_that_name() -> None:
    error = problem(GOOD.replace("{input: Go}", "{timer: Pre}"))
    assert (
        error.message == "no start_timer action starts a timer named 'Pre' (timers started: none)"
    )


def test_yaml_syntax_errors_and_repeated_keys_name_the_line() -> None:
    assert problem("name: X\nroot: [unclosed\n").line == 3
    repeated = problem("name: X\nname: Y\nroot: {name: R}\n")
    assert (repeated.line, repeated.path) == (2, "name")
    assert repeated.message == "the key 'name' appears twice"


JSON = """{
  "name": "Sample",
  "root": {
    "name": "Top",
    "states": [
      {"name": "A", "transitions": [{"on": {"input": "Go"}, "to": "C"}]},
      {"name": "B"}
    ]
  }
}
"""


def test_json_problems_name_their_line() -> None:
    error = problem(JSON, "json")
    assert (error.file, error.line, error.path) == (
        "sample.json",
        6,
        "root.states[0].transitions[0].to",
    )
    assert problem('{"name": "X",\n "name": "Y", "root": {"name": "R"}}', "json").line == 2
    assert problem('{"name": "X",\n\n "root": }', "json").message.startswith("not valid JSON")


TOML = """\
name = "Sample"

[root]
name = "Top"

[[root.states]]
name = "A"
transitions = [
    { on = { input = "Go" }, to = "B" },
    { on = { input = "Back" }, to = "C" },
]

[[root.states]]
name = "B"
enter = [{ play_animation = { name = "B", loop = "yes" } }]
"""


def test_toml_problems_name_their_line() -> None:
    error = problem(TOML, "toml")
    assert [(p.line, p.path) for p in error.problems] == [
        (10, "root.states[0].transitions[1].to"),
        (15, "root.states[1].enter[0].play_animation.loop"),
    ]
    assert problem('name = "X"\nname = "Y"\n', "toml").line == 2


def test_a_file_is_named_in_errors_and_must_have_a_chart_extension(tmp_path: Path) -> None:
    chart = tmp_path / "hero.yaml"
    chart.write_text(GOOD.replace("to: B", "to: C"))
    with pytest.raises(ChartError) as failure:
        load(chart, GAME)
    assert failure.value.file == str(chart)
    with pytest.raises(ChartError, match="not a chart file"):
        load(tmp_path / "hero.txt")
    with pytest.raises(ChartError, match="cannot read"):
        load(tmp_path / "missing.json")


def test_the_document_must_be_a_chart() -> None:
    assert problem("- a list\n").message == "expected a mapping, got a list"
    missing = problem("name: X\n")
    assert missing.message == "missing key 'root'"
    assert problem("name: X\nversion: 2\nroot: {name: R}\n").path == "version"
    assert problem("name: 1X\nroot: {name: R}\n").message.startswith("a name must be")


@pytest.mark.parametrize("registry", [5, None, "DEFAULT_REGISTRY"])
def test_a_registry_that_is_not_one_is_refused_by_every_loader(registry: object) -> None:
    message = (
        "a chart's registry is a Registry, such as DEFAULT_REGISTRY.with_actions(...), "
        f"got {registry!r}"
    )
    for call in (
        lambda: loads("name: X\nroot: {name: R}\n", "yaml", registry),  # type: ignore[arg-type]
        lambda: from_data({"name": "X", "root": {"name": "R"}}, registry),  # type: ignore[arg-type]
    ):
        with pytest.raises(UsageError) as refused:
            call()
        assert str(refused.value) == message


def test_the_structure_of_something_else_than_a_chart_is_refused() -> None:
    compiled = compile_chart(from_data({"name": "X", "root": {"name": "R"}}))
    with pytest.raises(UsageError, match=r"^chart_structure\(\) takes a chart, got CompiledChart"):
        chart_structure(compiled)  # type: ignore[arg-type]
    assert [state.name for state in chart_structure(compiled.chart).states] == ["R"]


def finished_within(call: Callable[[], object], path: Path, seconds: float = 10.0) -> object:
    """What ``call`` raised or returned, if it finished within ``seconds``; a call blocked on
    the FIFO at ``path`` is let go (a writer opens and closes it) before the test fails."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except Exception as error:
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(seconds)
        raise AssertionError(f"reading {path.name} blocked")
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_a_chart_path_that_is_a_pipe_or_a_folder_is_refused_without_reading(
    tmp_path: Path,
) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    for path in (pipe, folder):
        for read in (load, read_chart_file):
            error = finished_within(functools.partial(read, path), pipe)
            assert isinstance(error, ChartError)
            assert str(error) == f"{path}: cannot read: not a regular file"


@pytest.mark.parametrize("delay", [10**400, -(10**400), 10**5000], ids=["401", "-401", "5001"])
def test_an_integer_too_large_for_a_number_is_a_chart_error(delay: int) -> None:
    data = {"name": "X", "root": {"name": "R"}}
    data["root"]["enter"] = [{"start_timer": {"name": "t", "delay": delay}}]  # type: ignore[index]

    with pytest.raises(ChartError) as refused:
        from_data(data)

    assert str(refused.value) == (
        "<data> at root.enter[0].start_timer.delay: a number of more than 100 digits; numbers "
        "are limited to 100 characters"  # as in a file
    )


def test_data_holding_itself_or_sharing_lists_without_end_is_refused() -> None:
    """Python data, unlike a file, may share or contain its own lists and mappings."""
    root: dict[str, object] = {"name": "Top"}
    root["states"] = [root]
    with pytest.raises(ChartError, match="nest more than 64 levels deep"):
        from_data({"name": "X", "root": root})
    shared: list[object] = []
    for _ in range(40):  # 2**40 values once unfolded, under the depth limit
        shared = [shared, shared]
    with pytest.raises(ChartError, match=r"holds more than 131,072 values"):
        from_data({"name": "X", "root": {"name": "Top", "states": shared}})
    idle = {"name": "Idle"}  # shared by two parents: fine, as if written out twice
    parents = [{"name": "A", "states": [idle]}, {"name": "B", "states": [idle]}]
    chart = from_data({"name": "X", "root": {"name": "Top", "states": parents}})
    assert [[s.name for s in p.states] for p in chart.root.states] == [["Idle"], ["Idle"]]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"version": True, "name": "X", "root": {"name": "R"}},
            "unsupported version (a boolean); this is version 1",
        ),
        (
            {"imports": [""], "name": "X", "root": {"name": "R"}},
            "an import is a chart file's path, relative to this file; got an empty string",
        ),
    ],
)
def test_a_value_of_the_wrong_kind_is_named_in_the_charts_words(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(ChartError) as refused:
        from_data(data)
    assert [problem.message for problem in refused.value.problems] == [message]


def test_a_character_yaml_does_not_take_is_named_at_its_line_and_column() -> None:
    with pytest.raises(ChartError) as refused:
        loads("name: X\nroot: {name: R\ufffe}\n", "yaml", file="odd.yaml")
    (problem,) = refused.value.problems
    assert (problem.file, problem.line) == ("odd.yaml", 2)
    # The reader's own words vary with its version: one line, then the column.
    assert problem.message.startswith("not valid YAML: unacceptable character #xfffe")
    assert problem.message.endswith(" (column 15)") and "\n" not in problem.message
