# For Cython only: the settle loop's C types.

cimport cython

from statetree.core.machine cimport MachineCore
from statetree.core.options cimport Extras
from statetree.core.state cimport StateCore


@cython.locals(extras=Extras, quiet=Py_ssize_t, stack=list)
cpdef settle(MachineCore machine, Py_ssize_t changes)

cpdef apply(MachineCore machine, list home, Py_ssize_t index, Py_ssize_t depth, chosen)

@cython.locals(extras=Extras, changed=Extras, states=list)
cpdef pop_to(MachineCore machine, list home, Py_ssize_t size)

@cython.locals(extras=Extras, state=StateCore, hooks=long)
cpdef enter(MachineCore machine, list home, chosen, Py_ssize_t depth, step)

@cython.locals(states=list, last=Py_ssize_t, index=Py_ssize_t)
cpdef next_change(list main, regions, Py_ssize_t base)
