/* Docstrings for the compiled core's methods, functions and properties.

   mypyc leaves docstrings out: a compiled method's or function's doc is its text signature
   alone ("name($self, x)\n--\n\n", which inspect.signature reads), a property's is none.
   Python cannot set them (CPython reads them from the PyMethodDef and PyGetSetDef tables the
   compiler wrote), so document(target, docstring) points the table entry to a kept copy of
   the signature followed by the docstring: help() and inspect.getdoc() show the source's
   docstring, and inspect.signature() reads the same signature as before. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SIGNATURE_END "\n--\n\n"

/* prefix followed by docstring, kept for good (the table entry points to it). */
static const char *
kept_copy(const char *prefix, Py_ssize_t prefix_size, PyObject *docstring)
{
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(docstring, &size);
    if (text == NULL) {
        return NULL;
    }
    char *kept = PyMem_RawMalloc(prefix_size + size + 1);
    if (kept == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(kept, prefix, prefix_size);
    memcpy(kept + prefix_size, text, size + 1);
    return kept;
}

/* Whether doc holds nothing but a text signature (or nothing at all). */
static int
undocumented(const char *doc)
{
    if (doc == NULL || doc[0] == '\0') {
        return 1;
    }
    size_t size = strlen(doc), end = strlen(SIGNATURE_END);
    return size > end && strcmp(doc + size - end, SIGNATURE_END) == 0 && strchr(doc, '(') != NULL;
}

/* A PyMethodDef's doc: its signature (when it has one), then the docstring. */
static int
document_method(PyMethodDef *definition, PyObject *docstring)
{
    const char *current = definition->ml_doc;
    if (!undocumented(current)) {
        return 0;
    }
    const char *kept = kept_copy(current == NULL ? "" : current,
                                 current == NULL ? 0 : (Py_ssize_t)strlen(current), docstring);
    if (kept == NULL) {
        return -1;
    }
    definition->ml_doc = kept;
    return 1;
}

static int
document_property(PyGetSetDef *definition, PyObject *docstring)
{
    if (definition->doc != NULL && definition->doc[0] != '\0') {
        return 0;
    }
    const char *kept = kept_copy("", 0, docstring);
    if (kept == NULL) {
        return -1;
    }
    definition->doc = kept;
    return 1;
}

PyDoc_STRVAR(document_doc,
             "document(target, docstring, /)\n--\n\n"
             "Give the compiled method, class method, function or property target the "
             "docstring, after its text signature; True if done. Nothing for any other object "
             "or one that has a docstring already (False).");

static PyObject *
document(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "document() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *target = args[0], *docstring = args[1];
    if (!PyUnicode_Check(docstring)) {
        PyErr_Format(PyExc_TypeError, "document() needs a str docstring, got %R", docstring);
        return NULL;
    }
    int done = 0;
    /* Exact types only: a subclass could keep its doc elsewhere. */
    if (Py_IS_TYPE(target, &PyMethodDescr_Type) || Py_IS_TYPE(target, &PyClassMethodDescr_Type)) {
        done = document_method(((PyMethodDescrObject *)target)->d_method, docstring);
    }
    else if (Py_IS_TYPE(target, &PyCFunction_Type)) {
        done = document_method(((PyCFunctionObject *)target)->m_ml, docstring);
    }
    else if (Py_IS_TYPE(target, &PyGetSetDescr_Type)) {
        done = document_property(((PyGetSetDescrObject *)target)->d_getset, docstring);
    }
    if (done < 0) {
        return NULL;
    }
    return PyBool_FromLong(done);
}

static PyMethodDef module_methods[] = {
    {"document", (PyCFunction)(void (*)(void))document, METH_FASTCALL, document_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "statetree._native_docs",
    "The compiled core's docstrings, which mypyc leaves out, given back.",
    -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__native_docs(void)
{
    return PyModule_Create(&module_def);
}
