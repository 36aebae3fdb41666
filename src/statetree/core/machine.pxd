# For Cython only: the machine's work as an extension type that Python classes subclass.

cimport cython

from statetree.core.options cimport Options
from statetree.core.settle cimport apply
from statetree.core.transition cimport Transition


cdef class MachineCore(Options):
    @cython.locals(stack=list, changes=Py_ssize_t, plain=Py_ssize_t, last=Py_ssize_t,
                   index=Py_ssize_t,
                   chosen=Transition)
    cpdef process_state_transitions(self)
