"""The page's messages: a small explicit schema; anything else is refused with a reason."""

from __future__ import annotations

import json

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs

from statetree.inspect import COMMANDS, ProtocolError, parse_message
from statetree.inspect.protocol import MAX_MESSAGE_BYTES


def refused(message: str | bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_message(message)
    return str(caught.value)


def test_the_schema_lists_every_command() -> None:
    assert list(COMMANDS) == [
        "subscribe",
        "unsubscribe",
        "pause",
        "step",
        "explain",
        "chart-source",
        "edit-chart",
        "check-chart",
        "send-event",
        "set-breakpoint",
        "travel",
    ]


def test_valid_messages_become_commands() -> None:
    command = parse_message('{"type": "subscribe", "machines": ["Hero", "NPC-2"], "ref": 7}')

    assert (command.type, command["machines"], command.ref) == ("subscribe", ("Hero", "NPC-2"), 7)
    assert parse_message('{"type": "pause", "paused": true}')["paused"] is True
    assert parse_message('{"type": "step", "frames": 3}')["frames"] == 3
    explain = parse_message('{"type": "explain", "machine": "P1", "state": "Shooting"}')
    assert (explain["machine"], explain["state"], explain.ref) == ("P1", "Shooting", None)
    edit = parse_message('{"type": "edit-chart", "machine": "c", "edit": {"op": "rename"}}')
    assert edit["edit"] == {"op": "rename"}


def test_not_json_or_not_an_object() -> None:
    assert refused("{bad").startswith("message is not JSON: ")
    assert refused("[1, 2]") == "a message must be a JSON object with a 'type'"
    assert refused('"subscribe"') == "a message must be a JSON object with a 'type'"


def test_unknown_or_missing_type() -> None:
    known = (
        "subscribe, unsubscribe, pause, step, explain, chart-source, edit-chart, check-chart, "
        "send-event, set-breakpoint, travel"
    )
    assert refused('{"type": "eval", "code": "1"}') == (
        f"unknown message type 'eval'; expected one of: {known}"
    )
    assert refused('{"machines": []}') == f"unknown message type None; expected one of: {known}"


def test_fields_must_match_the_command_exactly() -> None:
    assert refused('{"type": "pause"}') == "'pause' message lacks field(s): paused"
    assert refused('{"type": "pause", "paused": false, "module": "os"}') == (
        "'pause' message has unexpected field(s): module"
    )


def test_field_types_and_ranges() -> None:
    assert refused('{"type": "pause", "paused": 1}') == "field 'paused' must be true or false"
    assert refused('{"type": "step", "frames": 0}') == (
        "field 'frames' must be an integer from 1 to 1000"
    )
    assert refused('{"type": "step", "frames": true}') == (
        "field 'frames' must be an integer from 1 to 1000"
    )
    assert refused('{"type": "subscribe", "machines": "Hero"}') == (
        "field 'machines' must be a list of at most 10000 ids"
    )
    assert refused('{"type": "subscribe", "machines": ["../etc"]}') == (
        "field 'machines' must be an id of letters, digits and _.:- (1 to 80 characters)"
    )
    assert refused('{"type": "explain", "machine": "P1", "state": ""}') == (
        "field 'state' must be a string of 1 to 1000 characters"
    )
    assert refused('{"type": "edit-chart", "machine": "c", "edit": []}') == (
        "field 'edit' must be an object"
    )
    assert refused('{"type": "pause", "paused": true, "ref": -1}') == (
        "field 'ref' must be a non-negative integer"
    )


def test_oversized_messages_are_refused_before_parsing() -> None:
    big = json.dumps({"type": "subscribe", "machines": ["x" * 60] * 2000})

    assert len(big) > MAX_MESSAGE_BYTES
    assert refused(big) == f"message of {len(big)} bytes refused: the limit is 65536"


@pytest.mark.parametrize("encode", [False, True], ids=["text", "bytes"])
def test_an_oversized_message_is_refused_with_the_ref_and_type_it_gave_first(
    encode: bool,
) -> None:
    edit = {"op": "replace-text", "text": "\u00e9" * 70000}
    first = {"ref": 12, "type": "edit-chart", "machine": "Platformer"}
    message = json.dumps({**first, "edit": edit})  # as the page sends it: ref and type first
    with pytest.raises(ProtocolError) as caught:
        parse_message(message.encode() if encode else message)

    size = len(message.encode())
    assert str(caught.value) == f"message of {size} bytes refused: the limit is 65536"
    assert (caught.value.request, caught.value.ref) == ("edit-chart", 12)


@pytest.mark.parametrize(
    ("message", "command", "ref"),
    [
        # Only what ends within the first 64 KiB is read: a ref after the text is not.
        (json.dumps({"type": "step", "pad": "x" * 70000, "ref": 3}), "step", None),
        (json.dumps({"pad": ["x"] * 40000, "type": "step", "ref": 3}), None, None),
        # An invalid ref or an unknown type is not echoed, as for any refused message.
        (json.dumps({"ref": -1, "type": "step", "pad": "x" * 70000}), "step", None),
        (json.dumps({"ref": 1.5, "type": "eval", "pad": "x" * 70000}), None, None),
        (json.dumps({"ref": "4", "type": "pause", "pad": "x" * 70000}), "pause", None),
        (json.dumps({"ref": True, "type": "pause", "pad": "x" * 70000}), "pause", None),
        ('{"ref": ' + "9" * 70000 + "}", None, None),
        # The last of two refs counts, as in a message under the limit.
        ('{"ref": 1, "ref": 2, "pad": "' + "x" * 70000 + '"}', None, 2),
        # Not an object, not JSON, nested without end: nothing is echoed.
        (json.dumps([{"ref": 5}, "x" * 70000]), None, None),
        ('{"ref" 5, "type": "step", "pad": "' + "x" * 70000 + '"}', None, None),
        ('{"ref": ' + "[" * 70000, None, None),
        ('  {  "ref"  :  6  ,  "pad": ' + "[" * 70000, None, 6),
        ("{" + '"a": 1, ' * 9000 + '"ref": 7}', None, None),
    ],
    ids=[
        "ref after the limit",
        "type after the limit",
        "negative ref",
        "float ref",
        "string ref",
        "true ref",
        "huge ref",
        "two refs",
        "a list",
        "not JSON",
        "nested",
        "spaces",
        "many fields",
    ],
)
def test_an_oversized_message_echoes_only_a_valid_ref_read_within_the_limit(
    message: str, command: str | None, ref: int | None
) -> None:
    size = len(message.encode())
    assert size > MAX_MESSAGE_BYTES
    with pytest.raises(ProtocolError) as caught:
        parse_message(message)

    assert str(caught.value) == f"message of {size} bytes refused: the limit is 65536"
    assert (caught.value.request, caught.value.ref) == (command, ref)


def test_deeply_nested_json_is_refused() -> None:
    assert refused("[" * 100000 + "]" * 100000).startswith("message of ")
    assert refused(
        '{"type": "edit-chart", "machine": "c", "edit": ' + "[" * 30000 + "]" * 30000 + "}"
    ).startswith("message is not JSON: ")


def test_a_lone_surrogate_no_reply_could_carry_is_refused() -> None:
    field = "name"
    fields = {
        "type": "send-event",
        "machine": "Hero",
        "trigger": "input",
        "name": "Jump",
        "mode": "send",
    }
    message = json.dumps({**fields, field: "\ud800"})  # JSON escapes it: valid JSON text
    assert refused(message) == "message holds a lone surrogate (\\ud800 to \\udfff)"
    paired = json.dumps({**fields, field: "\U0001f600"})  # an escaped pair is a character
    assert parse_message(paired)[field] == "\U0001f600"
    # The error reply echoes the command and ref, as for any other refused field.
    with pytest.raises(ProtocolError) as caught:
        parse_message(json.dumps({**fields, field: "\ud800", "ref": 48}))
    assert (caught.value.request, caught.value.ref) == ("send-event", 48)


def test_the_debugging_and_editing_commands() -> None:
    event = parse_message(
        '{"type": "send-event", "machine": "Hero", "trigger": "input", "name": "Jump", '
        '"mode": "send"}'
    )
    assert (event["trigger"], event["name"], event["mode"]) == ("input", "Jump", "send")
    brk = parse_message(
        '{"type": "set-breakpoint", "machine": "Hero", "on": "exit", "target": "A.B", "set": true}'
    )
    assert (brk["on"], brk["target"], brk["set"]) == ("exit", "A.B", True)
    assert parse_message('{"type": "travel", "machine": "Hero", "seq": 12}')["seq"] == 12
    check = parse_message('{"type": "check-chart", "machine": "c", "edit": {"op": "undo"}}')
    assert check["edit"] == {"op": "undo"}


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (
            '{"type": "send-event", "machine": "H", "trigger": "input", "name": "J", '
            '"mode": "exec"}',
            "field 'mode' must be one of: send, hold, release",
        ),
        (
            '{"type": "send-event", "machine": "H", "trigger": "in put", "name": "J", '
            '"mode": "send"}',
            "field 'trigger' must be an id of letters, digits and _.:- (1 to 80 characters)",
        ),
        (
            '{"type": "set-breakpoint", "machine": "H", "on": "during", "target": "A", '
            '"set": true}',
            "field 'on' must be one of: enter, exit, event",
        ),
        (
            '{"type": "set-breakpoint", "machine": "H", "on": "enter", "target": "A", '
            '"set": "yes"}',
            "field 'set' must be true or false",
        ),
        (
            '{"type": "travel", "machine": "H", "seq": -1}',
            "field 'seq' must be a non-negative integer",
        ),
        (
            '{"type": "travel", "machine": "H", "seq": 1.5}',
            "field 'seq' must be a non-negative integer",
        ),
        ('{"type": "check-chart", "machine": "c", "edit": []}', "field 'edit' must be an object"),
        (
            '{"type": "edit-chart", "machine": "c", "edit": {"op": "undo"}, "file": "../x.yaml"}',
            "'edit-chart' message has unexpected field(s): file",
        ),
    ],
)
def test_the_new_commands_refuse_bad_fields(message: str, reason: str) -> None:
    assert refused(message) == reason


def test_an_edit_may_not_nest_without_bound() -> None:
    deep: object = "x"
    for _ in range(30):
        deep = [deep]
    message = json.dumps({"type": "edit-chart", "machine": "c", "edit": {"op": "x", "v": deep}})

    assert refused(message) == "field 'edit' nests deeper than 24 levels"


def test_a_refusal_carries_the_command_and_ref_the_message_gave() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_message('{"type": "step", "frames": 0, "ref": 9}')
    assert (caught.value.request, caught.value.ref) == ("step", 9)

    with pytest.raises(ProtocolError) as caught:
        parse_message('{"type": "eval", "ref": 3}')
    assert (caught.value.request, caught.value.ref) == (None, 3)

    with pytest.raises(ProtocolError) as caught:
        parse_message('{"type": "pause", "paused": true, "ref": 1.5}')
    assert str(caught.value) == "field 'ref' must be a non-negative integer"
    assert (caught.value.request, caught.value.ref) == ("pause", None)

    with pytest.raises(ProtocolError) as caught:
        parse_message('[{"ref": 4}]')
    assert (caught.value.request, caught.value.ref) == (None, None)


JSON = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats(allow_nan=False) | hs.text(max_size=6),
    lambda inner: (
        hs.lists(inner, max_size=3) | hs.dictionaries(hs.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
FIELDS = sorted({field for schema in COMMANDS.values() for field in schema})


@settings(max_examples=examples(200))
@given(
    hs.one_of(hs.sampled_from(list(COMMANDS)), JSON),
    hs.one_of(hs.integers(0, 2**53 - 1), JSON),
    hs.dictionaries(hs.sampled_from([*FIELDS, "extra"]), JSON, max_size=4),
)
def test_a_hostile_message_is_a_command_or_a_refusal_that_keeps_its_ref(
    kind: object, ref: object, fields: dict[str, object]
) -> None:
    message = json.dumps({"type": kind, "ref": ref, **fields})
    try:
        command = parse_message(message)
    except ProtocolError as error:
        valid = isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < 2**53
        assert error.ref == (ref if valid else None)
        assert error.request == (kind if isinstance(kind, str) and kind in COMMANDS else None)
    else:
        assert command.type == kind and command.ref == ref
        assert set(command.fields) == set(COMMANDS[command.type])
