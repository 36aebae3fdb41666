"""Ray for sharded batches: connecting to a cluster, and the actors that hold shards.

Ray is imported only here and only when a pool is made (the ``shard`` extra installs it).
"""

from __future__ import annotations

import importlib
import os
import socket
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from statetree.chart.batch.arguments import count_of
from statetree.chart.shard.actor import ShardActor
from statetree.chart.shard.errors import ShardError
from statetree.errors import UsageError

__all__ = ["ShardPool", "connect", "start_local"]

PROBE_SECONDS = 5.0
"""How long to wait for a cluster's address to answer before calling it unreachable."""


def _ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(
            "statetree.chart.ShardedBatch needs Ray: install it with pip install 'statetree[shard]'"
        ) from error


def connect(address: str | None, cpus: int) -> None:
    """Connect this process to the Ray cluster at ``address`` (``None``: the one it is
    connected to, the one ``RAY_ADDRESS`` names, or a new local one with at least ``cpus``
    CPUs).

    Raises:
        ShardError: nothing answers at ``address``, or Ray cannot connect to it.
        UsageError: ``address`` is malformed, or this process is connected to another
            cluster.
    """
    if address is not None:
        _probe(address)
    loaded = sys.modules.get("ray")  # not imported yet: see start_local
    if loaded is not None and loaded.is_initialized():
        current = loaded.get_runtime_context().gcs_address
        if address is not None and address not in (current, "auto"):
            raise UsageError(
                f"this process is already connected to the Ray cluster at {current}: leave "
                f"address out to use it (or call ray.shutdown() first), not {address!r}"
            )
        return
    if address is None and not os.environ.get("RAY_ADDRESS"):
        start_local(max(os.cpu_count() or 1, cpus))
        return
    try:
        _ray().init(address=address)
    except Exception as error:
        raise ShardError(f"cannot connect to a Ray cluster at {address!r}: {error}") from error


# Ray's dashboard asks cloud metadata servers which cloud it runs on, whatever the usage
# statistics setting; through a proxy on a closed loopback port that request fails at once.
_ON_THIS_MACHINE = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # every address of the cluster on loopback
    "http_proxy": "http://127.0.0.1:9",
    "https_proxy": "http://127.0.0.1:9",
    "no_proxy": "localhost,127.0.0.1,::1",
}


def start_local(
    cpus: int, *, object_store_memory: int | None = None, log_to_driver: bool = True
) -> None:
    """Start a Ray cluster on this machine alone, for this process.

    It sends no usage statistics and makes no request off the machine, and it listens on
    the loopback address only when this process had not imported Ray before (Ray reads
    that setting once, when imported); its workers import modules as this process does
    (they get its ``sys.path``). This process's ``print`` stays the built-in one (Ray would
    replace it to draw progress bars, unless ``RAY_TQDM_PATCH_PRINT`` says otherwise).
    This is the cluster a batch starts when given no address.

    Args:
        cpus: the CPUs it offers actors (logical: more than the machine has is fine).
        object_store_memory: the bytes of its object store (Ray's default: 30% of memory).
        log_to_driver: print what the cluster's workers print, and Ray's own warnings, in
            this process (Ray's default). A program whose output is read line by line (a
            server's log, a tool's messages) can leave them in the cluster's log files.

    Raises:
        ShardError: Ray could not start.
    """
    os.environ.setdefault("RAY_TQDM_PATCH_PRINT", "0")  # read whenever a worker prints
    saved = dict(os.environ)
    os.environ.update(_ON_THIS_MACHINE, PYTHONPATH=os.pathsep.join(sys.path))
    try:  # the cluster's processes inherit the environment when they start
        _ray().init(
            address="local",
            num_cpus=cpus,
            include_dashboard=False,
            object_store_memory=object_store_memory,
            log_to_driver=log_to_driver,
        )
    except Exception as error:
        raise ShardError(f"cannot start a local Ray cluster: {error}") from error
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _probe(address: str) -> None:
    """Refuse an address where nothing listens, at once rather than after Ray's retries."""
    if address in ("auto", "local"):
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(
            f"a Ray cluster address is host:port (or ray://host:port), not {address!r}"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as error:
        raise ShardError(f"cannot reach a Ray cluster at {address!r}: {error}") from None


class ShardPool:
    """Ray actors ready to hold the shards of a batch, one actor a shard.

    A :class:`ShardedBatch` given a number of shards makes its own pool and ends it when it
    closes; given a pool, it borrows its actors and hands them back on ``close()``, so that
    the next batch (the next episode, the next test) starts without starting processes.

    Args:
        count: how many actors (shards).
        address: the Ray cluster (see :func:`connect`).
        actor_options: Ray's options for each actor (``num_cpus``, ``resources``,
            ``scheduling_strategy``...); by default each actor takes one CPU.
        timeout: seconds to wait for the actors to start.

    Raises:
        UsageError: ``count`` is below 1, ``timeout`` is not above 0, or Ray refuses
            ``actor_options``.
        ShardError: the cluster cannot be reached, or the actors did not start in time.
    """

    def __init__(
        self,
        count: int,
        *,
        address: str | None = None,
        actor_options: Mapping[str, Any] | None = None,
        timeout: float = 120.0,
    ) -> None:
        if count_of(count, "a sharded batch needs at least 1 shard") < 1:
            raise UsageError(f"a sharded batch needs at least 1 shard, got {count}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise UsageError(f"timeout must be a number of seconds above 0, got {timeout!r}")
        if actor_options is not None and not isinstance(actor_options, Mapping):
            raise UsageError(
                f"actor_options must be a mapping of Ray's options, got {actor_options!r}"
            )
        self._ray = _ray()
        self._options = {"num_cpus": 1, **(actor_options or {})}
        self._remote = self._ray.remote(ShardActor)
        try:  # Ray checks the options here, before a cluster or an actor starts
            self._remote.options(**self._options)
        except (TypeError, ValueError) as error:
            raise UsageError(f"Ray refused actor_options {self._options}: {error}") from None
        connect(address, count)
        self.timeout = timeout
        self.actors: list[Any] = [self._start() for _ in range(count)]
        self.user: str | None = None
        """The name of the batch using the pool, if one is."""
        self._ready(range(count))

    def __len__(self) -> int:
        return len(self.actors)

    def _start(self) -> Any:
        return self._remote.options(**self._options).remote()

    def _ready(self, indexes: Iterable[int]) -> None:
        """Wait until the actors ``indexes`` run.

        Raises:
            ShardError: one did not start within ``timeout`` seconds (all are ended).
        """
        ray = self._ray
        calls = [self.actors[index].ping.remote() for index in indexes]
        _, waiting = ray.wait(calls, num_returns=len(calls), timeout=self.timeout)
        try:
            if waiting:
                raise ShardError(
                    f"{len(waiting)} shard actors did not start within {self.timeout:g} s: "
                    f"the cluster lacks room for actors with {self._options} (give the pool "
                    "other actor_options, or the cluster more CPUs)"
                )
            ray.get(calls)
        except ShardError:
            self.close()
            raise
        except Exception as error:
            self.close()
            raise ShardError(f"a shard actor failed to start: {error}") from error

    def replace(self, index: int) -> None:
        """End actor ``index`` (if it still runs) and start a new one in its place."""
        self._ray.kill(self.actors[index], no_restart=True)
        self.actors[index] = self._start()
        self._ready([index])

    def close(self) -> None:
        """End every actor."""
        for actor in self.actors:
            self._ray.kill(actor, no_restart=True)
        self.actors = []

    def __enter__(self) -> ShardPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
