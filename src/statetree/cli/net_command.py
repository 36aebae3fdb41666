"""``statetree net schema``: write a machine's wire schema, or check it against a file.

The schema file lists what decides the bits of a machine's packets (the header, each place's
states with their indexes, the payload fields with their widths) and its fingerprint. Kept
in version control and checked in CI, it turns a change of the wire format into a failed
build with a readable diff, instead of clients that decode packets into wrong states.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from statetree import State
from statetree.bitmask import BitmaskDefinition
from statetree.chart import chart_structure, compile_chart
from statetree.chart.loading import chart_format, load, read_chart_file, read_head
from statetree.chart.stand_in import loads_stand_in
from statetree.cli.command import EXIT_FAILED, EXIT_OK, Command, file_name, not_the_input
from statetree.cli.structures import (
    add_registry_argument,
    is_chart_file,
    load_registry,
    refuse_registry,
)
from statetree.errors import UsageError
from statetree.files import replace_file
from statetree.json_text import parse_json
from statetree.net import BitmaskCodec, Codec, MachineCodec, schema_diff, schema_text
from statetree.structure import Structure, derive
from statetree.targets import (
    LoadError,
    attribute_of,
    existing_file,
    import_target_module,
    load_machines,
    split_target,
)

__all__ = ["COMMAND"]

MAX_SCHEMA_SIZE = 1 << 24
"""The largest schema file ``--check`` reads, in bytes (a thousand-state structure's takes
well under a megabyte)."""

_TARGET_HELP = (
    "the machine: MODULE:NAME, where MODULE is a dotted module name or a .py file and NAME "
    "a codec the program builds (a statetree.net Codec or BitmaskCodec: the most faithful "
    "choice, with the program's own options), a bitmask definition or the initial state "
    "class; with MODULE alone, the module's one machine; or a chart file"
)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    actions.required = True
    schema = actions.add_parser(
        "schema",
        help="write the wire schema of a machine, or check it against a schema file",
        description=(
            "Write the wire schema of a machine (JSON: header, places and indexes, payload "
            "fields and widths, fingerprint) to standard output or a file, or check that the "
            "code still matches a schema file: exit status 1 and a diff when it does not."
        ),
    )
    schema.add_argument("target", metavar="MODULE[:NAME] | CHART", help=_TARGET_HELP)
    add_registry_argument(schema)
    schema.add_argument(
        "--header",
        choices=("auto", "path", "leaf"),
        default="auto",
        help="for a state class or a chart: the header mode of the codec (default: auto)",
    )
    output = schema.add_mutually_exclusive_group()
    output.add_argument("-o", "--output", type=file_name, metavar="FILE", help="write it here")
    output.add_argument(
        "--check",
        type=Path,
        metavar="FILE",
        help="compare with this schema file instead; a changed wire format makes the exit status 1",
    )


def _run(args: argparse.Namespace) -> int:
    not_the_input(args.output, args.target, args.registry)
    schema = _codec(args).schema()
    text = schema_text(schema)
    if args.check is not None:
        return _check(args.check, text, schema, args.target)
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            replace_file(args.output, text.encode("utf-8"))
        except OSError as error:
            reason = error.strerror or error
            raise LoadError(f"cannot write {str(args.output)!r}: {reason}") from None
        print(f"wrote {args.output} (fingerprint {schema['fingerprint']})")
    return EXIT_OK


def _check(path: Path, text: str, schema: dict[str, Any], target: str) -> int:
    try:
        data = read_head(path, MAX_SCHEMA_SIZE)
    except OSError as error:
        raise LoadError(f"cannot read the schema file {str(path)!r}: {error.strerror}") from None
    if len(data) > MAX_SCHEMA_SIZE:
        raise LoadError(
            f"{str(path)!r} is not a schema file (larger than {MAX_SCHEMA_SIZE:,} bytes)"
        )
    try:
        recorded = parse_json(data.decode("utf-8-sig"))  # as an editor may save it
    except ValueError as error:
        raise LoadError(f"{str(path)!r} is not a schema file (not JSON: {error})") from None
    # A schema has a format and a fingerprint, and each key it shares with the one the code
    # writes holds the same kind of value (its other keys depend on the codec's kind).
    shape = {key: type(value) for key, value in schema.items()}
    if not (
        isinstance(recorded, dict)
        and {"format", "fingerprint"} <= set(recorded)
        and all(type(value) is shape.get(key, type(value)) for key, value in recorded.items())
    ):
        raise LoadError(
            f"{str(path)!r} is not a schema file (a JSON object with a format, a fingerprint "
            "and the wire layout, as 'statetree net schema TARGET -o FILE' writes)"
        )
    now = schema["fingerprint"]
    if recorded == schema:
        print(f"{path}: the wire schema matches (fingerprint {now})")
        return EXIT_OK
    before = recorded["fingerprint"]
    diff = schema_diff(schema_text(recorded), text, str(path), f"{target} (the code)")
    if before == now:
        print(
            f"{path}: the wire format is unchanged (fingerprint {now}), but names in the file "
            "are out of date (write it again with -o):"
        )
        print(diff, end="")
        return EXIT_OK
    print(
        f"{path}: the wire schema of {target} changed: fingerprint {before} in the file, "
        f"{now} in the code. Peers built from the two would not understand each other; if "
        "the change is meant, write the file again with -o."
    )
    print(diff, end="")
    return EXIT_FAILED


def _codec(args: argparse.Namespace) -> MachineCodec[Any, Any]:
    """The codec the target names (built with ``--header`` where the target is not one)."""
    if is_chart_file(args.target):
        return _chart_codec(args.target, args.registry, args.header)
    refuse_registry(args.target, args.registry)
    module_name, name = split_target(args.target)
    if not name:
        found = load_machines(args.target)  # state classes, else bitmask definitions
        if len(found) != 1:
            listed = ", ".join(_name_of(machine) for machine in found)
            raise LoadError(
                f"{args.target!r} defines {len(found)} machines ({listed}); name one, or the "
                "codec the program builds, as MODULE:NAME"
            )
        (machine,) = found
        if isinstance(machine, BitmaskDefinition):
            return _no_header(args, BitmaskCodec(machine), "a bitmask definition")
        return _built(args.header, derive(machine))
    value = attribute_of(import_target_module(module_name), name)
    if isinstance(value, (Codec, BitmaskCodec)):
        return _no_header(args, value, "a codec, built with its own header mode")
    if isinstance(value, BitmaskDefinition):
        return _no_header(args, BitmaskCodec(value), "a bitmask definition")
    if isinstance(value, type) and issubclass(value, State):
        return _built(args.header, derive(value))
    raise LoadError(
        f"{args.target!r} is a {type(value).__name__}: name a codec, a bitmask definition or "
        "an initial state class"
    )


def _no_header(
    args: argparse.Namespace, codec: MachineCodec[Any, Any], what: str
) -> MachineCodec[Any, Any]:
    """``codec``, once ``--header`` is known not to be asked of it.

    Raises:
        UsageError: ``--header`` was given a mode other than ``auto``.
    """
    if args.header != "auto":
        raise UsageError(
            f"--header is for a state class or a chart; {args.target!r} is {what}: leave "
            "--header out"
        )
    return codec


def _name_of(machine: type[State[Any]] | BitmaskDefinition) -> str:
    return machine.name if isinstance(machine, BitmaskDefinition) else machine.__qualname__


def _chart_codec(path: str, registry: str | None, header: str) -> Codec:
    # Without the host's registry, the types only the host defines are taken as the chart
    # uses them (as run does): the wire format depends on the states alone.
    text = read_chart_file(existing_file(path, "chart file"))
    if registry is None:
        chart = loads_stand_in(text, chart_format(path), file=path)
    else:
        chart = load(path, load_registry(registry))
    compiled = compile_chart(chart)
    return _built(header, chart_structure(chart), classes=compiled.by_path)


def _built(header: str, structure: Structure, **options: Any) -> Codec:
    """``Codec.auto``, ``Codec.path`` or ``Codec.leaf`` (as ``header`` says) of ``structure``."""
    build: Callable[..., Codec] = getattr(Codec, header)
    return build(structure, **options)


COMMAND: Command = Command(
    name="net",
    summary="networking tools: write or check a machine's wire schema",
    description=(
        "Tools for networked machines. 'statetree net schema TARGET -o FILE' writes the wire "
        "schema of a machine; 'statetree net schema TARGET --check FILE' fails with a diff "
        "when the code no longer matches the file, so a project can check it in CI."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree net schema examples/game/hero.py:HERO_CODEC -o hero.schema.json",
        "statetree net schema examples/game/hero.py:HERO_CODEC --check hero.schema.json",
        "statetree net schema examples/net_character.py:CODEC",
    ),
)
