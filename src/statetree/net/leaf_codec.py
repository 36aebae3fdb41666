"""The leaf-index header: the index of the innermost active state among all possible ones.

When every state has a single outer and no state hosts regions, the innermost active state
determines every state outside it, so numbering the possible innermost states (depth first)
is enough. The header takes ``ceil(log2(count))`` bits: the fewest any header can take.
"""

from __future__ import annotations

from statetree.errors import DefinitionError
from statetree.net.errors import PacketError
from statetree.net.shape import Pick
from statetree.net.tables import all_picks
from statetree.net.tree import CodecTree

__all__ = ["LeafHeader"]


class LeafHeader:
    """Encodes picks as the index of their innermost state, and back."""

    __slots__ = ("_index", "chains", "width")

    def __init__(self, tree: CodecTree) -> None:
        """Number the possible innermost states of ``tree``.

        Raises:
            DefinitionError: a state has several outers, or a state hosts regions: then the
                innermost state does not tell the configuration (use the path header).
        """
        _check_single_outers(tree)
        self.chains = tuple(all_picks(tree))
        self._index = {_innermost(chain).node: i for i, chain in enumerate(self.chains)}
        self.width = (len(self.chains) - 1).bit_length()

    def value(self, pick: Pick) -> int:
        """The index of the innermost state of ``pick``."""
        return self._index[_innermost(pick).node]

    def pick(self, header: int) -> Pick:
        """The configuration whose innermost state has index ``header``.

        Raises:
            PacketError: ``header`` is not the index of a possible innermost state.
        """
        if header >= len(self.chains):
            raise PacketError(
                f"leaf index {header} is out of range: there are {len(self.chains)} "
                "possible innermost states",
                bit=0,
            )
        return self.chains[header]


def _check_single_outers(tree: CodecTree) -> None:
    if tree.outers:
        name, places = next(iter(tree.outers.items()))
        raise DefinitionError(
            f"the leaf-index header needs every state to have a single outer, but {name} is "
            f"reached from {', '.join(places)}; use the path header"
        )
    if tree.region_roots:
        hosts = ", ".join(cls.__qualname__ for cls in tree.region_roots)
        raise DefinitionError(
            f"the leaf-index header cannot describe concurrent regions ({hosts} hosts "
            "regions); use the path header"
        )


def _innermost(pick: Pick) -> Pick:
    while pick.inner is not None:
        pick = pick.inner
    return pick
