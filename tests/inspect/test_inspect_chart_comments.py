"""Random edit sequences on commented YAML charts: every comment stays with its state, and
undoing them all gives back each earlier file, byte for byte.

Each state of a generated chart has a comment line above it (``# c<id>``) and one at the end
of its name line (``# e<id>``), and one above its enter actions (``# a<id>``) if it has some;
a model follows each state's path through the edits (a rename changes it, a removal drops
the state and those inside it) and which states still have their actions' comment (removing
the actions removes it).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from budget import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from statetree.chart import ChartError, ChartMachine, load
from statetree.inspect import ChartFile, EditableChartAdapter, InspectError

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")


@dataclass
class Node:
    """A state of the generated chart."""

    ident: int
    children: list[Node] = field(default_factory=list)
    actions: bool = False
    transition: bool = False  # to its next sibling, if it has one


@st.composite
def trees(draw: st.DrawFn, depth: int = 0, counter: list[int] | None = None) -> Node:
    counter = counter if counter is not None else [0]
    node = Node(counter[0], actions=draw(st.booleans()), transition=draw(st.booleans()))
    counter[0] += 1
    if depth < 2:
        for _ in range(draw(st.integers(2, 3) if depth == 0 else st.integers(0, 2))):
            node.children.append(draw(trees(depth + 1, counter)))
    return node


@dataclass(frozen=True)
class Style:
    offset: int  # the dash's indent under its key
    blank: bool  # a blank line above each state's comment
    flow: bool  # transitions as flow mappings
    crlf: bool


def render(root: Node, style: Style) -> str:
    lines = ["# c0 the chart", "version: 1", "name: Chart", "root:"]
    lines += state_lines(root, 2, style, None)
    lines.append("# the end")
    newline = "\r\n" if style.crlf else "\n"
    return newline.join(lines) + newline


def state_lines(node: Node, indent: int, style: Style, after: Node | None) -> list[str]:
    pad = " " * indent
    lines = [f"{pad}name: S{node.ident}  # e{node.ident}"]
    if node.actions:
        lines += [f"{pad}# a{node.ident}", f"{pad}enter: [{{raise: {{name: E{node.ident}}}}}]"]
    if node.transition and after is not None:
        item = " " * (indent + style.offset)
        if style.flow:
            transition = [f"{item}- {{on: {{input: Go}}, to: S{after.ident}}}"]
        else:
            transition = [f"{item}- on: {{input: Go}}", f"{item}  to: S{after.ident}"]
        lines += [f"{pad}transitions:", *transition]
    if node.children:
        lines.append(f"{pad}states:")
        item = " " * (indent + style.offset)
        for index, child in enumerate(node.children):
            following = node.children[index + 1] if index + 1 < len(node.children) else None
            if style.blank:
                lines.append("")
            lines.append(f"{item}# c{child.ident}")
            inner = state_lines(child, indent + style.offset + 2, style, following)
            lines.append(f"{item}- {inner[0].lstrip()}")
            lines += inner[1:]
    return lines


def ids_of(node: Node, path: str) -> dict[str, int]:
    found = {path: node.ident}
    for child in node.children:
        found.update(ids_of(child, f"{path}.S{child.ident}"))
    return found


def actions_of(node: Node, ident: int) -> bool:
    if node.ident == ident:
        return node.actions
    return any(actions_of(child, ident) for child in node.children)


@dataclass
class Model:
    paths: dict[str, int]  # the id of each generated state still in the chart, by path
    actions: set[int]  # the states whose enter actions and their comment are still there

    def follow(self, edit: dict[str, object]) -> Model:
        """The model after ``edit``."""
        path = str(edit["path"])
        inside = {p for p in self.paths if p == path or p.startswith(path + ".")}
        paths = dict(self.paths)
        actions = set(self.actions)
        if edit["op"] == "remove-state":
            paths = {p: i for p, i in paths.items() if p not in inside}
        elif edit["op"] == "rename-state":
            parent = path.rpartition(".")[0]
            renamed = f"{parent}.{edit['name']}" if parent else str(edit["name"])
            paths = {(renamed + p[len(path) :] if p in inside else p): i for p, i in paths.items()}
        elif edit["op"] == "set-actions" and not edit["actions"] and path in paths:
            actions.discard(paths[path])
        return Model(paths, actions & set(paths.values()))


NAMED = re.compile(r"^(\s*)(- )?name: (\w+)\s+# e(\d+)$")


def check_comments(text: str, model: Model, chart_paths: list[str]) -> None:
    """Every state of ``model`` has its comments, where they belong, in the chart's order;
    no comment of a removed state (or of removed actions) is left."""
    lines = text.replace("\r\n", "\n").split("\n")
    by_id = {ident: path for path, ident in model.paths.items()}
    seen: list[int] = []
    for index, line in enumerate(lines):
        found = NAMED.match(line)
        if found is None:
            assert "# e" not in line, line
            continue
        ident = int(found.group(4))
        seen.append(ident)
        assert found.group(3) == by_id[ident].rpartition(".")[2]
        if ident != 0:
            assert lines[index - 1].strip() == f"# c{ident}", (lines[index - 1], line)
            assert lines[index - 1].index("#") == len(found.group(1))
    assert seen == [model.paths[path] for path in chart_paths if path in model.paths]
    assert {int(c) for c in re.findall(r"# c(\d+)", text)} == set(model.paths.values())
    actions = {int(a): i for i, line in enumerate(lines) for a in re.findall(r"# a(\d+)", line)}
    assert set(actions) == model.actions
    for ident, index in actions.items():
        assert lines[index + 1].startswith(lines[index].replace(f"# a{ident}", "enter:"))
        assert owner_of(lines, index) == ident


def owner_of(lines: list[str], index: int) -> int:
    """The state whose name key is the nearest above line ``index``, at its indent."""
    column = lines[index].index("#")
    for line in reversed(lines[:index]):
        found = NAMED.match(line)
        if found is not None and line.index("name:") == column:
            return int(found.group(4))
    raise AssertionError(f"no state above line {index}")


@st.composite
def edits(draw: st.DrawFn, chart_paths: list[str], fresh: int) -> dict[str, object]:
    path = draw(st.sampled_from(chart_paths))
    children = [p for p in chart_paths if p.rpartition(".")[0] == path]
    siblings = [p for p in chart_paths if p.rpartition(".")[0] == path.rpartition(".")[0]]
    inner = "." in path
    choices = ["rename-state", "add-state", "set-actions"]
    if inner:
        choices += ["remove-state", "move-state", "add-transition"]
    if children:
        choices.append("set-transitions-of-child")
    op = draw(st.sampled_from(choices))
    if op in ("rename-state", "add-state"):
        return {"op": op, "path": path, "name": f"N{fresh}"}
    if op == "set-actions":
        actions = draw(st.sampled_from([[], [{"raise": {"name": f"A{fresh}"}}]]))
        return {"op": op, "path": path, "kind": "enter", "actions": actions}
    if op == "remove-state":
        return {"op": op, "path": path}
    if op == "move-state":
        return {"op": op, "path": path, "index": draw(st.integers(0, len(siblings) - 1))}
    if op == "add-transition":
        target = draw(st.sampled_from(siblings)).rpartition(".")[2]
        return {"op": op, "path": path, "on": {"input": f"I{fresh}"}, "to": target}
    child = draw(st.sampled_from(children))
    target = draw(st.sampled_from(children)).rpartition(".")[2]
    transitions = [{"on": {"input": "Go"}, "to": target}]
    return {"op": "set-transitions", "path": child, "transitions": transitions}


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    trees(),
    st.builds(Style, st.sampled_from([0, 2]), st.booleans(), st.booleans(), st.booleans()),
    st.data(),
)
def test_edits_keep_comments_with_their_states_and_undo_restores_each_byte(
    root: Node, style: Style, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "chart.yaml"
        path.write_bytes(render(root, style).encode())
        adapter = EditableChartAdapter(ChartMachine(load(path)), ChartFile(path))
        paths = ids_of(root, "S0")
        model = Model(paths, {i for i in paths.values() if actions_of(root, i)})
        files = [path.read_bytes()]
        for step in range(data.draw(st.integers(2, 6))):
            chart_paths = [p for p, _, _ in adapter.chart_machine.chart.walk()]
            edit = data.draw(edits(chart_paths, step))
            try:
                adapter.commit(adapter.prepare(edit))
            except (ChartError, InspectError):  # refused (an impossible chart): unchanged
                assert path.read_bytes() == files[-1]
                event(f"{edit['op']} refused")
                continue
            event(f"{edit['op']} saved")
            model = model.follow(edit)
            files.append(path.read_bytes())
            text = files[-1].decode()
            assert set(re.findall(r"\r\n|\r|\n", text)) == {"\r\n" if style.crlf else "\n"}
            chart_paths = [p for p, _, _ in adapter.chart_machine.chart.walk()]
            check_comments(text, model, chart_paths)
        for before in reversed(files[:-1]):
            adapter.commit(adapter.prepare({"op": "undo"}))
            assert path.read_bytes() == before
