"""The live inspector: a web page showing running machines, their steps and their bytes.

.. code-block:: python

    import statetree as st

    inspector = st.inspect.serve([hero.machine, player.machine])
    print("inspector at", inspector.url)
    while running:
        if inspector.frame():       # False while the page has paused the program
            world.tick(dt)
    inspector.stop()

The server (Starlette and uvicorn, the ``inspect`` extra) runs in a background thread and
is imported only by :func:`serve`. Machines plug in through adapters (:func:`adapt`); a
machine no page watches carries no listener. ``adapt(machine, codec=codec)`` adds the
packets of a machine replicated with a ``statetree.net`` codec, decoded field by field.
"""

from __future__ import annotations

from statetree.inspect.adapt import adapt, capabilities
from statetree.inspect.adapters import (
    CountsAgents,
    DecodedPacket,
    DecodesPackets,
    DiagramView,
    EditsSource,
    Event,
    Explained,
    Explains,
    Flag,
    FlagsView,
    InspectError,
    MachineView,
    Note,
    PacketField,
    PopulationView,
    PreparedEdit,
    ReceivesEvents,
    RunsLater,
    ShowsValues,
    Trigger,
    Value,
    WatchedMachine,
)
from statetree.inspect.batch_adapter import ChartAgentAdapter, ChartBatchAdapter
from statetree.inspect.bitmask_adapter import BitmaskAdapter
from statetree.inspect.chart_adapter import ChartAdapter, EditableChartAdapter
from statetree.inspect.chart_file import ChartFile
from statetree.inspect.class_adapter import StateMachineAdapter
from statetree.inspect.hub import Hub
from statetree.inspect.net_adapter import NetMachineAdapter
from statetree.inspect.protocol import COMMANDS, Command, ProtocolError, parse_message
from statetree.inspect.serve import DEFAULT_HOST, DEFAULT_PORT, Inspector, ServeError, serve

__all__ = [
    "COMMANDS",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "BitmaskAdapter",
    "ChartAdapter",
    "ChartAgentAdapter",
    "ChartBatchAdapter",
    "ChartFile",
    "Command",
    "CountsAgents",
    "DecodedPacket",
    "DecodesPackets",
    "DiagramView",
    "EditableChartAdapter",
    "EditsSource",
    "Event",
    "Explained",
    "Explains",
    "Flag",
    "FlagsView",
    "Hub",
    "InspectError",
    "Inspector",
    "MachineView",
    "NetMachineAdapter",
    "Note",
    "PacketField",
    "PopulationView",
    "PreparedEdit",
    "ProtocolError",
    "ReceivesEvents",
    "RunsLater",
    "ServeError",
    "ShowsValues",
    "StateMachineAdapter",
    "Trigger",
    "Value",
    "WatchedMachine",
    "adapt",
    "capabilities",
    "parse_message",
    "serve",
]
