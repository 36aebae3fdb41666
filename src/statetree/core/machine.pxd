# For Cython only: the machine's work as an extension type that Python classes subclass.

cimport cython

from statetree.core.options cimport Extras, Options


cdef class MachineCore(Options):
    cdef public list _stack
    cdef public object owner
    cdef public object _busy
    cdef object __weakref__

    @cython.locals(stack=list, changes=Py_ssize_t, last=Py_ssize_t, index=Py_ssize_t)
    cpdef process_state_transitions(self)
