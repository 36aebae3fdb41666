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

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.inspect.adaptation import adapt as adapt
    from statetree.inspect.adaptation import capabilities as capabilities
    from statetree.inspect.adapters import CountsAgents as CountsAgents
    from statetree.inspect.adapters import DecodedPacket as DecodedPacket
    from statetree.inspect.adapters import DecodesPackets as DecodesPackets
    from statetree.inspect.adapters import DiagramView as DiagramView
    from statetree.inspect.adapters import EditsSource as EditsSource
    from statetree.inspect.adapters import Event as Event
    from statetree.inspect.adapters import Explained as Explained
    from statetree.inspect.adapters import Explains as Explains
    from statetree.inspect.adapters import Flag as Flag
    from statetree.inspect.adapters import FlagsView as FlagsView
    from statetree.inspect.adapters import InspectError as InspectError
    from statetree.inspect.adapters import MachineView as MachineView
    from statetree.inspect.adapters import Note as Note
    from statetree.inspect.adapters import PacketField as PacketField
    from statetree.inspect.adapters import PopulationView as PopulationView
    from statetree.inspect.adapters import PreparedEdit as PreparedEdit
    from statetree.inspect.adapters import ReceivesEvents as ReceivesEvents
    from statetree.inspect.adapters import RunsLater as RunsLater
    from statetree.inspect.adapters import ShowsValues as ShowsValues
    from statetree.inspect.adapters import Trigger as Trigger
    from statetree.inspect.adapters import Value as Value
    from statetree.inspect.adapters import WatchedMachine as WatchedMachine
    from statetree.inspect.batch_adapter import ChartAgentAdapter as ChartAgentAdapter
    from statetree.inspect.batch_adapter import ChartBatchAdapter as ChartBatchAdapter
    from statetree.inspect.bitmask_adapter import BitmaskAdapter as BitmaskAdapter
    from statetree.inspect.chart_adapter import ChartAdapter as ChartAdapter
    from statetree.inspect.chart_adapter import EditableChartAdapter as EditableChartAdapter
    from statetree.inspect.chart_file import ChartFile as ChartFile
    from statetree.inspect.class_adapter import StateMachineAdapter as StateMachineAdapter
    from statetree.inspect.hub import Hub as Hub
    from statetree.inspect.net_adapter import NetMachineAdapter as NetMachineAdapter
    from statetree.inspect.protocol import COMMANDS as COMMANDS
    from statetree.inspect.protocol import Command as Command
    from statetree.inspect.protocol import ProtocolError as ProtocolError
    from statetree.inspect.protocol import parse_message as parse_message
    from statetree.inspect.serving import DEFAULT_HOST as DEFAULT_HOST
    from statetree.inspect.serving import DEFAULT_PORT as DEFAULT_PORT
    from statetree.inspect.serving import Inspector as Inspector
    from statetree.inspect.serving import ServeError as ServeError
    from statetree.inspect.serving import serve as serve

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.inspect.adaptation": ("adapt", "capabilities"),
        "statetree.inspect.adapters": (
            "CountsAgents",
            "DecodedPacket",
            "DecodesPackets",
            "DiagramView",
            "EditsSource",
            "Event",
            "Explained",
            "Explains",
            "Flag",
            "FlagsView",
            "InspectError",
            "MachineView",
            "Note",
            "PacketField",
            "PopulationView",
            "PreparedEdit",
            "ReceivesEvents",
            "RunsLater",
            "ShowsValues",
            "Trigger",
            "Value",
            "WatchedMachine",
        ),
        "statetree.inspect.batch_adapter": ("ChartAgentAdapter", "ChartBatchAdapter"),
        "statetree.inspect.bitmask_adapter": ("BitmaskAdapter",),
        "statetree.inspect.chart_adapter": ("ChartAdapter", "EditableChartAdapter"),
        "statetree.inspect.chart_file": ("ChartFile",),
        "statetree.inspect.class_adapter": ("StateMachineAdapter",),
        "statetree.inspect.hub": ("Hub",),
        "statetree.inspect.net_adapter": ("NetMachineAdapter",),
        "statetree.inspect.protocol": ("COMMANDS", "Command", "ProtocolError", "parse_message"),
        "statetree.inspect.serving": (
            "DEFAULT_HOST",
            "DEFAULT_PORT",
            "Inspector",
            "ServeError",
            "serve",
        ),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
