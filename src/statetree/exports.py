"""A subpackage's public names, each imported from its module when it is first read.

``import statetree`` imports every subpackage, and a subpackage imports the modules behind
its names only when one of them is first used: ``import statetree`` stays as quick as the
core, and what needs an extra (NumPy, Ray, JAX) is imported only when asked for. Type
checkers read the same names from the imports a subpackage writes under ``TYPE_CHECKING``.
(The top-level package itself has no module ``__getattr__``: CPython 3.11 and later would
then stop specialising the ``st.sibling`` lookups that games make every frame.)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Exports"]


class Exports:
    """The names of ``package`` and the module each comes from.

    A subpackage's ``__init__`` sets ``__getattr__ = exports.attribute`` and
    ``__dir__ = exports.dir``.
    """

    def __init__(self, package: str, modules: Mapping[str, Sequence[str]]) -> None:
        self._package = package
        self._homes = {name: module for module, names in modules.items() for name in names}

    def attribute(self, name: str) -> Any:
        """The value of ``name``, imported from its module, then kept on the package.

        Raises:
            AttributeError: the package has no such name.
        """
        home = self._homes.get(name)
        if home is None:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[self._package], name, value)  # read as a plain attribute next time
        return value

    def dir(self) -> list[str]:
        """What ``dir()`` lists: the package's ``__all__`` and what it holds already. Names
        that need an extra (``ChartBatch``: NumPy) are left out of both until imported, so
        ``help()`` of the package works without the extra."""
        package = sys.modules[self._package]
        return sorted({*vars(package), *getattr(package, "__all__", ())})
