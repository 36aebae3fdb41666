"""Edits of a chart document: the operations the page may ask for, applied to the tree.

The tree is the document as its reader produced it: for YAML, ``ruamel.yaml``'s round-trip
tree (so that comments survive the edit); for JSON, plain dicts and lists. Both are changed
through the same dict and list operations. Values are never interpreted here: the edited
document goes through the chart loader, which reports problems exactly as for a file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from statetree.inspect.adapters import InspectError

__all__ = ["EDIT_OPERATIONS", "apply_edit"]

Node = dict[str, Any]


def _text(edit: Mapping[str, Any], field: str) -> str:
    value = edit.get(field)
    if not isinstance(value, str) or not value:
        raise InspectError(f"{edit.get('op')!r} edit needs {field!r}, a non-empty string")
    return value


def _choice(edit: Mapping[str, Any], field: str, choices: tuple[str, ...]) -> str:
    value = _text(edit, field)
    if value not in choices:
        raise InspectError(f"{field!r} must be one of {', '.join(choices)}; got {value!r}")
    return value


def _children(state: Node) -> list[Node]:
    children = state.get("states")
    return children if isinstance(children, list) else []


def _find(tree: Node, path: str) -> tuple[Node, Node | None]:
    """The state at dotted ``path`` and its parent (``None`` for the root)."""
    first, *rest = path.split(".")
    state = tree.get("root") if isinstance(tree, dict) else None
    parent: Node | None = None
    if not isinstance(state, dict) or state.get("name") != first:
        raise InspectError(f"the chart has no state {path!r}")
    for name in rest:
        found = [child for child in _children(state) if child.get("name") == name]
        if not found:
            raise InspectError(f"the chart has no state {path!r}")
        parent, state = state, found[0]
    return state, parent


def _rename(tree: Node, edit: Mapping[str, Any]) -> None:
    state, parent = _find(tree, _text(edit, "path"))
    old, new = state["name"], _text(edit, "name")
    state["name"] = new
    # Explicit transitions name their target among the siblings: follow the rename.
    for sibling in _children(parent) if parent is not None else ():
        for transition in sibling.get("transitions") or ():
            if isinstance(transition, dict) and transition.get("to") == old:
                transition["to"] = new


def _add(tree: Node, edit: Mapping[str, Any]) -> None:
    state, _ = _find(tree, _text(edit, "path"))
    if not isinstance(state.get("states"), list):
        state["states"] = []
    state["states"].append({"name": _text(edit, "name")})


def _remove(tree: Node, edit: Mapping[str, Any]) -> None:
    path = _text(edit, "path")
    state, parent = _find(tree, path)
    if parent is None:
        raise InspectError(f"{path!r} is the chart's root: it cannot be removed")
    children = _children(parent)
    children.remove(state)
    if not children:
        del parent["states"]


def _policy(tree: Node, edit: Mapping[str, Any]) -> None:
    state, _ = _find(tree, _text(edit, "path"))
    state["policy"] = _text(edit, "policy")


def _setter(field: str, kinds: tuple[str, ...]) -> Callable[[Node, Mapping[str, Any]], None]:
    """An operation replacing one of a state's lists (``None`` or ``[]`` removes it)."""

    def replace(tree: Node, edit: Mapping[str, Any]) -> None:
        state, _ = _find(tree, _text(edit, "path"))
        key = _choice(edit, "kind", kinds) if len(kinds) > 1 else kinds[0]
        if field not in edit:
            raise InspectError(f"{edit.get('op')!r} edit needs {field!r}")
        value = edit[field]
        if value is None or value == []:
            state.pop(key, None)
        else:
            state[key] = value

    return replace


EDIT_OPERATIONS: Mapping[str, Callable[[Node, Mapping[str, Any]], None]] = {
    "rename-state": _rename,
    "add-state": _add,
    "remove-state": _remove,
    "set-policy": _policy,
    "set-conditions": _setter("conditions", ("pre", "post")),
    "set-actions": _setter("actions", ("enter", "exit")),
    "set-transitions": _setter("transitions", ("transitions",)),
}
"""Each structured edit: its fields besides ``op`` are ``path`` (the state, dotted) and
``name`` (rename-state, add-state), ``policy`` (set-policy), ``kind`` and ``conditions``
(set-conditions: pre or post), ``kind`` and ``actions`` (set-actions: enter or exit),
``transitions`` (set-transitions). Values are written as in a chart file."""


def apply_edit(tree: Any, edit: Mapping[str, Any]) -> None:
    """Apply one structured edit to a chart document's tree, in place.

    Raises:
        InspectError: the operation is unknown, a field is missing, or no state has the
            path given.
    """
    op = edit.get("op")
    operation = EDIT_OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        known = ", ".join(["replace-text", *EDIT_OPERATIONS])
        raise InspectError(f"unknown chart edit {op!r}; expected one of: {known}")
    operation(tree, edit)
