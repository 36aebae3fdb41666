"""A hook of the site's build: the docstrings' reST cross-references read as code.

The code's docstrings name other objects as Sphinx does (``:class:`~statetree.StateValue```),
which mkdocstrings renders as the role's text before the code. Here each becomes the code
alone, the ``~`` form shortened to its last name as Sphinx shows it, and a ``.. code-block::``
line (the code below it is already a code block) is dropped.
"""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(
    r":(?:class|func|meth|attr|data|mod|exc|obj|const|py:\w+):<code>(~?)([^<]*)</code>"
)
_CODE_BLOCK = re.compile(r"<p>\.\. code-block:: \w+</p>\s*")


def _shown(match: re.Match[str]) -> str:
    short, name = match.groups()
    return f"<code>{name.rpartition('.')[2] if short else name}</code>"


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML with the docstrings' roles as plain code."""
    return _CODE_BLOCK.sub("", _ROLE.sub(_shown, html))
