"""Replays the corpus of interesting packets kept in ``corpus/``: each decodes to exactly the
configuration, or fails with exactly the error, recorded in ``corpus/expected.txt``.

The packets are hand-picked edge cases plus the minimised inputs of a coverage-guided fuzzing
run over the decoders. Run this file as a script with ``--regenerate`` to record new
packets' outcomes after adding files (review the diff: it is the specification).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from net_samples import BODY, HERO, REUSE

from statetree.errors import DecodeError
from statetree.net import Codec, decode_message, encode_message

CORPUS = Path(__file__).resolve().parent / "corpus"
EXPECTED = CORPUS / "expected.txt"

CODECS = {
    "hero-path": Codec.path(HERO),
    "hero-leaf": Codec.leaf(HERO),
    "reuse-path": Codec.path(REUSE),
    "body-path": Codec.path(BODY),
}
ROUND_TRIPS: dict[str, tuple[Callable[[bytes], Any], Callable[[Any], bytes]]] = {
    **{name: (codec.decode, codec.encode_configuration) for name, codec in CODECS.items()},
    "message": (decode_message, encode_message),
}
"""Each corpus folder's decoder, and the encoder a decoded value must give the bytes back by."""


def outcome(name: str) -> str:
    """``ok <what it decodes to>`` or ``error <the message>`` for the corpus file ``name``."""
    decoder, _ = ROUND_TRIPS[name.split("/", maxsplit=1)[0]]
    try:
        return f"ok {decoder((CORPUS / name).read_bytes())}"
    except DecodeError as error:
        return f"error {error}"


def recorded() -> dict[str, str]:
    if not EXPECTED.exists():
        return {}
    lines = EXPECTED.read_text(encoding="utf-8").splitlines()
    return dict(line.split(" | ", 1) for line in lines if line)


@pytest.mark.parametrize(("name", "expected"), sorted(recorded().items()))
def test_corpus_packet_decodes_as_recorded(name: str, expected: str) -> None:
    assert outcome(name) == expected


def test_every_corpus_file_is_recorded() -> None:
    files = {str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.bin")}
    assert files == set(recorded())
    assert {name.split("/")[0] for name in files} == set(ROUND_TRIPS)


def regenerate() -> None:
    names = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.bin"))
    EXPECTED.write_text("".join(f"{name} | {outcome(name)}\n" for name in names), "utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    regenerate()
