"""A pattern's body as a template: the ``$param`` references in it, found and filled in.

Inside a pattern, a text that is exactly ``$name`` (or ``${name}``) stands for the value of
the parameter ``name``, of the parameter's type: ``delay: $pre`` becomes ``delay: 0.75``. In
a longer text, ``$name`` and ``${name}`` are replaced by the value written as text
(``${attack}_Hit``), and ``$$`` is a dollar sign. Only values are templates, never keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from statetree.chart.registry import ParamValue

__all__ = ["as_text", "fill", "is_reference", "referenced", "references"]

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_TOKEN = re.compile(rf"\$(?:\{{(?P<braced>{_NAME})\}}|(?P<bare>{_NAME})|(?P<dollar>\$))")
_WHOLE = re.compile(rf"\$(?:\{{(?P<braced>{_NAME})\}}|(?P<bare>{_NAME}))\Z")


def is_reference(text: str) -> bool:
    """Whether ``text`` is one parameter's reference alone (``$name`` or ``${name}``)."""
    return _WHOLE.match(text) is not None


def references(text: str) -> Iterator[str | None]:
    """The parameters ``text`` refers to, in order; ``None`` for a ``$`` that starts no
    reference (neither a name, ``{name}`` nor a second ``$``)."""
    position = text.find("$")
    while position >= 0:
        token = _TOKEN.match(text, position)
        if token is None:
            yield None
            position += 1
        else:
            if not token["dollar"]:
                yield token["braced"] or token["bare"]
            position = token.end()
        position = text.find("$", position)


def referenced(data: object) -> set[str]:
    """Every parameter the values of the plain ``data`` refer to."""
    if isinstance(data, str):
        return {name for name in references(data) if name is not None}
    if isinstance(data, Mapping):
        data = list(data.values())
    if isinstance(data, (list, tuple)):
        return set().union(*map(referenced, data))
    return set()


def as_text(value: ParamValue) -> str:
    """``value`` as written in a chart: ``true``, ``0.5``, ``Jump``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _text(text: str, arguments: Mapping[str, ParamValue]) -> object:
    if "$" not in text:
        return text
    whole = _WHOLE.match(text)
    if whole is not None:
        return arguments[whole["braced"] or whole["bare"]]
    return _TOKEN.sub(
        lambda token: (
            "$" if token["dollar"] else as_text(arguments[token["braced"] or token["bare"]])
        ),
        text,
    )


def fill(data: object, arguments: Mapping[str, ParamValue]) -> object:
    """A copy of the plain ``data`` (dicts, lists, scalars) with every reference replaced
    by its argument; every parameter referred to must be in ``arguments``."""
    if isinstance(data, str):
        return _text(data, arguments)
    if isinstance(data, Mapping):
        return {key: fill(value, arguments) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [fill(item, arguments) for item in data]
    return data
