# For Cython only: StateCore as an extension type that Python classes subclass.

cdef class StateCore:
    cdef public object owner
    cdef public object machine
    cdef object __weakref__
