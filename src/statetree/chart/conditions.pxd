# For Cython only: compiled conditions as extension types.

from statetree.chart.runtime cimport ChartRuntime


cdef class Compiled:
    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1


cdef class Latched(Compiled):
    cdef public Py_ssize_t index

    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1


cdef class Level(Compiled):
    cdef public Py_ssize_t index

    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1


cdef class All(Compiled):
    cdef public tuple items

    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1


cdef class Any_(Compiled):
    cdef public tuple items

    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1


cdef class Not(Compiled):
    cdef public Compiled item

    cpdef bint holds(self, ChartRuntime runtime, Py_ssize_t threshold) except -1
