# For Cython only: a running chart's data as extension types.

cdef class Timer:
    cdef public object event
    cdef public object due
    cdef public object owner
    cdef public bint alive


cdef class ChartRuntime:
    cdef public Py_ssize_t serial
    cdef public Py_ssize_t base
    cdef public object clock
    cdef public Py_ssize_t sequence
    cdef public bint processing
    cdef public object listener
    cdef public set held
    cdef public list timers
    cdef public Py_ssize_t dead
    cdef public object compiled
    cdef public list handlers
    cdef public tuple calls
    cdef public dict edges
    cdef public list latched
    cdef public list levels
    cdef public list live
    cdef public list history

    cpdef latch(self, event)
    cpdef cancel(self, Timer timer)
