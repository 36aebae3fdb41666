/* The transition helpers st.sibling, st.inner and st.inner_entry as C functions, for the
   compiled core.

   Called without arguments, each returns the transition shared by every such call, kept on
   the target class (Target._st_sibling...). A game's transition() calls them several times
   a frame, and the compiled Python functions cost most of that in the call itself: mypyc
   parses *args and **kwargs into a new tuple and a new dict on every call. These functions
   return the shared transition when the call names only the target and the class already
   holds one, and hand every other call (arguments, a first use, a wrong target) to the
   Python function, so what is returned and what is raised stay that function's. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define HELPERS 3

static PyObject *python_helpers[HELPERS]; /* the Python functions, set by install() */
static PyObject *attributes[HELPERS];     /* where each keeps its shared transitions */
static PyObject *installed = NULL;        /* the tuple install() returned */

static PyObject *
shared_or_call(int which, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs == 1 && kwnames == NULL && PyType_Check(args[0])) {
        /* A borrowed reference, and no exception set when the class has none. */
        PyObject *shared = _PyType_Lookup((PyTypeObject *)args[0], attributes[which]);
        if (shared != NULL && shared != Py_None) {
            Py_INCREF(shared);
            return shared;
        }
    }
    return PyObject_Vectorcall(python_helpers[which], args, nargs, kwnames);
}

static PyObject *
sibling(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return shared_or_call(0, args, nargs, kwnames);
}

static PyObject *
inner(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return shared_or_call(1, args, nargs, kwnames);
}

static PyObject *
inner_entry(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return shared_or_call(2, args, nargs, kwnames);
}

/* Their docstrings are the Python functions', set by install(). */
static PyMethodDef helper_defs[HELPERS] = {
    {"sibling", (PyCFunction)(void (*)(void))sibling, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"inner", (PyCFunction)(void (*)(void))inner, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"inner_entry", (PyCFunction)(void (*)(void))inner_entry, METH_FASTCALL | METH_KEYWORDS,
     NULL},
};

static const char *const attribute_names[HELPERS] = {
    "_st_sibling", "_st_inner", "_st_inner_entry"};

/* "name(target, /, *args, **kwargs)\n--\n\n" and the Python docstring, kept for good (the
   functions made from the definitions point to it), so that help() and inspect.signature
   show what they show for the Python function. */
static const char *
docstring(const char *name, PyObject *function)
{
    PyObject *doc = PyObject_GetAttrString(function, "__doc__");
    if (doc == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(doc)) { /* no docstring (python -OO) */
        Py_SETREF(doc, PyUnicode_FromString(""));
        if (doc == NULL) {
            return NULL;
        }
    }
    PyObject *text = PyUnicode_FromFormat("%s(target, /, *args, **kwargs)\n--\n\n%U", name, doc);
    Py_DECREF(doc);
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    char *kept = utf8 == NULL ? NULL : PyMem_Malloc(size + 1);
    if (kept != NULL) {
        memcpy(kept, utf8, size + 1);
    }
    else if (utf8 != NULL) {
        PyErr_NoMemory();
    }
    Py_DECREF(text);
    return kept;
}

PyDoc_STRVAR(install_doc,
             "install(sibling, inner, inner_entry, module)\n--\n\n"
             "The C versions of the three Python helpers, as a tuple, their __module__ set to "
             "module. The first call makes them; a later one returns the same.");

static PyObject *
install(PyObject *module, PyObject *args)
{
    PyObject *functions[HELPERS], *owner;
    if (!PyArg_ParseTuple(args, "OOOU:install", &functions[0], &functions[1], &functions[2],
                          &owner)) {
        return NULL;
    }
    if (installed != NULL) {
        Py_INCREF(installed);
        return installed;
    }
    PyObject *made = PyTuple_New(HELPERS);
    if (made == NULL) {
        return NULL;
    }
    for (int which = 0; which < HELPERS; which++) {
        if (!PyCallable_Check(functions[which])) {
            PyErr_Format(PyExc_TypeError, "install() needs callables, got %R", functions[which]);
            goto fail;
        }
        if (attributes[which] == NULL) {
            attributes[which] = PyUnicode_InternFromString(attribute_names[which]);
            if (attributes[which] == NULL) {
                goto fail;
            }
        }
        if (helper_defs[which].ml_doc == NULL) {
            helper_defs[which].ml_doc = docstring(helper_defs[which].ml_name, functions[which]);
            if (helper_defs[which].ml_doc == NULL) {
                goto fail;
            }
        }
        Py_INCREF(functions[which]);
        Py_XSETREF(python_helpers[which], functions[which]);
        PyObject *helper = PyCFunction_NewEx(&helper_defs[which], module, owner);
        if (helper == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(made, which, helper);
    }
    installed = made;
    Py_INCREF(installed);
    return installed;
fail:
    Py_DECREF(made);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"install", install, METH_VARARGS, install_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "statetree._native_transitions",
    "st.sibling, st.inner and st.inner_entry in C, for the compiled core.",
    -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__native_transitions(void)
{
    return PyModule_Create(&module_def);
}
