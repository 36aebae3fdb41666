# For Cython only: the C types of the chart states' hooks and transition functions.

cimport cython

from statetree.chart.actions cimport perform_all
from statetree.chart.conditions cimport Compiled
from statetree.chart.runtime cimport ChartRuntime


cdef class Hooks:
    cdef public Py_ssize_t id
    cdef public Py_ssize_t parent_id
    cdef public Py_ssize_t index
    cdef public tuple enter
    cdef public tuple exit


@cython.locals(runtime=ChartRuntime, hooks=Hooks, parent_id=Py_ssize_t, before=Py_ssize_t)
cpdef enter_state(state)

@cython.locals(hooks=Hooks)
cpdef exit_state(state)

@cython.locals(runtime=ChartRuntime)
cpdef unlink(state)

@cython.locals(runtime=ChartRuntime, post=Compiled, base=Py_ssize_t, entry=Py_ssize_t)
cpdef bint done(state) except -1

@cython.locals(runtime=ChartRuntime, base=Py_ssize_t, entry=Py_ssize_t,
               threshold=Py_ssize_t, latched=list, index=Py_ssize_t, condition=Compiled)
cpdef fire(state)
