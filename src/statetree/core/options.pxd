# For Cython only: the machine's data and its optional part as extension types.

cdef class Extras:
    cdef public object cause
    cdef public object tracer
    cdef public object sink
    cdef public dict overrides
    cdef public dict regions
    cdef public dict saved
    cdef public object max_transitions
    cdef public list events
    cdef public object timers


cdef class Options:
    cdef public list _stack
    cdef public object _owner
    cdef public unsigned long _busy
    cdef public Extras _extras
    cdef public object _start
    cdef object __weakref__
