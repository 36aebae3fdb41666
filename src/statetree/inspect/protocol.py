"""The messages a page may send, as a small explicit schema, and their validation.

Every message is one JSON object with a ``type`` naming a command and exactly the fields
that command declares; anything else is refused with a :class:`ProtocolError` whose message
is sent back to the page. Values are only ever compared with names the inspector already
knows (machine ids, state names): nothing a page sends is evaluated, unpickled or imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from statetree.errors import UsageError
from statetree.json_text import MAX_DIGITS, parse_json

__all__ = [
    "COMMANDS",
    "MAX_EDIT_DEPTH",
    "MAX_MESSAGE_BYTES",
    "Command",
    "ProtocolError",
    "parse_message",
]

MAX_MESSAGE_BYTES = 65536
"""The largest message a page may send."""

MAX_EDIT_DEPTH = 24
"""How deeply the lists and objects of a chart edit may nest."""

MAX_STEP_FRAMES = 1000
"""The most frames one ``step`` command may run."""

_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}\Z")


class ProtocolError(UsageError):
    """A message from a page does not follow the inspector's schema.

    Attributes:
        request: the command the message names, when it names a known one.
        ref: the message's ``ref``, when it has a valid one, so that the error reply can
            echo it like any reply.
    """

    def __init__(self, message: str, *, request: str | None = None, ref: int | None = None) -> None:
        super().__init__(message)
        self.request = request
        self.ref = ref


Check = Callable[[str, object], object]
"""Validates one field: returns the value (possibly normalised) or raises ProtocolError."""


def _identifier(field: str, value: object) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ProtocolError(
            f"field {field!r} must be an id of letters, digits and _.:- (1 to 80 characters)"
        )
    return value


def _identifiers(field: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 10000:
        raise ProtocolError(f"field {field!r} must be a list of at most 10000 ids")
    return tuple(_identifier(field, item) for item in value)


def _text(field: str, value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 1000:
        raise ProtocolError(f"field {field!r} must be a string of 1 to 1000 characters")
    return value


def _flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"field {field!r} must be true or false")
    return value


def _frames(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_STEP_FRAMES:
        raise ProtocolError(f"field {field!r} must be an integer from 1 to {MAX_STEP_FRAMES}")
    return value


def _seq(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError(f"field {field!r} must be a non-negative integer")
    return value


def _choice(*choices: str) -> Check:
    """A check that the value is one of ``choices``."""

    def check(field: str, value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ProtocolError(f"field {field!r} must be one of: {', '.join(choices)}")
        return value

    return check


def _object(field: str, value: object) -> dict[str, Any]:
    # The edit's own fields are checked by the machine's editor, against its chart schema;
    # here only its shape is bounded, so that no later step recurses without limit.
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ProtocolError(f"field {field!r} must be an object")
    if _depth(value) > MAX_EDIT_DEPTH:
        raise ProtocolError(f"field {field!r} nests deeper than {MAX_EDIT_DEPTH} levels")
    return value


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            pending.extend((child, level + 1) for child in item)
    return deepest


COMMANDS: Mapping[str, Mapping[str, Check]] = {
    "subscribe": {"machines": _identifiers},
    "unsubscribe": {"machines": _identifiers},
    "pause": {"paused": _flag},
    "step": {"frames": _frames},
    "explain": {"machine": _identifier, "state": _text},
    "chart-source": {"machine": _identifier},
    "edit-chart": {"machine": _identifier, "edit": _object},
    "check-chart": {"machine": _identifier, "edit": _object},
    "send-event": {
        "machine": _identifier,
        "trigger": _identifier,
        "name": _text,
        "mode": _choice("send", "hold", "release"),
    },
    "set-breakpoint": {
        "machine": _identifier,
        "on": _choice("enter", "exit", "event"),
        "target": _text,
        "set": _flag,
    },
    "travel": {"machine": _identifier, "seq": _seq},
}
"""Each command and its required fields. Every message may also carry ``ref``, an integer
the reply echoes so that a page can match replies to requests."""


@dataclass(frozen=True, slots=True)
class Command:
    """A validated message: its ``type``, its fields and the optional ``ref``."""

    type: str
    fields: Mapping[str, Any]
    ref: int | None = None

    def __getitem__(self, field: str) -> Any:
        return self.fields[field]


def _decode(message: str | bytes) -> object:
    size = len(message.encode() if isinstance(message, str) else message)
    if size > MAX_MESSAGE_BYTES:
        head = _head_fields(message)
        kind = head.get("type")
        try:
            ref = _ref(head)
        except ProtocolError:
            ref = None
        raise ProtocolError(
            f"message of {size} bytes refused: the limit is {MAX_MESSAGE_BYTES}",
            request=kind if isinstance(kind, str) and kind in COMMANDS else None,
            ref=ref,
        )
    try:
        data = parse_json(message)
    except ValueError as error:
        raise ProtocolError(f"message is not JSON: {error}") from None
    return data


_SPACE = re.compile(r"[ \t\n\r]*")


def _integer(text: str) -> int:
    """An integer of the message, of at most :data:`MAX_DIGITS` digits (as ``parse_json``
    reads them)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError("too many digits")
    return int(text)


_HEAD_DECODER = json.JSONDecoder(parse_int=_integer)


def _head_fields(message: str | bytes) -> dict[str, object]:
    """The top-level fields of a message over the limit, read from its first
    :data:`MAX_MESSAGE_BYTES` characters only (each value as far as it ends there), so
    that its refusal can still name its command and echo its ``ref``: the fields a page
    sends first (the inspector's own page sends ``ref`` first, then ``type``). The rest of
    the message is never read."""
    head = message[:MAX_MESSAGE_BYTES]
    text = head.decode("utf-8", "ignore") if isinstance(head, bytes) else head
    fields: dict[str, object] = {}
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return fields
    at += 1
    while True:
        try:
            key, at = _HEAD_DECODER.raw_decode(text, _skip(text, at))
            at = _skip(text, at)
            if not isinstance(key, str) or not text.startswith(":", at):
                break
            value, at = _HEAD_DECODER.raw_decode(text, _skip(text, at + 1))
        except (ValueError, RecursionError):  # cut off by the limit, or not JSON
            break
        fields[key] = value
        at = _skip(text, at)
        if not text.startswith(",", at):
            break
        at += 1
    return fields


def _skip(text: str, at: int) -> int:
    """Where the JSON whitespace at ``at`` in ``text`` ends."""
    found = _SPACE.match(text, at)
    return at if found is None else found.end()


def _check_sendable(data: object) -> None:
    """Refuse what no reply could send back: a lone surrogate a JSON escape made."""
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise ProtocolError("message holds a lone surrogate (\\ud800 to \\udfff)") from None
    except RecursionError:
        raise ProtocolError("message nests too deeply") from None


def _ref(data: Mapping[str, object]) -> int | None:
    ref = data.get("ref")
    return None if ref is None else _seq("ref", ref)


def parse_message(message: str | bytes) -> Command:
    """Validate one message from a page.

    Raises:
        ProtocolError: the message is too big, not JSON, not an object, names an unknown
            command, lacks a field, has a field the command does not take, or a value of
            the wrong type or range. It carries the command and the ``ref`` of a message
            that is an object naming them (of a message too big, if they are top-level
            fields ending within its first :data:`MAX_MESSAGE_BYTES` characters: the rest
            is never read).
    """
    data = _decode(message)
    if not isinstance(data, dict):
        _check_sendable(data)
        raise ProtocolError("a message must be a JSON object with a 'type'")
    kind = data.get("type")
    request = kind if isinstance(kind, str) and kind in COMMANDS else None
    try:
        ref = _ref(data)
    except ProtocolError as error:
        raise ProtocolError(str(error), request=request) from None
    try:  # checked once the command and ref are known: the error reply echoes them
        _check_sendable(data)
    except ProtocolError as error:
        raise ProtocolError(str(error), request=request, ref=ref) from None
    if request is None:
        known = ", ".join(COMMANDS)
        raise ProtocolError(f"unknown message type {kind!r}; expected one of: {known}", ref=ref)
    try:
        return Command(request, _fields(request, data), ref)
    except ProtocolError as error:
        raise ProtocolError(str(error), request=request, ref=ref) from None


def _fields(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ``kind`` command, checked."""
    schema = COMMANDS[kind]
    extra = sorted(set(data) - {"type", "ref", *schema})
    if extra:
        raise ProtocolError(f"{kind!r} message has unexpected field(s): {', '.join(extra)}")
    missing = [field for field in schema if field not in data]
    if missing:
        raise ProtocolError(f"{kind!r} message lacks field(s): {', '.join(missing)}")
    return {field: check(field, data[field]) for field, check in schema.items()}
