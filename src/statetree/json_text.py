"""Reading JSON that arrives from outside (files, snapshots, the inspector's messages).

One parser for every such place, so hostile text fails the same way everywhere: with a
``ValueError`` whose message says what was wrong with the text, never advice meant for
whoever runs the interpreter.
"""

from __future__ import annotations

import json

__all__ = ["MAX_DIGITS", "parse_json"]

MAX_DIGITS = 1000
"""The most digits an integer may have: no data of this library needs more."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text):,} characters (at most {MAX_DIGITS} digits)")
    return int(text)


def parse_json(text: str | bytes) -> object:
    """The value of JSON ``text`` (bytes as ``json.loads`` reads them).

    Raises:
        ValueError: the text is not UTF-8 or not JSON, nests too deeply, or holds an
            integer of more than :data:`MAX_DIGITS` digits; the message says which.
    """
    try:
        return json.loads(text, parse_int=_integer)
    except RecursionError:  # no data of this library nests deeply: only hostile text does
        raise ValueError("it nests too deeply") from None
