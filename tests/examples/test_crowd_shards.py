"""The crowd example on shards prints the states the crowd in one process prints."""

from __future__ import annotations

import contextlib
import io
import re
import sys

import crowd
import pytest

from statetree.errors import UsageError


def run(*argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        crowd.main(["--agents", "3000", "--seconds", "2", *argv])
    # The frame costs differ from run to run; the states and animations may not.
    cost = re.compile(r"\s+[\d.]+ ms \(\d+ ns/agent\)$")
    return [cost.sub("", line) for line in out.getvalue().splitlines()]


def test_two_shards_play_the_crowd_as_one_process(ray_cluster: None) -> None:
    alone, sharded = run(), run("--shards", "2")
    assert sharded[0] == "3,000 characters, 60 frames per simulated second, 2 shards"
    assert sharded[1:] == alone[1:]
    assert len(alone) == 5 and alone[-1].startswith("  animations playing: Idle ")


def test_a_shard_count_below_one_is_refused_by_the_library() -> None:
    with pytest.raises(UsageError, match="at least 1 shard, got -1"):
        crowd.main(["--agents", "10", "--shards", "-1"])


def test_shards_without_ray_say_in_one_line_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as where Ray is not installed
    with pytest.raises(SystemExit) as ended:
        crowd.main(["--agents", "10", "--shards", "2"])
    assert str(ended.value).endswith(
        "needs ray: pip install '.[shard]' in the statetree folder (the shard extra)"
    )
