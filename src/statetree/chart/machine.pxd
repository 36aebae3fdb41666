# For Cython only: the chart machine as an extension type.

from statetree.chart.runtime cimport ChartRuntime
from statetree.core.machine cimport MachineCore


cdef class ChartMachine:
    cdef public tuple _action_listeners
    cdef public object _compiled
    cdef public object _deferred
    cdef public tuple _event_listeners
    cdef public object _handlers
    cdef public object _on_action
    cdef public object _owner
    cdef public ChartRuntime _runtime
    cdef public MachineCore machine

    cpdef _latch(self, event)
    cpdef _process(self, event)


cpdef require_event(event, call)
