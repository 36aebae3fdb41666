"""``statetree net schema``: a schema file written, then checked in CI with a readable diff and
an exit status; and ``statetree check`` warning networked machines about derived orders."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from net_samples import HERO

from statetree.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from statetree.cli.net_command import MAX_SCHEMA_SIZE
from statetree.net import Codec, schema_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HERO_ALIVE = "net_samples:Hero.Alive"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_schema_goes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "net", "schema", "net_samples:Hero.Alive")
    assert status == EXIT_OK
    assert out == schema_text(Codec.auto(HERO).schema())


def test_a_written_file_checks_until_the_wire_changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schema = tmp_path / "hero.schema.json"
    fingerprint = Codec.auto(HERO).fingerprint
    assert run(capsys, "net", "schema", "net_samples:Hero.Alive", "-o", str(schema)) == (
        EXIT_OK,
        f"wrote {schema} (fingerprint {fingerprint})\n",
        "",
    )
    status, out, _ = run(capsys, "net", "schema", HERO_ALIVE, "--check", str(schema))
    assert (status, out) == (
        EXIT_OK,
        f"{schema}: the wire schema matches (fingerprint {fingerprint})\n",
    )

    # The same machine with the path header: another wire format.
    status, out, _ = run(
        capsys,
        "net",
        "schema",
        "net_samples:Hero.Alive",
        "--header",
        "path",
        "--check",
        str(schema),
    )
    path = Codec.path(HERO).fingerprint
    assert status == EXIT_FAILED
    lines = out.splitlines()
    assert lines[0] == (
        f"{schema}: the wire schema of net_samples:Hero.Alive changed: fingerprint "
        f"{fingerprint} in the file, {path} in the code. Peers built from the two would not "
        "understand each other; if the change is meant, write the file again with -o."
    )
    assert lines[1:3] == [f"--- {schema}", "+++ net_samples:Hero.Alive (the code)"]
    assert '-    "mode": "leaf",' in lines
    assert '+    "mode": "path",' in lines
    assert f'-  "fingerprint": "{fingerprint}"' in lines
    assert f'+  "fingerprint": "{path}"' in lines


def test_names_out_of_date_are_shown_but_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schema = tmp_path / "hero.schema.json"
    recorded = Codec.auto(HERO).schema()
    recorded["payloads"]["Hero.Dead"][0]["field"] = "respawn"  # renamed since: same bits
    schema.write_text("\ufeff" + json.dumps(recorded), encoding="utf-8")  # with a BOM
    status, out, _ = run(capsys, "net", "schema", HERO_ALIVE, "--check", str(schema))
    assert status == EXIT_OK
    assert "the wire format is unchanged (fingerprint" in out.splitlines()[0]
    assert '-        "field": "respawn",' in out
    assert '+        "field": "respawn_at",' in out


SCHEMA_OF_WRONG_KINDS = json.dumps({**Codec.auto(HERO).schema(), "places": "garbage"})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the schema file"),
        ("{not json", "is not a schema file (not JSON:"),
        ("[1, 2]", "is not a schema file (a JSON object with a format, a fingerprint and"),
        ('{"header": "path"}', "is not a schema file (a JSON object with a format, a"),
        ('{"fingerprint": "' + Codec.auto(HERO).fingerprint + '"}', "is not a schema file"),
        (SCHEMA_OF_WRONG_KINDS, "is not a schema file (a JSON object with a format, a"),
        ("[" * 100_000 + "]" * 100_000, "is not a schema file (not JSON: it nests too deeply)"),
        ('{"fingerprint": 1%s}' % ("0" * 5000), "(not JSON: an integer of 5,001 characters"),
    ],
)
def test_a_schema_file_that_cannot_be_read_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, message: str
) -> None:
    schema = tmp_path / "hero.schema.json"
    if content is not None:
        schema.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "net", "schema", HERO_ALIVE, "--check", str(schema))
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith(f"statetree: error: {str(schema)!r} " if content else "statetree: error:")
    assert message in err


def test_targets_name_codecs_definitions_states_or_charts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    codec = json.loads(run(capsys, "net", "schema", "net_character:CODEC")[1])
    assert codec["machine"] == "CharacterStates.Alive"
    bitmask = json.loads(run(capsys, "net", "schema", "bitmask_player:PLAYER_STATES")[1])
    assert bitmask["header"] == {"mode": "rank", "bits": 5, "configurations": 27, "minimum_bits": 5}
    chart = str(EXAMPLES / "charts" / "combo_attack.yaml")
    registry = str(EXAMPLES / "charts" / "game.py")
    status, out, _ = run(capsys, "net", "schema", chart, "--registry", registry)
    assert status == EXIT_OK
    assert json.loads(out)["places"]["top"] == {"Character": 0}


def test_a_chart_needs_no_registry_for_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    chart = str(EXAMPLES / "charts" / "combo_attack.yaml")  # host actions: play_animation...
    registry = str(EXAMPLES / "charts" / "game.py")

    alone = run(capsys, "net", "schema", chart)
    checked = run(capsys, "net", "schema", chart, "--registry", registry)

    assert alone == checked and alone[0] == EXIT_OK


def test_a_registry_for_a_code_target_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    registry = str(EXAMPLES / "charts" / "game.py")

    status, out, err = run(capsys, "net", "schema", "net_character:CODEC", "--registry", registry)

    assert (status, out) == (EXIT_USAGE, "")
    assert err == (
        "statetree: error: --registry is for chart files; 'net_character:CODEC' is not one\n"
    )


def test_a_module_with_one_bitmask_definition_is_its_machine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rules = "{'A': {'requires': ['B']}, 'B': {}}"
    Path("rules.py").write_text(
        "from statetree.bitmask import BitmaskDefinition\n"
        f"X = BitmaskDefinition.from_data({rules}, name='X')\n"
    )
    whole, named = (
        run(capsys, "net", "schema", "rules.py"),
        run(capsys, "net", "schema", "rules.py:X"),
    )
    assert whole == named and whole[0] == EXIT_OK
    assert json.loads(whole[1])["header"]["mode"] == "rank"


def test_a_target_that_names_no_machine_says_what_to_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "net", "schema", "net_samples")
    assert status == EXIT_USAGE
    assert err.startswith("statetree: error: 'net_samples' defines ")
    assert "name one, or the codec the program builds, as MODULE:NAME" in err
    status, _, err = run(capsys, "net", "schema", "net_samples:HERO")
    assert err == (
        "statetree: error: 'net_samples:HERO' is a Structure: name a codec, a bitmask "
        "definition or an initial state class\n"
    )


def test_check_warns_a_networked_machine_that_relies_on_the_derived_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "check", "net_samples:Hero.Alive")
    assert status == EXIT_OK
    assert out.count("[derived-order]") == 3
    assert '@children("Locomotion", "Jump") on Hero.Alive [derived-order]' in out
    assert run(capsys, "check", "net_samples:Hero.Alive", "--strict")[0] == EXIT_FAILED
    assert "[derived-order]" not in run(capsys, "check", "net_character:CharacterStates.Alive")[1]


@pytest.mark.parametrize("where", ["missing/hero.schema.json", "."])
def test_a_schema_that_cannot_be_written_is_one_line_and_keeps_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    reason = os.strerror(errno.ENOENT if where != "." else errno.EISDIR)

    status, out, err = run(capsys, "net", "schema", HERO_ALIVE, "-o", where)

    assert (status, out) == (EXIT_USAGE, "")
    assert err == f"statetree: error: cannot write {where!r}: {reason}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_a_schema_path_that_is_no_regular_file_or_too_large_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # reading it would wait for a writer forever
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_SCHEMA_SIZE + 1))
    for path, message in ((pipe, "not a regular file"), (big, "larger than 16,777,216 bytes")):
        status, out, err = run(capsys, "net", "schema", HERO_ALIVE, "--check", str(path))
        assert (status, out) == (EXIT_USAGE, "")
        assert err.startswith("statetree: error: ") and message in err


def test_a_name_the_terminal_cannot_encode_is_printed_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schema = tmp_path / "hero.schema.json"
    lone = {**Codec.auto(HERO).schema(), "fingerprint": "\ud800"}  # a lone surrogate
    schema.write_text(json.dumps(lone), encoding="utf-8")
    status, out, _ = run(capsys, "net", "schema", HERO_ALIVE, "--check", str(schema))
    assert status == EXIT_FAILED
    assert "fingerprint \\ud800 in the file" in out
