# For Cython only: the performers of a chart's actions as extension types.

cimport cython

from statetree.chart.runtime cimport ChartRuntime


cdef class Performer:
    cdef public object call
    cdef public Py_ssize_t index

    cpdef perform(self, state, ChartRuntime runtime)


cdef class HostAction(Performer):
    cdef public Py_ssize_t slot

    cpdef perform(self, state, ChartRuntime runtime)


cdef class StartTimer(Performer):
    cdef public object delay
    cdef public object event

    cpdef perform(self, state, ChartRuntime runtime)


cdef class RaiseEvent(Performer):
    cdef public object event

    cpdef perform(self, state, ChartRuntime runtime)


cdef class ClearHistory(Performer):
    cpdef perform(self, state, ChartRuntime runtime)


@cython.locals(performer=Performer)
cpdef perform_all(tuple performers, state, ChartRuntime runtime)
