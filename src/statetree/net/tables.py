"""Per-configuration tables: what encoding and decoding a configuration costs, paid once.

When a structure has few enough configurations (:data:`TABLE_LIMIT`), the codec lists them
all when it is built. For each it keeps the header value, the classes of the machine's
active states in processing order (the key an encoder looks the configuration up by), the
stateful states among them with their payload layouts, and a template that builds the
decoded :class:`Configuration`, shared whole where no state carries a payload. Encoding a
machine is then a lookup and the payloads; decoding is a lookup, the payloads (every field
checked as always) and building the states that carry them; the configurations decoded
lately are remembered by their payload bits, so a machine that stays in a state costs a
lookup (which is why ``net_validate`` must decide from the payload alone).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from statetree.core.state import State
from statetree.net.configuration import ActiveState, Configuration
from statetree.net.payload import Payload, PayloadSpec
from statetree.net.shape import Pick
from statetree.net.tree import CodecTree, Level, Node, RegionSet

__all__ = ["MEMO_SIZE", "TABLE_LIMIT", "Entry", "Tables", "Template", "all_picks", "build_entry"]

TABLE_LIMIT = 4096
"""Structures with more configurations than this are encoded by walking the codec tree."""
MEMO_SIZE = 256
"""How many decoded configurations with payloads each entry remembers."""


@dataclass(frozen=True, slots=True, eq=False)
class Template:
    """How to build one active state of a configuration from the decoded payloads.

    Attributes:
        cls: the state's class.
        slot: the index of its payload among the configuration's payloads, or -1.
        inner: the template of its inner state.
        regions: the templates of its region roots.
        fixed: the built state, when neither it nor anything inside it has a payload.
    """

    cls: type[State[Any]]
    slot: int
    inner: Template | None
    regions: tuple[Template, ...]
    fixed: ActiveState | None

    def build(self, payloads: Sequence[Payload]) -> ActiveState:
        """The active state with ``payloads`` (in slot order) filled in."""
        if self.fixed is not None:
            return self.fixed
        inner = self.inner.build(payloads) if self.inner is not None else None
        regions = tuple(region.build(payloads) for region in self.regions)
        payload = payloads[self.slot] if self.slot >= 0 else ()
        return _active(self.cls, payload, inner, regions)


_new = object.__new__
_set_cls, _set_payload, _set_inner, _set_regions = (
    vars(ActiveState)[name].__set__ for name in ("cls", "payload", "inner", "regions")
)
_set_root = vars(Configuration)["root"].__set__


def _active(cls: type, payload: Payload, inner: ActiveState | None, regions: Any) -> ActiveState:
    """``ActiveState(cls, payload, inner, regions)`` built through its slots: a frozen
    dataclass's ``__init__`` sets each field with ``object.__setattr__``, which costs a
    decoder more than the rest of its work on a packet. The values are already checked."""
    state: ActiveState = _new(ActiveState)
    _set_cls(state, cls)
    _set_payload(state, payload)
    _set_inner(state, inner)
    _set_regions(state, regions)
    return state


def _configuration(root: ActiveState) -> Configuration:
    """``Configuration(root)``, through its slot (see :func:`_active`)."""
    configuration: Configuration = _new(Configuration)
    _set_root(configuration, root)
    return configuration


@dataclass(frozen=True, slots=True, eq=False)
class Entry:
    """One configuration of the structure, ready to encode or decode.

    Attributes:
        pick: where the configuration sits in the codec tree.
        header: its header value.
        classes: the classes of its states in processing order (``machine.walk()``'s).
        stateful: ``(position in classes, payload layout, state path)`` of each state with
            a payload, in packet order.
        template: builds the decoded configuration.
        fixed: the configuration itself, when no state carries a payload.
        width: the bits of all its payloads together, when every field has a fixed width.
        decoded: the configurations decoded lately, by their payload bits (see
            :meth:`decode`).
    """

    pick: Pick
    header: int
    classes: tuple[type, ...]
    stateful: tuple[tuple[int, PayloadSpec, str], ...]
    template: Template
    fixed: Configuration | None
    width: int | None
    decoded: dict[int, Configuration]

    def decode(self, packed: int, start: int) -> Configuration:
        """The configuration whose payloads are the ``width`` bits ``packed``, read at bit
        ``start``, checked field by field.

        The same bits always decode to the same (immutable) configuration, so the last
        :data:`MEMO_SIZE` are kept: a machine that stays in a state costs a lookup.

        Raises:
            PacketError: a field is out of range, or a state's ``net_validate`` refuses.
        """
        found = self.decoded.get(packed)
        if found is not None:
            return found
        payloads = []
        left = self.width or 0
        for _, spec, path in self.stateful:
            size = spec.width or 0
            left -= size
            part = (packed >> left) & ((1 << size) - 1)
            payloads.append(spec.unpack(part, start, path))
            start += size
        found = _configuration(self.template.build(payloads))
        if len(self.decoded) >= MEMO_SIZE:
            self.decoded.clear()
        self.decoded[packed] = found
        return found


class Tables:
    """Every configuration's :class:`Entry`, by header value and by active classes."""

    __slots__ = ("by_classes", "by_header")

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.by_header = {entry.header: entry for entry in entries}
        keys = [entry.classes for entry in entries]
        # Two configurations with the same classes in processing order (possible only with
        # regions) cannot be told apart by classes: those are encoded by walking the tree.
        shared = {key for key in keys if keys.count(key) > 1}
        self.by_classes = {entry.classes: entry for entry in entries if entry.classes not in shared}


def build_entry(pick: Pick, header: int) -> Entry:
    """The entry of the configuration ``pick`` locates."""
    classes: list[type] = []
    stateful: list[tuple[int, PayloadSpec, str]] = []
    template = _template(pick, "", classes, stateful)
    fixed = Configuration(template.fixed) if template.fixed is not None else None
    widths = [spec.width for _, spec, _ in stateful]
    width = None if None in widths else sum(w or 0 for w in widths)
    return Entry(pick, header, tuple(classes), tuple(stateful), template, fixed, width, {})


def _template(
    pick: Pick, outer: str, classes: list[type], stateful: list[tuple[int, PayloadSpec, str]]
) -> Template:
    node = pick.node
    path = f"{outer}/{node.cls.__name__}" if outer else node.cls.__name__
    slot = -1
    if node.spec.fields:
        slot = len(stateful)
        stateful.append((len(classes), node.spec, path))
    classes.append(node.cls)
    inner = _template(pick.inner, path, classes, stateful) if pick.inner is not None else None
    regions = tuple(_template(region, path, classes, stateful) for region in pick.regions)
    fixed = None
    if slot < 0 and all(t.fixed is not None for t in (*([inner] if inner else []), *regions)):
        fixed = ActiveState(
            node.cls,
            (),
            inner.fixed if inner is not None else None,
            tuple(region.fixed for region in regions if region.fixed is not None),
        )
    return Template(node.cls, slot, inner, regions, fixed)


def all_picks(tree: CodecTree) -> Iterator[Pick]:
    """Every configuration of ``tree``, depth first, in option order."""
    return _level_picks(tree.top)


def _level_picks(level: Level) -> Iterator[Pick]:
    for index, node in enumerate(level.nodes):
        yield from _node_picks(node, index)


def _node_picks(node: Node, index: int) -> Iterator[Pick]:
    if not node.options:
        yield Pick(node, index, -1, None, ())
    for option, inside in enumerate(node.options):
        if inside is None:
            yield Pick(node, index, option, None, ())
        elif isinstance(inside, RegionSet):
            for regions in itertools.product(*map(_list_level, inside.levels)):
                yield Pick(node, index, option, None, regions)
        else:
            for inner in _node_picks(inside, option):
                yield Pick(node, index, option, inner, ())


def _list_level(level: Level) -> list[Pick]:
    return list(_level_picks(level))
