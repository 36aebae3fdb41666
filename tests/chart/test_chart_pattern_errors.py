"""Every mistake with patterns is a ChartError naming its file and line, and the uses it
came through; nothing of the chart is loaded."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from statetree.chart import ChartError, Problem, load, loads
from statetree.chart.expand import MAX_EXPANDED_SIZE
from statetree.chart.text import MAX_DEPTH

STEP = """\
name: Hero
patterns:
  Step:
    params:
      timer: string
      delay: {type: number, minimum: 0}
    enter: [{start_timer: {name: $timer, delay: $delay}}]
    states:
      - name: Wait
        transitions: [{on: {timer: Go}, to: Done}]
      - name: Done
root:
  name: Top
  states:
"""
"""A chart whose pattern Step is used below ``states:`` (line 14), at line 15 and on."""


def refused(folder: Path, files: dict[str, str], main: str = "hero.yaml") -> ChartError:
    """The error of loading ``main`` among ``files`` (written under ``folder`` first)."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    with pytest.raises(ChartError) as failure:
        load(folder / main)
    return failure.value


def shown(folder: Path, problem: Problem) -> tuple[object, ...]:
    """A problem as ``(file, line, path, message, uses)``, files relative to ``folder``."""

    def relative(file: str) -> str:
        return str(Path(file).relative_to(folder)) if file.startswith(str(folder)) else file

    uses = tuple((use.pattern, relative(use.file), use.line) for use in problem.uses)
    message = problem.message.replace(f"{folder}/", "")
    return relative(problem.file), problem.line, problem.path, message, uses


def use_of_step(arguments: str) -> dict[str, str]:
    return {"hero.yaml": STEP + f"    - {{name: Go, use: Step, with: {arguments}}}\n"}


CASES: dict[str, tuple[dict[str, str], tuple[object, ...]]] = {
    "unknown pattern": (
        {"hero.yaml": STEP + "    - {name: Go, use: Stpe}\n"},
        (
            "hero.yaml",
            15,
            "root.states[0].use",
            "unknown pattern 'Stpe'; the patterns hero.yaml can use: Step",
            (),
        ),
    ),
    "missing argument": (
        use_of_step("{timer: Go}"),
        (
            "hero.yaml",
            15,
            "root.states[0]",
            "Step(timer: string, delay: number) needs 'delay' under 'with'",
            (),
        ),
    ),
    "extra argument": (
        use_of_step("{timer: Go, delay: 1, speed: 2}"),
        (
            "hero.yaml",
            15,
            "root.states[0].with.speed",
            "Step(timer: string, delay: number) has no parameter 'speed'",
            (),
        ),
    ),
    "wrong type": (
        use_of_step("{timer: Go, delay: soon}"),
        (
            "hero.yaml",
            15,
            "root.states[0].with.delay",
            "Step: 'delay' must be a number, got 'soon' (declared at hero.yaml:6)",
            (),
        ),
    ),
    "below the minimum": (
        use_of_step("{timer: Go, delay: -1}"),
        (
            "hero.yaml",
            15,
            "root.states[0].with.delay",
            "Step: 'delay' must be at least 0, got -1 (declared at hero.yaml:6)",
            (),
        ),
    ),
    "argument not a value": (
        use_of_step("{timer: [Go], delay: 1}"),
        (
            "hero.yaml",
            15,
            "root.states[0].with.timer",
            "Step: 'timer' got a list (declared at hero.yaml:5)",
            (),
        ),
    ),
    "arguments not a mapping": (
        use_of_step("[Go, 1]"),
        (
            "hero.yaml",
            15,
            "root.states[0].with",
            "'with' maps the parameters of Step(timer: string, delay: number) to values; got "
            "a list",
            (),
        ),
    ),
    "use not a name": (
        {"hero.yaml": STEP + "    - {name: Go, use: 5}\n"},
        ("hero.yaml", 15, "root.states[0].use", "'use' names a pattern, got an integer", ()),
    ),
    "a key the pattern sets": (
        {
            "hero.yaml": STEP + "    - {name: Go, use: Step, with: {timer: Go, delay: 1},"
            " enter: [clear_history]}\n"
        },
        (
            "hero.yaml",
            15,
            "root.states[0].enter",
            "a use takes its 'enter' from its pattern: change the pattern, or detach this use "
            "into plain states",
            (),
        ),
    ),
    "an unknown key at a use": (
        {"hero.yaml": STEP + "    - {name: Go, use: Step, colour: red}\n"},
        (
            "hero.yaml",
            15,
            "root.states[0].colour",
            "unknown key 'colour'; a use has name, use, with, pre, post, transitions",
            (),
        ),
    ),
    "arguments without a use": (
        {"hero.yaml": STEP + "    - {name: Go, with: {timer: Go}}\n"},
        (
            "hero.yaml",
            15,
            "root.states[0].with",
            "'with' gives the arguments of a use: add 'use: PATTERN', or remove it",
            (),
        ),
    ),
    "the expanded value is wrong inside the pattern": (
        use_of_step("{timer: Later, delay: 1}"),
        (
            "hero.yaml",
            10,
            "patterns.Step.states[0].transitions[0].on",
            "no start_timer action starts a timer named 'Go' (timers started: Later)",
            (("Step", "hero.yaml", 15),),
        ),
    ),
    "a value that is no name once expanded": (
        {
            "hero.yaml": "name: H\npatterns:\n  Box:\n    params: {inside: string}\n"
            "    states:\n      - name: $inside\nroot:\n  name: Top\n  states:\n"
            "    - {name: B, use: Box, with: {inside: 'a b'}}\n"
        },
        (
            "hero.yaml",
            6,
            "patterns.Box.states[0].name",
            "a name must be ASCII letters, digits and _, not starting with a digit, got 'a b'",
            (("Box", "hero.yaml", 10),),
        ),
    ),
    "a pattern that uses itself": (
        {
            "hero.yaml": "name: H\npatterns:\n  Loop:\n    states:\n"
            "      - {name: Again, use: Loop}\nroot: {name: Top, states: [{use: Loop}]}\n"
        },
        (
            "hero.yaml",
            5,
            "patterns.Loop.states[0].use",
            "the pattern Loop uses itself: Loop -> Loop",
            (("Loop", "hero.yaml", 6),),
        ),
    ),
    "patterns that use each other": (
        {
            "hero.yaml": "name: H\npatterns:\n  A:\n    states: [{name: X, use: B}]\n"
            "  B:\n    states: [{name: Y, use: A}]\nroot: {name: Top, states: [{use: A}]}\n"
        },
        (
            "hero.yaml",
            6,
            "patterns.B.states[0].use",
            "the pattern A uses itself: A -> B -> A",
            (("B", "hero.yaml", 4), ("A", "hero.yaml", 7)),
        ),
    ),
    "a reference to no parameter": (
        {"hero.yaml": STEP.replace("delay: $delay", "delay: $dealy") + "    - {name: Go}\n"},
        (
            "hero.yaml",
            7,
            "patterns.Step.enter[0].start_timer.delay",
            "no parameter 'dealy' (parameters: delay, timer)",
            (),
        ),
    ),
    "a dollar that starts no reference": (
        {"hero.yaml": STEP.replace("$timer", "cost $5") + "    - {name: Go}\n"},
        (
            "hero.yaml",
            7,
            "patterns.Step.enter[0].start_timer.name",
            "'cost $5': a $ starts a parameter ($name or ${name}); write $$ for a dollar sign",
            (),
        ),
    ),
    "a parameter for a key": (
        {"hero.yaml": STEP.replace("{start_timer:", "{$kind:") + "    - {name: Go}\n"},
        (
            "hero.yaml",
            7,
            "patterns.Step.enter[0].$kind",
            "a parameter stands for a value, never for a key: '$kind'",
            (),
        ),
    ),
    "an unknown parameter type": (
        {"hero.yaml": STEP.replace("timer: string", "timer: text") + "    - {name: Go}\n"},
        (
            "hero.yaml",
            5,
            "patterns.Step.params.timer",
            "a parameter's type is one of string, integer, number, boolean; got 'text'",
            (),
        ),
    ),
    "a default of the wrong type": (
        {
            "hero.yaml": STEP.replace("minimum: 0}", "minimum: 0, default: soon}")
            + "    - {name: Go}\n"
        },
        (
            "hero.yaml",
            6,
            "patterns.Step.params.delay.default",
            "the default of 'delay' must be a number, got 'soon'",
            (),
        ),
    ),
    "a minimum for a text": (
        {
            "hero.yaml": STEP.replace("timer: string", "timer: {type: string, minimum: 1}")
            + "    - {name: Go}\n"
        },
        (
            "hero.yaml",
            5,
            "patterns.Step.params.timer.minimum",
            "only an integer or number parameter has a minimum, a number",
            (),
        ),
    ),
    "empty choices": (
        {
            "hero.yaml": STEP.replace("timer: string", "timer: {type: string, choices: []}")
            + "    - {name: Go}\n"
        },
        (
            "hero.yaml",
            5,
            "patterns.Step.params.timer",
            "parameter 'timer': choices cannot be empty",
            (),
        ),
    ),
    "a named pattern": (
        {
            "hero.yaml": STEP.replace("  Step:\n", "  Step:\n    name: Step\n")
            + "    - {name: Go}\n"
        },
        (
            "hero.yaml",
            4,
            "patterns.Step.name",
            "a pattern's state takes its name from each use: remove 'name'",
            (),
        ),
    ),
    "a pattern name that is no name": (
        {"hero.yaml": STEP.replace("  Step:\n", "  1Step:\n") + "    - {name: Go}\n"},
        (
            "hero.yaml",
            3,
            "patterns.1Step",
            "a name must be ASCII letters, digits and _, not starting with a digit, got '1Step'",
            (),
        ),
    ),
    "patterns that are no mapping": (
        {"hero.yaml": "name: H\npatterns: [A]\nroot: {name: Top}\n"},
        (
            "hero.yaml",
            2,
            "patterns",
            "'patterns' maps each pattern's name to its state (without a name) and its params; "
            "got a list",
            (),
        ),
    ),
    "imports that are no list": (
        {"hero.yaml": "name: H\nimports: lib.yaml\nroot: {name: Top}\n"},
        ("hero.yaml", 2, "imports", "'imports' is a list of chart files, got a string", ()),
    ),
    "an import cycle": (
        {
            "hero.yaml": "name: H\nimports: [lib/a.yaml]\nroot: {name: Top}\n",
            "lib/a.yaml": "imports: [b.yaml]\npatterns: {A: {}}\n",
            "lib/b.yaml": "imports: [../hero.yaml]\npatterns: {B: {}}\n",
        },
        (
            "lib/b.yaml",
            1,
            "imports[0]",
            "import cycle: hero.yaml -> lib/a.yaml -> lib/b.yaml -> hero.yaml",
            (),
        ),
    ),
    "an import outside the folder tree": (
        {
            "game/hero.yaml": "name: H\nimports: [../shared.yaml]\nroot: {name: Top}\n",
            "shared.yaml": "patterns: {A: {}}\n",
        },
        (
            "game/hero.yaml",
            2,
            "imports[0]",
            "'../shared.yaml' is outside the chart's folder tree: a chart imports only files in "
            "its own folder and the folders below it",
            (),
        ),
    ),
    "an absolute import": (
        {"hero.yaml": "name: H\nimports: [/etc/passwd.yaml]\nroot: {name: Top}\n"},
        (
            "hero.yaml",
            2,
            "imports[0]",
            "'/etc/passwd.yaml': an import is a path relative to the importing file",
            (),
        ),
    ),
    "a missing import": (
        {"hero.yaml": "name: H\nimports: [lib.yaml]\nroot: {name: Top}\n"},
        (
            "hero.yaml",
            2,
            "imports[0]",
            f"cannot import 'lib.yaml': cannot read: {os.strerror(errno.ENOENT)}",
            (),
        ),
    ),
    "an import that is no chart file": (
        {"hero.yaml": "name: H\nimports: [notes.txt]\nroot: {name: Top}\n", "notes.txt": ""},
        (
            "hero.yaml",
            2,
            "imports[0]",
            "cannot import 'notes.txt': not a chart file: use one of .yaml, .yml, .toml, .json",
            (),
        ),
    ),
    "a pattern two imports define": (
        {
            "hero.yaml": "name: H\nimports: [a.yaml, b.yaml]\nroot: {name: Top}\n",
            "a.yaml": "patterns: {Hit: {}}\n",
            "b.yaml": "patterns: {Hit: {}}\n",
        },
        (
            "hero.yaml",
            2,
            "imports[1]",
            "'b.yaml' defines the pattern 'Hit', and so does a.yaml: rename one of them",
            (),
        ),
    ),
    "a broken imported file": (
        {
            "hero.yaml": "name: H\nimports: [lib.yaml]\nroot: {name: Top}\n",
            "lib.yaml": "patterns:\n  Hit: {enter: [}\n",
        },
        ("lib.yaml", 2, "", "...", ()),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_each_mistake_names_its_file_line_and_uses(tmp_path: Path, name: str) -> None:
    files, expected = CASES[name]
    main = next(file for file in files if file.endswith("hero.yaml"))
    error = refused(tmp_path, files, main)
    found = shown(tmp_path, error.problems[0])
    if expected[3] == "...":  # a message of the reader or the validator, said elsewhere
        found = (*found[:3], "...", found[4])
    assert found == expected
    assert (error.file, error.line) == (error.problems[0].file, error.problems[0].line)
    assert str(error).startswith(f"{error.problems[0].file}:{error.problems[0].line}")


def test_a_problem_inside_a_pattern_says_both_where_it_is_and_where_it_was_used(
    tmp_path: Path,
) -> None:
    files = {
        "hero.yaml": "name: H\nimports: [lib/moves.yaml]\nroot:\n  name: Top\n  states:\n"
        "    - {name: Struck, use: Hit, with: {colour: Red}}\n",
        "lib/moves.yaml": "patterns:\n  Flash:\n    params: {colour: string}\n"
        "    enter: [{raise: {name: $colour, loud: true}}]\n"
        "  Hit:\n    params: {colour: string}\n    states:\n"
        "      - {name: Shown, use: Flash, with: {colour: $colour}}\n",
    }
    error = refused(tmp_path, files)
    assert [shown(tmp_path, problem) for problem in error.problems] == [
        (
            "lib/moves.yaml",
            4,
            "patterns.Flash.enter[0].raise.loud",
            "raise(name: string) has no parameter 'loud'",
            (("Flash", "lib/moves.yaml", 8), ("Hit", "hero.yaml", 6)),
        ),
    ]
    lib, hero = tmp_path / "lib" / "moves.yaml", tmp_path / "hero.yaml"
    assert str(error) == (
        f"{lib}:4 at patterns.Flash.enter[0].raise.loud: raise(name: string) has no parameter "
        f"'loud' (in Flash, used at {lib}:8; in Hit, used at {hero}:6)"
    )


def test_every_use_of_a_wrong_pattern_is_reported(tmp_path: Path) -> None:
    text = STEP + "".join(
        f"    - {{name: S{n}, use: Step, with: {{timer: T{n}, delay: 1}}}}\n" for n in range(3)
    )
    error = refused(tmp_path, {"hero.yaml": text})
    assert [(p.line, [u.line for u in p.uses]) for p in error.problems] == [
        (10, [15]),
        (10, [16]),
        (10, [17]),
    ]


def chained(levels: int, uses: int) -> dict[str, str]:
    """A chart whose pattern P{n} uses P{n-1} ``uses`` times, ``levels`` deep, used once."""

    def states(below: int) -> str:
        return ", ".join(f"{{name: S{i}, use: P{below}}}" for i in range(uses))

    patterns = "".join(f"  P{n}:\n    states: [{states(n - 1)}]\n" for n in range(1, levels))
    top = f"root: {{name: Top, states: [{{use: P{levels - 1}}}]}}\n"
    return {"hero.yaml": f"name: H\npatterns:\n  P0: {{enter: [clear_history]}}\n{patterns}{top}"}


def test_uses_that_multiply_past_the_limit_are_refused(tmp_path: Path) -> None:
    error = refused(tmp_path, chained(20, 2))  # each level doubles: 2 ** 20 states
    assert len(error.problems) == 1
    assert error.message == (
        f"the uses of patterns expand into more than {MAX_EXPANDED_SIZE:,} values (a pattern "
        "used several times inside another multiplies its size)"
    )
    assert error.problems[0].uses  # found deep inside, named with every use above it


def test_uses_nested_past_the_depth_limit_are_refused(tmp_path: Path) -> None:
    error = refused(tmp_path, chained(MAX_DEPTH, 1))
    assert error.message == f"patterns used inside patterns nest more than {MAX_DEPTH} levels deep"


def test_uses_past_both_limits_are_each_said_once(tmp_path: Path) -> None:
    # Doubling 70 levels deep: thousands of uses pass the depth limit before the size one.
    error = refused(tmp_path, chained(MAX_DEPTH + 6, 2))
    assert sorted(problem.message.split(" (")[0] for problem in error.problems) == [
        f"patterns used inside patterns nest more than {MAX_DEPTH} levels deep",
        f"the uses of patterns expand into more than {MAX_EXPANDED_SIZE:,} values",
    ]


def test_text_without_a_file_imports_from_the_current_folder_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("lib.yaml").write_text("patterns: {Clear: {enter: [clear_history]}}\n")
    chart = loads("name: H\nimports: [lib.yaml]\nroot: {name: Top, use: Clear}\n", "yaml")
    assert (chart.root.name, str(chart.root.enter[0])) == ("Top", "clear_history()")
    with pytest.raises(ChartError, match="outside the chart's folder tree"):
        loads("name: H\nimports: [../lib.yaml]\nroot: {name: Top}\n", "yaml")


@pytest.mark.parametrize(("count", "loads_"), [(64, True), (65, False), (400, False)])
def test_a_chain_of_imports_counts_toward_the_file_limit(
    tmp_path: Path, count: int, loads_: bool
) -> None:
    """Each file imports the next: the count is of files begun, so a chain cannot pass the
    limit (nor the interpreter's recursion limit)."""
    for i in range(count):
        imports = f"imports: [lib{i - 1}.yaml]\n" if i else ""
        (tmp_path / f"lib{i}.yaml").write_text(f"{imports}patterns:\n  P{i}:\n    enter: []\n")
    main = tmp_path / "main.yaml"
    last = count - 1
    main.write_text(f"name: M\nimports: [lib{last}.yaml]\nroot: {{name: R, use: P{last}}}\n")
    if loads_:
        assert len(load(main).origin.files) == count + 1
        return
    with pytest.raises(ChartError) as caught:
        load(main)
    assert "a chart reads at most 64 files" in str(caught.value)
