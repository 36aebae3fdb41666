"""Edits of a chart document: the operations the page may ask for, applied to the tree.

The tree is the document as its reader produced it: for YAML, ``ruamel.yaml``'s round-trip
tree (so that comments survive the edit); for JSON, plain dicts and lists. Both are changed
through the same dict and list operations. Values are never interpreted here: the edited
document goes through the chart loader, which reports problems exactly as for a file.

A path names a state of the chart (``Character.Alive``) or, after ``@``, a state of one of
the file's patterns (``@ComboStep.Window``): editing a pattern edits every use of it.
"""

from __future__ import annotations

import copy
import reprlib
from collections.abc import Callable, Mapping
from typing import Any

from statetree.chart.document import Document
from statetree.chart.expand import expand_document
from statetree.chart.loading import read_file
from statetree.chart.text import MAX_DEPTH, forbidden_character
from statetree.inspect.adapters import InspectError

__all__ = ["DETACH", "EDIT_FIELDS", "EDIT_OPERATIONS", "OPERATIONS", "apply_edit", "check_edit"]

DETACH = "detach-use"
"""The edit writing one use of a pattern out as the plain states it expands into."""

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
    """The child states (a malformed file may hold anything else: that is skipped)."""
    children = state.get("states")
    if not isinstance(children, list):
        return []
    return [child for child in children if isinstance(child, dict)]


def _transitions(state: Node) -> list[Node]:
    found = state.get("transitions")
    if not isinstance(found, list):
        return []
    return [transition for transition in found if isinstance(transition, dict)]


def _top(tree: Node, first: str) -> object:
    """The root state named ``first``, or for ``@Name`` the state of the pattern ``Name``."""
    if not isinstance(tree, dict):
        return None
    if first.startswith("@"):
        patterns = tree.get("patterns")
        return patterns.get(first[1:]) if isinstance(patterns, dict) else None
    root = tree.get("root")
    return root if isinstance(root, dict) and root.get("name") == first else None


def _find(tree: Node, path: str) -> tuple[Node, Node | None]:
    """The state at dotted ``path`` and its parent (``None`` for the root or a pattern)."""
    first, *rest = path.split(".")
    state = _top(tree, first)
    parent: Node | None = None
    if not isinstance(state, dict):
        if first.startswith("@"):
            raise InspectError(
                f"the chart file defines no pattern {first[1:]!r} (a pattern imported from "
                "another file is edited in that file)"
            )
        raise InspectError(f"the chart has no state {path!r}")
    for depth, name in enumerate(rest, 1):
        found = [child for child in _children(state) if child.get("name") == name]
        if not found:
            use = state.get("use")
            if isinstance(use, str):  # the use's states are the pattern's
                where = ".".join([first, *rest[: depth - 1]])
                raise InspectError(
                    f"{path!r} is a state of pattern {use!r}, used at {where!r}: edit the "
                    f"pattern (@{use}) or detach the use to edit its states here"
                )
            raise InspectError(f"the chart has no state {path!r}")
        parent, state = state, found[0]
    return state, parent


def _rename(tree: Node, edit: Mapping[str, Any]) -> None:
    path = _text(edit, "path")
    state, parent = _find(tree, path)
    old, new = state.get("name"), _text(edit, "name")
    if old is None:  # a pattern's own state: each use gives it a name
        raise InspectError(f"{path!r} takes its name from each use of it: rename a use instead")
    state["name"] = new
    # Explicit transitions name their target among the siblings: follow the rename.
    for sibling in _children(parent) if parent is not None else ():
        for transition in _transitions(sibling):
            if transition.get("to") == old:
                transition["to"] = new


def _add(tree: Node, edit: Mapping[str, Any]) -> None:
    state, _ = _find(tree, _text(edit, "path"))
    if not isinstance(state.get("states"), list):
        state["states"] = []
    state["states"].append({"name": _text(edit, "name")})


def _among_siblings(tree: Node, edit: Mapping[str, Any], doing: str) -> tuple[Node, Node]:
    """The state the edit names and its parent; the root, which has none, is refused."""
    path = _text(edit, "path")
    state, parent = _find(tree, path)
    if parent is None:
        raise InspectError(f"{path!r} is the chart's root: it cannot be {doing}")
    return state, parent


def _remove(tree: Node, edit: Mapping[str, Any]) -> None:
    state, parent = _among_siblings(tree, edit, "removed")
    siblings = parent["states"]
    del siblings[_index(siblings, state)]
    if not siblings:
        del parent["states"]
    # The siblings' transitions to the removed state go with it.
    for sibling in _children(parent):
        transitions = sibling.get("transitions")
        if not isinstance(transitions, list):
            continue
        for index in reversed(range(len(transitions))):
            item = transitions[index]
            if isinstance(item, dict) and item.get("to") == state.get("name"):
                del transitions[index]
        if not transitions:
            del sibling["transitions"]


def _index(items: list[Any], item: object) -> int:
    """The position of ``item`` itself in ``items`` (not of an equal one)."""
    return next(index for index, candidate in enumerate(items) if candidate is item)


def _move(tree: Node, edit: Mapping[str, Any]) -> None:
    state, parent = _among_siblings(tree, edit, "moved")
    siblings = parent["states"]
    target = edit.get("index")
    if isinstance(target, bool) or not isinstance(target, int):
        raise InspectError("'move-state' edit needs 'index', an integer")
    if not 0 <= target < len(siblings):
        raise InspectError(f"'index' must be from 0 to {len(siblings) - 1}; got {target}")
    siblings.insert(target, siblings.pop(_index(siblings, state)))


def _policy(tree: Node, edit: Mapping[str, Any]) -> None:
    state, _ = _find(tree, _text(edit, "path"))
    if "policy" not in edit:  # a message cut short must not remove the policy
        raise InspectError("'set-policy' edit needs 'policy', a policy's name or null")
    if edit["policy"] is None:
        state.pop("policy", None)
    else:
        state["policy"] = _text(edit, "policy")


def _add_transition(tree: Node, edit: Mapping[str, Any]) -> None:
    state, _ = _find(tree, _text(edit, "path"))
    condition = edit.get("on")
    if condition is None:
        raise InspectError("'add-transition' edit needs 'on', the transition's condition")
    transitions = state.get("transitions")
    if not isinstance(transitions, list):
        transitions = state["transitions"] = []
    last = transitions[-1] if transitions else None
    transitions.append(_restyle({"on": condition, "to": _text(edit, "to")}, last, here=False))


def _restyle(new: Any, old: Any, *, here: bool = True) -> Any:
    """``new`` written as ``old`` was: for a YAML round-trip tree, the same flow or block
    style for each mapping and list (a new list item is styled like the last one before
    it), so an edited part looks like the rest of the file. Plain data is kept as it is.

    When ``old`` is what ``new`` replaces (``here``), not a sample of the style, the
    comments at the ends of its lines stay: an item left as it was is kept itself, and a
    changed one keeps the comment of the item it replaces."""
    if not hasattr(old, "fa"):
        return new
    styled: Any
    ends: dict[Any, Any] = old.ca.items if here else {}
    if isinstance(new, dict) and isinstance(old, dict):
        fallback = next(iter(old.values()), None)
        styled = type(old)()
        for key, value in new.items():
            styled[key] = _restyle(value, old.get(key, fallback), here=here and key in old)
            if key in ends:
                styled.ca.items[key] = ends[key]
    elif isinstance(new, list) and isinstance(old, list):
        styled = _restyled_list(new, old, ends, here=here)
    else:
        return new
    if old.fa.flow_style():
        styled.fa.set_flow_style()
    return styled


def _restyled_list(new: list[Any], old: Any, ends: dict[Any, Any], *, here: bool) -> Any:
    """The list ``new`` written as the list ``old`` was (see :func:`_restyle`)."""
    styled = type(old)()
    unused = list(range(len(old))) if here else []
    for index, item in enumerate(new):
        same = next((n for n in unused if _same(old[n], item)), None)
        if same is not None:  # a copy: the list it is taken from may stay (a pattern's)
            styled.append(copy.deepcopy(old[same]))
        else:
            same = index if index in unused else None
            sample = old[min(index, len(old) - 1)] if old else None
            styled.append(_restyle(item, sample, here=same is not None))
        if same is not None:
            unused.remove(same)
            if same in ends:
                styled.ca.items[len(styled) - 1] = ends[same]
    return styled


def _same(old: Any, new: Any) -> bool:
    """Whether ``old``, read from the file, holds just what ``new`` holds (a ``True`` is
    not a ``1``, nor a ``1.0`` a ``1``)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(_same(old[k], new[k]) for k in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new, strict=True))
    plain = (bool, int, float, str, type(None))
    kinds = [next(k for k in plain if isinstance(v, k)) for v in (old, new) if isinstance(v, plain)]
    return len(kinds) == 2 and kinds[0] is kinds[1] and old == new


def _set_arguments(tree: Node, edit: Mapping[str, Any]) -> None:
    """Replace the arguments of a use (``None`` or ``{}`` leaves every default)."""
    path = _text(edit, "path")
    arguments = edit.get("arguments", ...)  # a message cut short must not remove them
    if arguments is not None and not isinstance(arguments, dict):
        raise InspectError("'set-arguments' edit needs 'arguments', a mapping or null")
    state, _ = _find(tree, path)
    if "use" not in state:
        raise InspectError(f"{path!r} is not a use of a pattern: it has no arguments")
    if not arguments:
        state.pop("with", None)
    else:
        state["with"] = _restyle(arguments, state.get("with"))


def _detach(tree: Node, edit: Mapping[str, Any], document: Document) -> None:
    """Write the use at ``path`` out as the plain states the loader expands it into."""
    path = _text(edit, "path")
    state, parent = _find(tree, path)
    if "use" not in state or path.startswith("@"):
        raise InspectError(f"{path!r} is not a use of a pattern among the chart's states")
    expanded = expand_document(document, read_file).document.data
    plain = _find(expanded, path)[0] if isinstance(expanded, dict) else state
    # Written as the pattern is, when the file defines it (flow mappings stay flow).
    patterns = tree.get("patterns")
    pattern = patterns.get(state["use"]) if isinstance(patterns, dict) else None
    plain = _restyle(plain, pattern, here=False)
    if parent is None:
        tree["root"] = plain
    else:
        siblings = parent["states"]
        siblings[_index(siblings, state)] = plain


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
            state[key] = _restyle(value, state.get(key))

    return replace


EDIT_OPERATIONS: Mapping[str, Callable[[Node, Mapping[str, Any]], None]] = {
    "rename-state": _rename,
    "add-state": _add,
    "remove-state": _remove,
    "move-state": _move,
    "set-policy": _policy,
    "add-transition": _add_transition,
    "set-conditions": _setter("conditions", ("pre", "post")),
    "set-actions": _setter("actions", ("enter", "exit")),
    "set-transitions": _setter("transitions", ("transitions",)),
    "set-arguments": _set_arguments,
}
"""Each structured edit: its fields besides ``op`` are ``path`` (the state, dotted) and
``name`` (rename-state, add-state), ``index`` (move-state: its new place among its
siblings), ``policy`` (set-policy; null removes it), ``kind`` and ``conditions``
(set-conditions: pre or post), ``kind`` and ``actions`` (set-actions: enter or exit),
``transitions`` (set-transitions), ``on`` and ``to`` (add-transition: a condition and a
sibling), ``arguments`` (set-arguments: a use's, by parameter). Values are written as in a
chart file. Removing a state removes its siblings' transitions to it; renaming one follows
them. :data:`DETACH` (``path``, a use) is applied with the document (see :func:`apply_edit`)."""


OPERATIONS = ("replace-text", *EDIT_OPERATIONS, DETACH)
"""Every edit of a chart file the page may ask for (besides undo and redo)."""

EDIT_FIELDS: Mapping[str, frozenset[str]] = {
    "replace-text": frozenset({"text"}),
    "rename-state": frozenset({"path", "name"}),
    "add-state": frozenset({"path", "name"}),
    "remove-state": frozenset({"path"}),
    "move-state": frozenset({"path", "index"}),
    "set-policy": frozenset({"path", "policy"}),
    "add-transition": frozenset({"path", "on", "to"}),
    "set-conditions": frozenset({"path", "kind", "conditions"}),
    "set-actions": frozenset({"path", "kind", "actions"}),
    "set-transitions": frozenset({"path", "transitions"}),
    "set-arguments": frozenset({"path", "arguments"}),
    DETACH: frozenset({"path"}),
    "undo": frozenset(),
    "redo": frozenset(),
}
"""The fields each edit may have besides ``op`` (every edit the page may send, undo and
redo included): :func:`check_edit` refuses any other."""


def check_edit(edit: object) -> str:
    """The operation of ``edit``, once it is known, the edit has no field it does not take
    and its values are data a chart file can hold (each operation checks the values of its
    own fields).

    Raises:
        InspectError: ``edit`` is no mapping, the operation is unknown, the edit has a field
            it does not take, or a value is none of JSON's (see :func:`_check_values`).
    """
    if not isinstance(edit, Mapping):
        raise InspectError(f"a chart edit is a mapping with an 'op', got {reprlib.repr(edit)}")
    op = edit.get("op")
    if not isinstance(op, str) or op not in EDIT_FIELDS:
        raise InspectError(f"unknown chart edit {op!r}; expected one of: {', '.join(EDIT_FIELDS)}")
    fields = EDIT_FIELDS[op]
    extra = sorted(str(key) for key in edit if key != "op" and key not in fields)
    if extra:
        raise InspectError(f"{op!r} edit has unexpected field(s): {', '.join(extra)}")
    _check_values(op, edit)
    return op


_PLAIN = (str, int, float, bool, type(None))
MAX_DIGITS = 1000
"""The most digits of an integer an edit may hold (as a page's message may)."""
_TOO_LONG = 10**MAX_DIGITS


def _check_values(op: str, edit: Mapping[str, Any]) -> None:
    """Refuse values no chart file holds, before any is copied or written: they are JSON's
    (mappings with string keys, lists, strings, numbers, booleans, null; not a subclass, an
    enum's or NumPy's), nest at most :data:`MAX_DEPTH` deep, and hold no character a chart
    may not (as the loader says)."""
    waiting: list[tuple[object, int]] = [(value, 1) for value in edit.values()]
    while waiting:
        value, depth = waiting.pop()
        if depth > MAX_DEPTH:
            raise InspectError(f"{op!r} edit's values nest more than {MAX_DEPTH} levels deep")
        kind = type(value)
        if kind is dict:
            assert isinstance(value, dict)
            waiting += [(item, depth + 1) for item in value.values()]
            for key in value:
                if type(key) is not str:
                    raise InspectError(f"{op!r} edit has a key that is no string: {key!r}")
                _check_text(key)
        elif kind is list:
            assert isinstance(value, list)
            waiting += [(item, depth + 1) for item in value]
        elif isinstance(value, str) and kind is str:
            _check_text(value)
        elif kind not in _PLAIN:
            raise InspectError(
                f"{op!r} edit holds {reprlib.repr(value)} (a {kind.__qualname__}), which no "
                "chart file can: values are mappings, lists, strings, numbers, booleans or null"
            )
        elif isinstance(value, int) and abs(value) >= _TOO_LONG:
            raise InspectError(f"{op!r} edit holds an integer of more than {MAX_DIGITS} digits")


def _check_text(text: str) -> None:
    found = forbidden_character(text)
    if found is not None:
        raise InspectError(
            f"the character {found} in {text!r} is not allowed in a chart (control "
            "characters and lone surrogates are not text)"
        )


def apply_edit(tree: Any, edit: Mapping[str, Any], document: Document | None = None) -> None:
    """Apply one structured edit to a chart document's tree, in place.

    Args:
        document: the document the tree was read with (as read: file and data), which
            :data:`DETACH` expands.

    Raises:
        InspectError: the operation is unknown, a field is missing, or no state has the
            path given.
        ChartError: a use to detach does not expand (the chart does not load).
    """
    op = edit.get("op")
    if op == DETACH and document is not None:
        _detach(tree, edit, document)
        return
    operation = EDIT_OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        known = ", ".join((*OPERATIONS, "undo", "redo"))
        raise InspectError(f"unknown chart edit {op!r}; expected one of: {known}")
    operation(tree, edit)
