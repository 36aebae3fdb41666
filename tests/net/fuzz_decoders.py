"""Coverage-guided fuzzing of the decoders with atheris (optional, not run by the tests).

Usage: ``pip install atheris``, then from ``tests/net``::

    python fuzz_decoders.py FINDINGS_DIR -max_total_time=120 -max_len=24

The first byte of each input chooses a corpus folder's decoder (see ``test_net_corpus``), the
rest is the packet. A packet must either raise ``DecodeError`` or decode to a value that
encodes back to exactly the same bytes; anything else is a finding. Copy interesting minimised
inputs (without their first byte) into ``corpus/<folder>/`` and record their outcomes with
``python test_net_corpus.py --regenerate``.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from test_net_corpus import ROUND_TRIPS

    from statetree.errors import DecodeError

FOLDERS = sorted(ROUND_TRIPS)


def check(data: bytes) -> None:
    """Fail unless ``data[1:]`` is refused or round-trips through its decoder."""
    if not data:
        return
    decode, encode = ROUND_TRIPS[FOLDERS[data[0] % len(FOLDERS)]]
    packet = data[1:]
    try:
        value = decode(packet)
    except DecodeError:
        return
    assert encode(value) == packet, (packet, value)


if __name__ == "__main__":
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()
