/* What spidercli's two compiled passes (_beam.c, a pass of the beam search; _proof.c, the
 * search of the whole space) read and ask alike: a column's or a deal's cards, and the budget's
 * word (_Budget.grant in solver.py). Each includes this file after Python.h, stdint.h and
 * string.h; its functions are static, so each extension keeps its own copy and neither links to
 * the other. Cards are bytes: suit << 4 | rank (rank 1..13, suit 0..3). */
#ifndef SPIDERCLI_PASSES_H
#define SPIDERCLI_PASSES_H

/* The cards of b (bytes, at most cap of them) into to[0..*n): 0, or -1 with a TypeError or a
 * ValueError naming ``what`` ("column", "deal"). */
static int read_cards(PyObject *b, const char *what, uint8_t *to, int *n, int cap) {
    if (!PyBytes_Check(b)) {
        PyErr_Format(PyExc_TypeError, "%s: bytes expected", what);
        return -1;
    }
    const Py_ssize_t len = PyBytes_GET_SIZE(b);
    const char *buf = PyBytes_AS_STRING(b);
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        const uint8_t c = (uint8_t)buf[i];
        if ((c & 15) < 1 || (c & 15) > 13 || c >> 6) {
            PyErr_Format(PyExc_ValueError, "%s: not a card: %d", what, (int)c);
            return -1;
        }
    }
    memcpy(to, buf, (size_t)len);
    *n = (int)len;
    return 0;
}

/* The integer attribute ``name`` of o into *v: 0, or -1 with the exception. */
static int get_long(PyObject *o, const char *name, long long *v) {
    PyObject *x = PyObject_GetAttrString(o, name);
    if (!x)
        return -1;
    *v = PyLong_AsLongLong(x);
    Py_DECREF(x);
    return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

/* o.name = v: 0, or -1 with the exception. */
static int set_long(PyObject *o, const char *name, long long v) {
    PyObject *x = PyLong_FromLongLong(v);
    if (!x)
        return -1;
    int rc = PyObject_SetAttrString(o, name, x);
    Py_DECREF(x);
    return rc;
}

/* The budget's word: grant(done, 1), the positions met since it was last told and a request for
 * more. Returns how many more it allows (at least 1), or -1 with its exception (_Stop when the
 * budget is spent; a ValueError when it allows fewer than 1). */
static Py_ssize_t ask_grant(PyObject *grant, Py_ssize_t done) {
    PyObject *r = PyObject_CallFunction(grant, "ni", done, 1);
    if (!r)
        return -1;
    const Py_ssize_t more = PyLong_AsSsize_t(r);
    Py_DECREF(r);
    if (more < 1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "grant: a positive count expected");
        return -1;
    }
    return more;
}

/* The last positions counted, once a search is over (grant(done, 0): nothing more to grant).
 * Returns 0, or -1 with its exception. */
static int tell_grant(PyObject *grant, Py_ssize_t done) {
    PyObject *r = PyObject_CallFunction(grant, "ni", done, 0);
    if (!r)
        return -1;
    Py_DECREF(r);
    return 0;
}

#endif
