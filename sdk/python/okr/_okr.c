/* _okr.c - the rules engine (engine/, okr_engine) as a CPython extension, `okr._okr`.
 *
 * Python sees games, actions, views and results as Python objects; the engine's own structs
 * stay inside. A Game object holds one okr_game (a plain struct, so copy() is a memcpy) and a
 * cache of its legal actions, filled on the first legal() or apply(index) after a change:
 * the usual loop "list, pick, apply" lists once per state. Cards are kinds (ints 0..52,
 * suit * 13 + rank - 1, 52 the Joker) as in the protocol and the okbot SDK.
 *
 * Every refusal of the engine raises okr.Refused with the rule number and the reason.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <string.h>

#include "okr/okr.h"

/* One scratch list big enough for any position (OKR_MAX_ACTIONS, 8 MB); the GIL guards it.
 * A game keeps only the actions it lists (a few hundred at most in real play). */
static okr_action scratch[OKR_MAX_ACTIONS];

static PyObject *Refused;      /* okr.Refused(ValueError): .rule, .reason */
static PyObject *Namespace;    /* types.SimpleNamespace, for views, melds and results */
static PyTypeObject RulesType; /* forward */
static PyTypeObject GameType;
static PyTypeObject ActionType;

static const char *const type_names[] = {"",        "draw",    "take",  "meld",  "add",
                                         "replace", "discard", "claim", "knock", "pass"};

/* ---- Errors --------------------------------------------------------------------------- */

static PyObject *refuse(const okr_refusal *why)
{
    const char *rule = why->rule[0] ? why->rule : "?";
    PyObject *exc = PyObject_CallFunction(Refused, "N",
                                          PyUnicode_FromFormat("RULES %s: %s", rule, why->reason));
    if (!exc)
        return NULL;
    PyObject *r = PyUnicode_FromString(why->rule), *reason = PyUnicode_FromString(why->reason);
    if (r && reason && PyObject_SetAttrString(exc, "rule", r) == 0 &&
        PyObject_SetAttrString(exc, "reason", reason) == 0)
        PyErr_SetObject(Refused, exc);
    Py_XDECREF(r);
    Py_XDECREF(reason);
    Py_DECREF(exc);
    return NULL;
}

static PyObject *refuse_text(const char *rule, const char *reason)
{
    okr_refusal why;
    snprintf(why.rule, sizeof why.rule, "%s", rule);
    snprintf(why.reason, sizeof why.reason, "%s", reason);
    return refuse(&why);
}

/* ---- Small converters ------------------------------------------------------------------- */

static PyObject *int_list(const int32_t *v, int n)
{
    PyObject *l = PyList_New(n);
    if (!l)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(l, i, PyLong_FromLong(v[i]));
    return l;
}

static PyObject *u8_list(const uint8_t *v, int n)
{
    PyObject *l = PyList_New(n);
    if (!l)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(l, i, PyLong_FromLong(v[i]));
    return l;
}

/* A hand of counts as a list of kinds, ascending, with repeats (the protocol's form). */
static PyObject *hand_list(const uint8_t hand[OKR_KINDS])
{
    int n = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        n += hand[k];
    PyObject *l = PyList_New(n);
    if (!l)
        return NULL;
    int i = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        for (int c = 0; c < hand[k]; c++)
            PyList_SET_ITEM(l, i++, PyLong_FromLong(k));
    return l;
}

/* A card from an int kind or text ("QS"); -1 with an exception set otherwise. */
static int card_of(PyObject *o)
{
    if (PyLong_Check(o)) {
        long k = PyLong_AsLong(o);
        if (k >= 0 && k < OKR_KINDS)
            return (int)k;
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "card kind %ld is out of range 0..52", k);
        return -1;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o), *end = NULL;
        if (!s)
            return -1;
        int k = okr_card_parse(s, &end);
        if (k < 0 || !end || *end) {
            PyErr_Format(PyExc_ValueError, "not a card: '%s' (docs/notation.md)", s);
            return -1;
        }
        return k;
    }
    PyErr_SetString(PyExc_TypeError, "a card is a kind (int 0..52) or text such as 'QS'");
    return -1;
}

/* A hand given as text ("AS 2S 3S"), or an iterable of cards, into counts. 0 or -1. */
static int hand_of(PyObject *o, uint8_t hand[OKR_KINDS])
{
    memset(hand, 0, OKR_KINDS);
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        uint8_t cards[OKR_MAX_CARDS];
        okr_refusal why;
        if (!s)
            return -1;
        int n = okr_cards_parse(s, cards, OKR_MAX_CARDS, &why);
        if (n < 0) {
            PyErr_Format(PyExc_ValueError, "%s", why.reason);
            return -1;
        }
        for (int i = 0; i < n; i++)
            hand[cards[i]]++;
        return 0;
    }
    PyObject *it = PyObject_GetIter(o);
    if (!it)
        return -1;
    PyObject *x;
    int total = 0;
    while ((x = PyIter_Next(it))) {
        int k = card_of(x);
        Py_DECREF(x);
        if (k < 0 || ++total > OKR_MAX_CARDS) {
            if (k >= 0)
                PyErr_SetString(PyExc_ValueError, "more cards than the largest pack holds");
            Py_DECREF(it);
            return -1;
        }
        hand[k]++;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *ns_from_dict(PyObject *d)
{
    if (!d)
        return NULL;
    PyObject *empty = PyTuple_New(0);
    PyObject *ns = empty ? PyObject_Call(Namespace, empty, d) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(d);
    return ns;
}

/* ---- Rules -------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD okr_rules r;
} RulesObject;

/* Set every keyword option on *r (values: str, int or bool). 0 or -1 with Refused set. */
static int set_options(okr_rules *r, PyObject *kw)
{
    if (!kw)
        return 0;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kw, &pos, &key, &value)) {
        const char *name = PyUnicode_AsUTF8(key);
        if (!name)
            return -1;
        char text[32];
        if (PyBool_Check(value)) {
            snprintf(text, sizeof text, "%d", value == Py_True);
        } else if (PyLong_Check(value)) {
            long v = PyLong_AsLong(value);
            if (v == -1 && PyErr_Occurred())
                return -1;
            snprintf(text, sizeof text, "%ld", v);
        } else if (PyUnicode_Check(value)) {
            const char *s = PyUnicode_AsUTF8(value);
            if (!s)
                return -1;
            if (strlen(s) >= sizeof text) { /* no option's value is this long */
                okr_refusal why;
                snprintf(why.rule, sizeof why.rule, "option");
                snprintf(why.reason, sizeof why.reason, "%.40s: value too long", name);
                refuse(&why);
                return -1;
            }
            snprintf(text, sizeof text, "%s", s);
        } else {
            PyErr_Format(PyExc_TypeError, "option %s: a value is a str, int or bool", name);
            return -1;
        }
        okr_refusal why;
        if (okr_rules_set(r, name, text, &why) != OKR_OK) {
            refuse(&why);
            return -1;
        }
    }
    return 0;
}

static int rules_fill(okr_rules *r, const char *preset, PyObject *kw)
{
    okr_refusal why;
    if (okr_rules_preset(r, preset, &why) != OKR_OK) {
        refuse(&why);
        return -1;
    }
    return set_options(r, kw);
}

static PyObject *rules_new(const okr_rules *r)
{
    RulesObject *o = PyObject_New(RulesObject, &RulesType);
    if (o)
        o->r = *r;
    return (PyObject *)o;
}

static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    const char *preset = "gin";
    if (!PyArg_ParseTuple(args, "|s:Rules", &preset))
        return NULL;
    RulesObject *o = (RulesObject *)type->tp_alloc(type, 0);
    if (!o)
        return NULL;
    if (rules_fill(&o->r, preset, kw) < 0) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

/* Every option as a dict name -> value text, in the fixed order of docs/rules.md. */
static PyObject *rules_dict(const okr_rules *r)
{
    char buf[2048];
    if (okr_rules_format(r, buf, sizeof buf) < 0)
        return PyErr_Format(PyExc_RuntimeError, "okr_rules_format overflowed");
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    PyObject *pre = PyUnicode_FromString(r->preset);
    if (!pre || PyDict_SetItemString(d, "preset", pre) < 0) {
        Py_XDECREF(pre);
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(pre);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        PyObject *v = PyUnicode_FromString(eq + 1);
        if (!v || PyDict_SetItemString(d, tok, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

static PyObject *Rules_options(PyObject *self, PyObject *unused)
{
    (void)unused;
    return rules_dict(&((RulesObject *)self)->r);
}

static PyObject *Rules_check(PyObject *self, PyObject *args)
{
    int players;
    if (!PyArg_ParseTuple(args, "i:check", &players))
        return NULL;
    okr_refusal why;
    if (okr_rules_check(&((RulesObject *)self)->r, players, &why) != OKR_OK)
        return refuse(&why);
    Py_RETURN_NONE;
}

static PyObject *Rules_replace(PyObject *self, PyObject *args, PyObject *kw)
{
    if (!PyArg_ParseTuple(args, ":replace"))
        return NULL;
    okr_rules r = ((RulesObject *)self)->r;
    if (set_options(&r, kw) < 0)
        return NULL;
    return rules_new(&r);
}

static PyObject *Rules_str(PyObject *self)
{
    char buf[2048];
    if (okr_rules_format(&((RulesObject *)self)->r, buf, sizeof buf) < 0)
        return PyErr_Format(PyExc_RuntimeError, "okr_rules_format overflowed");
    return PyUnicode_FromString(buf);
}

static PyObject *Rules_repr(PyObject *self)
{
    return PyUnicode_FromFormat("okr.Rules('%s')", ((RulesObject *)self)->r.preset);
}

static PyObject *Rules_getattro(PyObject *self, PyObject *name)
{
    PyObject *v = PyObject_GenericGetAttr(self, name);
    if (v || !PyErr_ExceptionMatches(PyExc_AttributeError))
        return v;
    /* r.qs_discard, r.target, ...: the option's value as text */
    PyErr_Clear();
    PyObject *d = rules_dict(&((RulesObject *)self)->r);
    if (!d)
        return NULL;
    v = PyDict_GetItemWithError(d, name);
    Py_XINCREF(v);
    Py_DECREF(d);
    if (!v && !PyErr_Occurred())
        PyErr_Format(PyExc_AttributeError, "no rule option %R (see okr.option_names())", name);
    return v;
}

static PyObject *Rules_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &RulesType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    char x[2048], y[2048];
    okr_rules_format(&((RulesObject *)a)->r, x, sizeof x);
    okr_rules_format(&((RulesObject *)b)->r, y, sizeof y);
    int eq = strcmp(x, y) == 0;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *Rules_get_family(PyObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(((RulesObject *)self)->r.family == OKR_FAMILY_GIN ? "gin"
                                                                                  : "rummy");
}

static PyObject *Rules_get_pack_size(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(okr_pack_size(&((RulesObject *)self)->r));
}

static PyObject *Rules_get_players(PyObject *self, void *c)
{
    (void)c;
    const okr_rules *r = &((RulesObject *)self)->r;
    return Py_BuildValue("(ii)", r->min_players, r->max_players);
}

static PyMethodDef Rules_methods[] = {
    {"options", Rules_options, METH_NOARGS, "Every option as a dict name -> value text."},
    {"check", Rules_check, METH_VARARGS,
     "check(players): raise okr.Refused if this configuration cannot seat `players`."},
    {"replace", (PyCFunction)(void (*)(void))Rules_replace, METH_VARARGS | METH_KEYWORDS,
     "replace(**options): a copy with some options changed."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Rules_getset[] = {
    {"family", Rules_get_family, NULL, "'gin' or 'rummy'", NULL},
    {"pack_size", Rules_get_pack_size, NULL, "cards in the pack (52 x decks + jokers)", NULL},
    {"players", Rules_get_players, NULL, "(min, max) players of the preset (RULES 2.1)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "okr.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rules(preset='gin', **options): a rule set, every option by name (RULES.md).",
    .tp_new = Rules_new,
    .tp_methods = Rules_methods,
    .tp_getset = Rules_getset,
    .tp_str = Rules_str,
    .tp_repr = Rules_repr,
    .tp_getattro = Rules_getattro,
    .tp_richcompare = Rules_richcompare,
};

/* Rules from an argument: an okr.Rules, or a preset name. 0 or -1. */
static int rules_of(PyObject *o, okr_rules *r)
{
    if (!o) {
        okr_refusal why;
        return okr_rules_preset(r, "gin", &why) == OKR_OK ? 0 : -1;
    }
    if (PyObject_TypeCheck(o, &RulesType)) {
        *r = ((RulesObject *)o)->r;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        return s ? rules_fill(r, s, NULL) : -1;
    }
    PyErr_SetString(PyExc_TypeError, "rules: a preset name or an okr.Rules");
    return -1;
}

/* ---- Actions -------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD okr_action a;
} ActionObject;

static PyObject *action_new(const okr_action *a)
{
    ActionObject *o = PyObject_New(ActionObject, &ActionType);
    if (o)
        o->a = *a;
    return (PyObject *)o;
}

static PyObject *Action_str(PyObject *self)
{
    char buf[256];
    if (okr_action_format(&((ActionObject *)self)->a, buf, sizeof buf) < 0)
        return PyUnicode_FromString("?");
    return PyUnicode_FromString(buf);
}

static PyObject *Action_repr(PyObject *self)
{
    char buf[256];
    if (okr_action_format(&((ActionObject *)self)->a, buf, sizeof buf) < 0)
        snprintf(buf, sizeof buf, "?");
    return PyUnicode_FromFormat("<okr.Action seat %d: %s>", ((ActionObject *)self)->a.seat, buf);
}

static Py_hash_t Action_hash(PyObject *self)
{
    const unsigned char *p = (const unsigned char *)&((ActionObject *)self)->a;
    Py_uhash_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof(okr_action); i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h == (Py_uhash_t)-1 ? -2 : (Py_hash_t)h;
}

/* Two actions are equal iff their normalised forms are equal byte for byte (okr.h). Actions
 * made by this module are normalised when made. */
static PyObject *Action_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &ActionType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = memcmp(&((ActionObject *)a)->a, &((ActionObject *)b)->a, sizeof(okr_action)) == 0;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

#define ACT(self) (&((ActionObject *)(self))->a)

static PyObject *Action_get_text(PyObject *self, void *c)
{
    (void)c;
    return Action_str(self);
}
static PyObject *Action_get_name(PyObject *self, void *c)
{
    (void)c;
    int t = ACT(self)->type;
    return PyUnicode_FromString(t >= 1 && t <= OKR_A_PASS ? type_names[t] : "?");
}
static PyObject *Action_get_card(PyObject *self, void *c)
{
    (void)c;
    const okr_action *a = ACT(self);
    if (a->type == OKR_A_DISCARD || a->type == OKR_A_KNOCK || a->type == OKR_A_ADD ||
        ((a->type == OKR_A_TAKE || a->type == OKR_A_CLAIM) && a->how == OKR_HOW_ADD))
        return PyLong_FromLong(a->card);
    Py_RETURN_NONE;
}

static int has_spec(const okr_action *a)
{
    return a->type == OKR_A_MELD ||
           ((a->type == OKR_A_TAKE || a->type == OKR_A_CLAIM) && a->how == OKR_HOW_NEW);
}

static PyObject *spec_ns(const okr_spec *s)
{
    int n = s->n <= OKR_SPEC_CARDS ? s->n : OKR_SPEC_CARDS;
    return ns_from_dict(Py_BuildValue("{s:s,s:i,s:N,s:N}", "type",
                                      s->type == OKR_RUN ? "run" : "set", "lo", s->lo, "cards",
                                      u8_list(s->card, n), "as_", u8_list(s->as, n)));
}

static PyObject *Action_get_spec(PyObject *self, void *c)
{
    (void)c;
    const okr_action *a = ACT(self);
    if (!has_spec(a))
        Py_RETURN_NONE;
    return spec_ns(&a->u.spec);
}

static PyObject *ginmelds_list(const okr_ginmeld *m, int n)
{
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, u8_list(m[i].card, m[i].n <= 13 ? m[i].n : 13));
    return l;
}

static PyObject *Action_get_knock(PyObject *self, void *c)
{
    (void)c;
    const okr_action *a = ACT(self);
    if (a->type != OKR_A_KNOCK)
        Py_RETURN_NONE;
    return ginmelds_list(a->u.knock, a->nmelds <= OKR_GIN_MELDS ? a->nmelds : OKR_GIN_MELDS);
}

static PyGetSetDef Action_getset[] = {
    {"text", Action_get_text, NULL, "the action in notation (docs/notation.md)", NULL},
    {"name", Action_get_name, NULL,
     "'draw', 'take', 'meld', 'add', 'replace', 'discard', "
     "'claim', 'knock' or 'pass'",
     NULL},
    {"card", Action_get_card, NULL, "discard, knock, add: the card; else None", NULL},
    {"spec", Action_get_spec, NULL, "meld / take with a new meld: the new meld; else None", NULL},
    {"knock", Action_get_knock, NULL, "knock: the declared melds (lists of cards); else None",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

#define ACT_MEMBER(name, field, doc)                                                               \
    {                                                                                              \
        name, T_UBYTE, offsetof(ActionObject, a.field), READONLY, doc                              \
    }
static PyMemberDef Action_members[] = {
    ACT_MEMBER("type", type, "okr.DRAW .. okr.PASS"),
    ACT_MEMBER("seat", seat, "the seat that acts"),
    ACT_MEMBER("how", how, "take/claim: okr.HOW_PLAIN, HOW_NEW, HOW_ADD, HOW_JOKER"),
    ACT_MEMBER("as_", as, "add: the kind the card counts as"),
    ACT_MEMBER("meld", meld, "add, replace, take onto a meld: the meld index"),
    ACT_MEMBER("pos", pos, "add: run ladder position, 255 for a set"),
    {NULL, 0, 0, 0, NULL}};

static PyObject *Action_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    (void)t;
    (void)a;
    (void)k;
    PyErr_SetString(PyExc_TypeError,
                    "actions come from Game.legal() or Game.parse(text), not from okr.Action()");
    return NULL;
}

static PyTypeObject ActionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "okr.Action",
    .tp_basicsize = sizeof(ActionObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One action (from Game.legal() or Game.parse()); str() gives its notation.",
    .tp_new = Action_new,
    .tp_getset = Action_getset,
    .tp_members = Action_members,
    .tp_str = Action_str,
    .tp_repr = Action_repr,
    .tp_hash = Action_hash,
    .tp_richcompare = Action_richcompare,
};

/* ---- Games ---------------------------------------------------------------------------------- */

/* One applied action as the event log keeps it: the event and the action (for its text). */
typedef struct {
    okr_event e;
    okr_action a;
} LogEntry;

typedef struct {
    PyObject_HEAD okr_game g;
    okr_action *legal; /* the legal actions of g while `listed`, `nlegal` of them */
    int nlegal, cap, listed;
    /* Events since this object was made (a copy starts its own log): for events(seat).
     * mark[s]: the seq of the last event seat s was given; base: g.seq when the log began. */
    LogEntry *log;
    int nlog, logcap;
    uint32_t base, mark[OKR_MAX_PLAYERS];
    /* Cards every seat saw go into a hand (taken from the pile, a Joker taken back) and not
     * seen leaving it since: the "known cards" planes of observe(). Hand known_hand only. */
    uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS];
    uint16_t known_hand;
} GameObject;

#define GAME(self) ((GameObject *)(self))

/* List the legal actions into the game's cache unless they are there. 0 or -1. */
static int game_list(GameObject *o)
{
    if (o->listed)
        return 0;
    int n = okr_legal(&o->g, scratch, OKR_MAX_ACTIONS);
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "okr_legal overflowed OKR_MAX_ACTIONS");
        return -1;
    }
    if (n > o->cap) {
        int cap = n < 64 ? 64 : n;
        okr_action *p = PyMem_Realloc(o->legal, sizeof(okr_action) * (size_t)cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        o->legal = p;
        o->cap = cap;
    }
    memcpy(o->legal, scratch, sizeof(okr_action) * (size_t)n);
    o->nlegal = n;
    o->listed = 1;
    return 0;
}

static GameObject *game_alloc(PyTypeObject *type)
{
    GameObject *o = (GameObject *)type->tp_alloc(type, 0);
    if (o) {
        o->legal = NULL;
        o->nlegal = o->cap = o->listed = 0;
        o->log = NULL;
        o->nlog = o->logcap = 0;
        o->base = 0;
        memset(o->mark, 0, sizeof o->mark);
        memset(o->known, 0, sizeof o->known);
        o->known_hand = 0;
    }
    return o;
}

static void Game_dealloc(PyObject *self)
{
    PyMem_Free(GAME(self)->legal);
    PyMem_Free(GAME(self)->log);
    Py_TYPE(self)->tp_free(self);
}

/* A pack argument (list of cards, or text) into out; the count or -1. */
static int pack_of(PyObject *o, uint8_t *out)
{
    if (PyUnicode_Check(o)) {
        okr_refusal why;
        const char *s = PyUnicode_AsUTF8(o);
        if (!s)
            return -1;
        int n = okr_cards_parse(s, out, OKR_MAX_CARDS, &why);
        if (n < 0)
            refuse(&why);
        return n;
    }
    PyObject *seq = PySequence_Fast(o, "pack: a list of cards or text");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > OKR_MAX_CARDS) {
        Py_DECREF(seq);
        refuse_text("1.1", "the pack has more cards than the rules' pack");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = card_of(PySequence_Fast_GET_ITEM(seq, i));
        if (k < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (uint8_t)k;
    }
    Py_DECREF(seq);
    return (int)n;
}

static PyObject *Game_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *rules = NULL, *pack = NULL;
    int players = 2;
    unsigned long long seed = 0;
    okr_rules r;
    /* rules, players, seed and pack by keyword or position; the rest are rule options */
    PyObject *opts = kw ? PyDict_Copy(kw) : PyDict_New();
    if (!opts)
        return NULL;
    static const char *const named[] = {"rules", "players", "seed", "pack"};
    PyObject *got[4] = {NULL, NULL, NULL, NULL};
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    if (na > 4) {
        Py_DECREF(opts);
        return PyErr_Format(PyExc_TypeError, "Game() takes at most 4 positional arguments");
    }
    for (int i = 0; i < 4; i++) {
        PyObject *v = PyDict_GetItemString(opts, named[i]);
        if (v && i < na) {
            Py_DECREF(opts);
            return PyErr_Format(PyExc_TypeError, "Game(): %s given twice", named[i]);
        }
        got[i] = i < na ? PyTuple_GET_ITEM(args, i) : v;
        Py_XINCREF(got[i]);
        if (v)
            PyDict_DelItemString(opts, named[i]);
    }
    rules = got[0];
    pack = got[3];
    GameObject *o = NULL;
    if (got[1]) {
        long p = PyLong_AsLong(got[1]);
        if (p == -1 && PyErr_Occurred())
            goto done;
        /* out-of-range counts go to the engine as -1 so that RULES 2.1 refuses them */
        players = p < 0 || p > 1000 ? -1 : (int)p;
    }
    if (got[2] && got[2] != Py_None) {
        seed = PyLong_AsUnsignedLongLongMask(got[2]);
        if (PyErr_Occurred())
            goto done;
    }
    if (rules && PyObject_TypeCheck(rules, &RulesType)) {
        r = ((RulesObject *)rules)->r;
        if (set_options(&r, opts) < 0)
            goto done;
    } else {
        const char *preset = "gin";
        if (rules && !(preset = PyUnicode_AsUTF8(rules)))
            goto done;
        if (rules_fill(&r, preset, opts) < 0)
            goto done;
    }
    uint8_t cards[OKR_MAX_CARDS];
    int n = 0;
    if (pack && pack != Py_None && (n = pack_of(pack, cards)) < 0)
        goto done;
    o = game_alloc(type);
    if (!o)
        goto done;
    okr_refusal why;
    if (okr_game_init(&o->g, &r, players, (uint64_t)seed, pack && pack != Py_None ? cards : NULL, n,
                      &why) != OKR_OK) {
        Py_CLEAR(o);
        refuse(&why);
    }
done:
    for (int i = 0; i < 4; i++)
        Py_XDECREF(got[i]);
    Py_DECREF(opts);
    return (PyObject *)o;
}

static PyObject *Game_copy(PyObject *self, PyObject *unused)
{
    (void)unused;
    GameObject *o = game_alloc(Py_TYPE(self));
    if (o) {
        o->g = GAME(self)->g;
        memcpy(o->known, GAME(self)->known, sizeof o->known); /* public knowledge is state */
        o->known_hand = GAME(self)->known_hand;
    }
    return (PyObject *)o;
}

static PyObject *Game_deepcopy(PyObject *self, PyObject *memo)
{
    (void)memo;
    return Game_copy(self, NULL);
}

static PyObject *Game_legal(PyObject *self, PyObject *unused)
{
    (void)unused;
    GameObject *o = GAME(self);
    if (game_list(o) < 0)
        return NULL;
    PyObject *l = PyList_New(o->nlegal);
    if (!l)
        return NULL;
    for (int i = 0; i < o->nlegal; i++) {
        PyObject *a = action_new(&o->legal[i]);
        if (!a) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, a);
    }
    return l;
}

static PyObject *Game_legal_count(PyObject *self, PyObject *unused)
{
    (void)unused;
    if (game_list(GAME(self)) < 0)
        return NULL;
    return PyLong_FromLong(GAME(self)->nlegal);
}

static PyObject *event_ns(const okr_event *e)
{
    return ns_from_dict(Py_BuildValue("{s:k,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "seq",
                                      (unsigned long)e->seq, "seat", e->seat, "type", e->type,
                                      "how", e->how, "card", e->card, "meld", e->meld, "taken",
                                      e->taken, "hand_size", e->hand_n, "ended", e->ended));
}

/* Parse text as an action of the seat to act, normalised. 0 or -1. */
static int parse_action(const okr_game *g, PyObject *text, okr_action *a)
{
    const char *s = PyUnicode_AsUTF8(text);
    if (!s)
        return -1;
    okr_refusal why;
    if (okr_action_parse(g, s, a, &why) != OKR_OK) {
        refuse(&why);
        return -1;
    }
    okr_action_normalize(&g->rules, a);
    return 0;
}

/* The observation and the fixed action space (docs/python.md "Learning"). */
enum {
    OBS_W = OKR_KINDS,       /* a plane: the 52 kinds and the Joker */
    OBS_FIXED_PLANES = 5,    /* hand, pile top, buried pile, melds, unknown */
    OBS_SCALARS_FIXED = 13,  /* stock, phase (8), knock limit, stock locked, turns, to act */
    GIN_SPACE = 3 + 52 + 52, /* draw, take, pass, discard k, knock discarding k */
    RUMMY_FIXED = 2 + OKR_KINDS,
    RUMMY_REST = 512,
    RUMMY_SPACE = RUMMY_FIXED + RUMMY_REST
};

static int action_map(GameObject *o, int *map); /* the fixed action space: below */
static PyObject *IndexKindError;                /* okr.IndexKindError(IndexError, ValueError) */
static PyObject *AmbiguousIndexWarning;         /* okr.AmbiguousIndexWarning(UserWarning) */

/* The two integer conventions (docs/python.md "Two kinds of integers"): */
enum {
    BY_ANY,   /* apply(x): an okr.Action, text, or an int read as a legal index (checked) */
    BY_LEGAL, /* apply_legal(i): an index into legal() */
    BY_ID     /* apply_id(a): an id of the fixed action space (action_mask(), env.step) */
};

/* An int argument (an int, numpy's integers, anything with __index__). 0 or -1. */
static int index_of(PyObject *x, long *out)
{
    if (!PyIndex_Check(x) || PyBool_Check(x)) {
        PyErr_Format(PyExc_TypeError, "an integer is required, not %s", Py_TYPE(x)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(x);
    if (!i)
        return -1;
    *out = PyLong_AsLong(i);
    Py_DECREF(i);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The legal action of action id `id`: its position in the legal list, or -1 with IndexError
 * (outside the space) or ValueError (not legal now) set. */
static int legal_of_id(GameObject *o, long id)
{
    int map[RUMMY_SPACE];
    int n = action_map(o, map);
    if (n < 0)
        return -1;
    if (id < 0 || id >= n) {
        PyErr_Format(PyExc_IndexError, "action id %ld: the action space has ids 0..%d", id, n - 1);
        return -1;
    }
    if (map[id] < 0) {
        PyErr_Format(PyExc_ValueError, "action id %ld is not legal here (see action_mask())", id);
        return -1;
    }
    return map[id];
}

/* apply(i) with a bare int: an index into legal(), as always, but never silently the wrong
 * kind. Out of legal()'s range while a legal action id: IndexKindError. In range while also a
 * legal action id meaning another move: AmbiguousIndexWarning (once per place by Python's
 * default filter), then the legal index is played. The index, or -1. */
static int bare_index(GameObject *o, long i)
{
    int map[RUMMY_SPACE];
    int n = action_map(o, map); /* lists the legal actions too */
    if (n < 0)
        return -1;
    int as_id = i >= 0 && i < n ? map[i] : -1; /* the legal position action id i names */
    char text[512];
    if (i < 0 || i >= o->nlegal) {
        if (as_id < 0) {
            PyErr_Format(PyExc_IndexError, "action index %ld: %d legal actions", i, o->nlegal);
            return -1;
        }
        if (okr_action_format(&o->legal[as_id], text, sizeof text) < 0)
            text[0] = '\0';
        PyErr_Format(IndexKindError,
                     "apply(%ld): not an index into legal() (%d actions) but the action id of "
                     "'%s' in the fixed action space: use apply_id(%ld) for action ids, "
                     "apply_legal(i) for legal() indices",
                     i, o->nlegal, text, i);
        return -1;
    }
    if (as_id >= 0 && as_id != i) {
        char mine[512];
        if (okr_action_format(&o->legal[i], mine, sizeof mine) < 0)
            mine[0] = '\0';
        if (okr_action_format(&o->legal[as_id], text, sizeof text) < 0)
            text[0] = '\0';
        if (PyErr_WarnFormat(AmbiguousIndexWarning, 1,
                             "apply(%ld) plays legal()[%ld] '%s'; as an action id (action_mask(), "
                             "env.step) %ld would be '%s': say which with apply_legal(i) or "
                             "apply_id(a)",
                             i, i, mine, i, text) < 0)
            return -1;
    }
    return (int)i;
}

/* The action x means, read by `kind` (BY_*). 0 or -1. */
static int action_of(GameObject *o, PyObject *x, okr_action *a, int kind)
{
    long i;
    int at;
    if (kind == BY_LEGAL) {
        if (index_of(x, &i) < 0 || game_list(o) < 0)
            return -1;
        if (i < 0 || i >= o->nlegal) {
            PyErr_Format(PyExc_IndexError, "legal index %ld: %d legal actions", i, o->nlegal);
            return -1;
        }
        *a = o->legal[i];
        return 0;
    }
    if (kind == BY_ID) {
        if (index_of(x, &i) < 0 || (at = legal_of_id(o, i)) < 0)
            return -1;
        *a = o->legal[at];
        return 0;
    }
    if (PyObject_TypeCheck(x, &ActionType)) {
        *a = ((ActionObject *)x)->a;
        return 0;
    }
    if (PyUnicode_Check(x))
        return parse_action(&o->g, x, a);
    if (PyIndex_Check(x) && !PyBool_Check(x)) {
        if (index_of(x, &i) < 0 || (at = bare_index(o, i)) < 0)
            return -1;
        *a = o->legal[at];
        return 0;
    }
    PyErr_SetString(PyExc_TypeError,
                    "an action is an okr.Action, the action's text, or an index into legal() "
                    "(apply_legal(i)); an action id of the fixed space goes to apply_id(a)");
    return -1;
}

/* The public knowledge of who holds what, after *a (event *e) was applied to a game whose
 * pile was pile[0..pile_n) before it. Cards going into a hand face up become known; a card
 * leaving a hand stops being known (if two copies were held, the table cannot tell which
 * left, so the known count only falls: it never claims more than the hand holds). */
static void known_update(uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS], const okr_action *a, int taken,
                         const uint8_t *pile, int pile_n)
{
    uint8_t *k = known[a->seat];
#define LEAVES(c)                                                                                  \
    do {                                                                                           \
        if ((c) < OKR_KINDS && k[(c)])                                                             \
            k[(c)]--;                                                                              \
    } while (0)
    switch (a->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        if (a->how == OKR_HOW_PLAIN) {
            if (pile_n)
                k[pile[pile_n - 1]]++;
            break;
        }
        for (int i = 0; i < taken && i < pile_n; i++) /* the rest of the pile */
            k[pile[i]]++;
        if (a->how == OKR_HOW_NEW) {
            int top = pile_n ? pile[pile_n - 1] : OKR_NOCARD;
            for (int i = 0; i < a->u.spec.n; i++) {
                if (a->u.spec.card[i] == top)
                    top = OKR_NOCARD;
                else
                    LEAVES(a->u.spec.card[i]);
            }
        } else if (a->how == OKR_HOW_JOKER) {
            k[OKR_JOKER]++;
        }
        break;
    case OKR_A_PASS:
        for (int i = 0; i < taken && i < pile_n; i++) /* claim meld done: the pile */
            k[pile[i]]++;
        break;
    case OKR_A_MELD:
        for (int i = 0; i < a->u.spec.n; i++)
            LEAVES(a->u.spec.card[i]);
        break;
    case OKR_A_REPLACE:
        LEAVES(a->card);
        k[OKR_JOKER]++;
        break;
    case OKR_A_ADD:
    case OKR_A_DISCARD:
    case OKR_A_KNOCK:
        LEAVES(a->card);
        break;
    default:
        break;
    }
#undef LEAVES
}

/* known_update for the game's own actions, after a new hand's first one forgets the last. */
static void track_known(GameObject *o, const okr_action *a, const okr_event *e, const uint8_t *pile,
                        int pile_n)
{
    if (o->known_hand != o->g.hand_no) { /* a new hand: nothing known yet */
        memset(o->known, 0, sizeof o->known);
        o->known_hand = o->g.hand_no;
    }
    known_update(o->known, a, e->taken, pile, pile_n);
}

/* Apply x; fills *ev. 0 or -1 with okr.Refused set (the game unchanged). */
static int game_apply(GameObject *o, PyObject *x, okr_event *ev, int kind)
{
    okr_action a;
    okr_refusal why;
    if (action_of(o, x, &a, kind) < 0)
        return -1;
    if (o->nlog == o->logcap) { /* room first: an applied action is always logged */
        int cap = o->logcap ? 2 * o->logcap : 64;
        LogEntry *p = PyMem_Realloc(o->log, sizeof(LogEntry) * (size_t)cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        o->log = p;
        o->logcap = cap;
    }
    if (!o->nlog)
        o->base = o->g.seq;
    uint8_t pile[OKR_MAX_CARDS];
    int pile_n = o->g.pile_n;
    memcpy(pile, o->g.pile, (size_t)pile_n);
    if (okr_apply(&o->g, &a, ev, &why) != OKR_OK) {
        refuse(&why);
        return -1;
    }
    track_known(o, &a, ev, pile, pile_n);
    o->log[o->nlog].e = *ev;
    o->log[o->nlog++].a = a; /* normalised: actions come only from legal() and parse() */
    o->listed = 0;
    return 0;
}

static PyObject *apply_by(PyObject *self, PyObject *x, int kind)
{
    okr_event e;
    if (game_apply(GAME(self), x, &e, kind) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Game_apply(PyObject *self, PyObject *x)
{
    return apply_by(self, x, BY_ANY);
}

static PyObject *Game_apply_legal(PyObject *self, PyObject *x)
{
    return apply_by(self, x, BY_LEGAL);
}

static PyObject *Game_apply_id(PyObject *self, PyObject *x)
{
    return apply_by(self, x, BY_ID);
}

/* events(seat, since=None): what happened since that seat's last look, as it may see it
 * (okr_event_redact, RULES 8.3), oldest first, each with the action's text. */
static PyObject *Game_events(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seat", "since", NULL};
    int seat;
    PyObject *since_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|O:events", kwlist, &seat, &since_o))
        return NULL;
    GameObject *o = GAME(self);
    if (seat < 0 || seat >= o->g.players)
        return PyErr_Format(PyExc_IndexError, "seat %d: the table has seats 0..%d", seat,
                            o->g.players - 1);
    unsigned long long since;
    if (since_o == Py_None) {
        since = o->mark[seat] > o->base ? o->mark[seat] : o->base;
    } else {
        since = PyLong_AsUnsignedLongLong(since_o);
        if (PyErr_Occurred())
            return NULL;
    }
    int first = o->nlog;
    while (first > 0 && o->log[first - 1].e.seq > since)
        first--;
    PyObject *l = PyList_New(o->nlog - first);
    for (int i = first; l && i < o->nlog; i++) {
        okr_event red;
        okr_event_redact(&o->log[i].e, seat, &red);
        char text[512];
        if (okr_action_format(&o->log[i].a, text, sizeof text) < 0)
            text[0] = '\0';
        const char *name =
            red.type < sizeof type_names / sizeof type_names[0] ? type_names[red.type] : "?";
        PyObject *ns = ns_from_dict(
            Py_BuildValue("{s:k,s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:s}", "seq",
                          (unsigned long)red.seq, "seat", red.seat, "type", red.type, "name", name,
                          "how", red.how, "card", red.card, "meld", red.meld, "taken", red.taken,
                          "hand_size", red.hand_n, "ended", red.ended, "text", text));
        if (!ns) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i - first, ns);
    }
    if (l && since_o == Py_None)
        o->mark[seat] = o->g.seq;
    return l;
}

static PyObject *step_by(PyObject *self, PyObject *x, int kind)
{
    okr_event e;
    if (game_apply(GAME(self), x, &e, kind) < 0)
        return NULL;
    return event_ns(&e);
}

static PyObject *Game_step(PyObject *self, PyObject *x)
{
    return step_by(self, x, BY_ANY);
}

static PyObject *Game_step_legal(PyObject *self, PyObject *x)
{
    return step_by(self, x, BY_LEGAL);
}

static PyObject *Game_step_id(PyObject *self, PyObject *x)
{
    return step_by(self, x, BY_ID);
}

static PyObject *Game_parse(PyObject *self, PyObject *text)
{
    if (!PyUnicode_Check(text))
        return PyErr_Format(PyExc_TypeError, "parse: the action's text");
    okr_action a;
    if (parse_action(&GAME(self)->g, text, &a) < 0)
        return NULL;
    return action_new(&a);
}

static PyObject *Game_over(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(GAME(self)->g.phase == OKR_PH_GAME_OVER);
}

static PyObject *Game_hand_over(PyObject *self, PyObject *unused)
{
    (void)unused;
    int ph = GAME(self)->g.phase;
    return PyBool_FromLong(ph == OKR_PH_HAND_OVER || ph == OKR_PH_GAME_OVER);
}

static PyObject *Game_next_hand(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"pack", NULL};
    PyObject *pack = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:next_hand", kwlist, &pack))
        return NULL;
    uint8_t cards[OKR_MAX_CARDS];
    int n = 0;
    if (pack && pack != Py_None && (n = pack_of(pack, cards)) < 0)
        return NULL;
    okr_refusal why;
    GameObject *o = GAME(self);
    int rc = okr_next_hand(&o->g, pack && pack != Py_None ? cards : NULL, n, &why);
    if (rc != OKR_OK)
        return refuse(&why);
    o->listed = 0;
    Py_RETURN_NONE;
}

static PyObject *Game_digest(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(okr_digest(&GAME(self)->g));
}

static PyObject *Game_check(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(okr_check(&GAME(self)->g) == OKR_OK);
}

static PyObject *melds_list(const okr_meld *m, int n)
{
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        int c = m[i].n <= OKR_MELD_CARDS ? m[i].n : OKR_MELD_CARDS;
        PyObject *ns = ns_from_dict(Py_BuildValue(
            "{s:i,s:s,s:i,s:i,s:i,s:N,s:N}", "owner", m[i].owner, "type",
            m[i].type == OKR_RUN ? "run" : "set", "lo", m[i].lo, "rank", m[i].rank, "suit",
            m[i].suit, "cards", u8_list(m[i].card, c), "as_", u8_list(m[i].as, c)));
        if (!ns) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, ns);
    }
    return l;
}

/* The engine's view behind a Python view (view._raw), for okr.determinize: a short repr
 * instead of 4 KB of bytes. */
typedef struct {
    PyObject_HEAD okr_view v;
} RawViewObject;

static PyObject *RawView_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<okr view of seat %d>", ((RawViewObject *)self)->v.seat);
}

static PyTypeObject RawViewType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "okr.RawView",
    .tp_basicsize = sizeof(RawViewObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The engine's own view (opaque), kept for okr.determinize.",
    .tp_repr = RawView_repr,
};

static PyObject *rawview_new(const okr_view *v)
{
    RawViewObject *o = PyObject_New(RawViewObject, &RawViewType);
    if (o)
        o->v = *v;
    return (PyObject *)o;
}

/* The protocol's View fields (proto/okr.proto), plus `rules`; `_raw` keeps the engine's view
 * for okr.determinize. */
static PyObject *view_ns(const okr_view *v, const okr_rules *r)
{
    int p = v->players <= OKR_MAX_PLAYERS ? v->players : OKR_MAX_PLAYERS;
    PyObject *melded = PyList_New(p);
    for (int i = 0; melded && i < p; i++)
        PyList_SET_ITEM(melded, i, PyBool_FromLong(v->melded_before[i]));
    /* the protocol View's knock_limit: the value the engine checks a knock against (G2) */
    int upcard_limit = okr_knock_limit(r, v->upcard);
    return ns_from_dict(Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:N,s:N,"
        "s:i,s:i,s:i,s:N,s:N}",
        "seat", v->seat, "players", v->players, "phase", v->phase, "dealer", v->dealer, "turn_seat",
        v->turn_seat, "to_act", v->to_act, "stock_size", v->stock_n, "upcard", v->upcard,
        "stock_locked", v->stock_locked ? Py_True : Py_False, "hand_no", v->hand_no, "turns",
        v->turns, "hand", hand_list(v->hand), "hand_sizes", u8_list(v->hand_n, p), "pile",
        u8_list(v->pile, v->pile_n), "melds", melds_list(v->meld, v->meld_n), "scores",
        int_list(v->score, p), "concealed", int_list(v->concealed, p), "discarder", v->discarder,
        "turns_drawn", u8_list(v->drew, p), "melded_before", melded, "claim_meld", v->claim_meld,
        "upcard_passes", v->upcard_passes, "knock_limit", upcard_limit, "rules", rules_new(r),
        "_raw", rawview_new(v)));
}

static PyObject *Game_view(PyObject *self, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    const okr_game *g = &GAME(self)->g;
    if (seat < 0 || seat >= g->players)
        return PyErr_Format(PyExc_IndexError, "seat %ld: the table has seats 0..%d", seat,
                            g->players - 1);
    okr_view v;
    okr_view_of(g, (int)seat, &v);
    return view_ns(&v, &g->rules);
}

static PyObject *Game_hand(PyObject *self, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    const okr_game *g = &GAME(self)->g;
    if (seat < 0 || seat >= g->players)
        return PyErr_Format(PyExc_IndexError, "seat %ld: the table has seats 0..%d", seat,
                            g->players - 1);
    return hand_list(g->hand[seat]);
}

static const char *const end_names[] = {"none",  "out",      "stock", "cap",
                                        "knock", "undercut", "gin",   "drawn"};

static PyObject *hand_result_ns(const okr_game *g)
{
    const okr_hand_result *h = &g->last;
    int p = g->players;
    return ns_from_dict(Py_BuildValue(
        "{s:i,s:i,s:s,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N}", "hand_no", g->hand_no, "ended",
        h->ended, "end", h->ended <= OKR_END_DRAWN ? end_names[h->ended] : "?", "winner", h->winner,
        "knocker", h->knocker, "melded", int_list(h->melded, p), "debit", int_list(h->debit, p),
        "out_bonus", int_list(h->out_bonus, p), "concealed", int_list(h->concealed, p), "deadwood",
        int_list(h->deadwood, p), "score", int_list(h->score, p), "total", int_list(h->total, p)));
}

static PyObject *Game_hand_result(PyObject *self, PyObject *unused)
{
    (void)unused;
    const okr_game *g = &GAME(self)->g;
    if (g->phase != OKR_PH_HAND_OVER && g->phase != OKR_PH_GAME_OVER)
        Py_RETURN_NONE;
    return hand_result_ns(g);
}

static PyObject *Game_game_result(PyObject *self, PyObject *unused)
{
    (void)unused;
    const okr_game *g = &GAME(self)->g;
    if (g->phase != OKR_PH_GAME_OVER)
        Py_RETURN_NONE;
    const okr_game_result *r = &g->result;
    int p = g->players;
    PyObject *winners = PyList_New(0);
    for (int i = 0; winners && i < p; i++)
        if (r->winners & (1u << i)) {
            PyObject *s = PyLong_FromLong(i);
            if (!s || PyList_Append(winners, s) < 0)
                Py_CLEAR(winners);
            Py_XDECREF(s);
        }
    return ns_from_dict(Py_BuildValue(
        "{s:N,s:N,s:N,s:N,s:N,s:N,s:N}", "winners", winners, "score", int_list(r->score, p),
        "concealed", int_list(r->concealed, p), "winner_bonus", int_list(r->winner_bonus, p),
        "final_total", int_list(r->final_total, p), "placement", u8_list(r->placement, p),
        "settlement", int_list(r->settlement, p)));
}

/* ---- Learning: observation planes and a fixed action space (docs/python.md "Learning") --- */

static int obs_size(int players)
{
    return OBS_W * (OBS_FIXED_PLANES + players - 1) + 2 * players + OBS_SCALARS_FIXED;
}

static int space_of(const okr_game *g)
{
    return g->rules.family == OKR_FAMILY_GIN ? GIN_SPACE : RUMMY_SPACE;
}

/* What a view's seat may know, as numbers (RULES 8.3): the one encoding of observations,
 * for Game.observe (from okr_view_of) and okr.observe_view (from a protocol View, in an arena
 * bot): nothing here reads more than the view. `known[s]`: cards the whole table saw go into
 * seat s's hand and not leave it (track_known), by absolute seat; NULL: none. */
static void fill_obs(const okr_view *v, const okr_rules *r, const uint8_t (*known)[OKR_KINDS],
                     float *out)
{
    int p = v->players, seat = v->seat, n = obs_size(p);
    memset(out, 0, sizeof(float) * (size_t)n);
    float *hand = out, *top = out + OBS_W, *buried = out + 2 * OBS_W, *melds = out + 3 * OBS_W,
          *unknown = out + 4 * OBS_W, *kn = out + 5 * OBS_W;
    int seen[OKR_KINDS];
    for (int k = 0; k < OKR_KINDS; k++) {
        hand[k] = v->hand[k];
        seen[k] = v->hand[k];
    }
    for (int i = 0; i < v->pile_n; i++) {
        (i == v->pile_n - 1 ? top : buried)[v->pile[i]] += 1;
        seen[v->pile[i]]++;
    }
    for (int m = 0; m < v->meld_n; m++)
        for (int i = 0; i < v->meld[m].n; i++) {
            melds[v->meld[m].card[i]] += 1;
            seen[v->meld[m].card[i]]++;
        }
    if (known)
        for (int j = 1; j < p; j++)
            for (int k = 0; k < OKR_KINDS; k++) {
                kn[(j - 1) * OBS_W + k] = known[(seat + j) % p][k];
                seen[k] += known[(seat + j) % p][k];
            }
    for (int k = 0; k < OKR_KINDS; k++) {
        int total = k == OKR_JOKER ? r->jokers : r->decks;
        unknown[k] = (float)(total - seen[k] > 0 ? total - seen[k] : 0);
    }
    float *sc = out + OBS_W * (OBS_FIXED_PLANES + p - 1);
    for (int j = 0; j < p; j++) {
        sc[j] = (float)v->score[(seat + j) % p];
        sc[p + j] = v->hand_n[(seat + j) % p];
    }
    sc += 2 * p;
    sc[0] = v->stock_n;
    if (v->phase >= 1 && v->phase <= 8)
        sc[v->phase] = 1;                         /* sc[1..8]: the phase, one-hot */
    sc[9] = (float)okr_knock_limit(r, v->upcard); /* as the View has it */
    sc[10] = v->stock_locked;
    sc[11] = v->turns;
    sc[12] = v->to_act == seat && v->phase < OKR_PH_HAND_OVER;
}

/* map[i] = position in the legal list of the action at index i of the fixed space, or -1.
 * Gin: 0 draw, 1 take, 2 pass, 3 + k discard k, 55 + k knock discarding k (the knock that
 * leaves the least deadwood; ties: the first listed). Rummy: 0 draw, 1 pass, 2 + k discard k
 * (k = 52: the Joker), 55 + j the j-th other legal action (meld, add, take, claim, ...) in
 * legal order, up to RUMMY_REST of them. Returns the space's size, or -1. */
static int action_map(GameObject *o, int *map)
{
    if (game_list(o) < 0)
        return -1;
    const okr_game *g = &o->g;
    int space = space_of(g), gin = g->rules.family == OKR_FAMILY_GIN, rest = 0;
    int best[52];
    for (int i = 0; i < space; i++)
        map[i] = -1;
    for (int i = 0; i < o->nlegal; i++) {
        const okr_action *a = &o->legal[i];
        int idx = -1;
        if (a->type == OKR_A_DRAW)
            idx = 0;
        else if (gin && a->type == OKR_A_TAKE)
            idx = 1;
        else if (a->type == OKR_A_PASS)
            idx = gin ? 2 : 1;
        else if (a->type == OKR_A_DISCARD)
            idx = (gin ? 3 : 2) + a->card;
        else if (gin && a->type == OKR_A_KNOCK && a->card < 52) {
            int dw = 0;
            for (int k = 0; k < OKR_KINDS; k++)
                dw += g->hand[a->seat][k] * okr_card_debit(&g->rules, k);
            dw -= okr_card_debit(&g->rules, a->card);
            for (int m = 0; m < a->nmelds && m < OKR_GIN_MELDS; m++)
                for (int c = 0; c < a->u.knock[m].n && c < 13; c++)
                    dw -= okr_card_debit(&g->rules, a->u.knock[m].card[c]);
            idx = 55 + a->card;
            if (map[idx] >= 0 && dw >= best[a->card])
                continue;
            best[a->card] = dw;
        } else if (!gin && rest < RUMMY_REST)
            idx = RUMMY_FIXED + rest++;
        if (idx >= 0 && idx < space && (map[idx] < 0 || a->type == OKR_A_KNOCK))
            map[idx] = i;
    }
    return space;
}

static PyObject *numpy_mod; /* numpy if importable (looked up once), else Py_None */

/* A new zeroed buffer of n items: numpy (float32 or uint8) if present, else array.array. */
static PyObject *new_out(Py_ssize_t n, int is_float)
{
    if (!numpy_mod) {
        numpy_mod = PyImport_ImportModule("numpy");
        if (!numpy_mod) {
            PyErr_Clear();
            numpy_mod = Py_None;
            Py_INCREF(numpy_mod);
        }
    }
    if (numpy_mod != Py_None)
        return PyObject_CallMethod(numpy_mod, "zeros", "ns", n, is_float ? "float32" : "uint8");
    PyObject *arr = PyImport_ImportModule("array");
    if (!arr)
        return NULL;
    PyObject *one = PyObject_CallMethod(arr, "array", "s[i]", is_float ? "f" : "B", 0);
    Py_DECREF(arr);
    if (!one)
        return NULL;
    PyObject *res = PySequence_Repeat(one, n);
    Py_DECREF(one);
    return res;
}

/* A writable C-contiguous buffer of out with room for n items of the kind asked: float32
 * ("f") for observations, one byte for masks; raw bytes ("B") of the right length do for
 * both. 0 or -1. */
static int get_out(PyObject *out, Py_ssize_t n, int is_float, Py_buffer *b)
{
    if (PyObject_GetBuffer(out, b, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = b->format ? b->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    int bytes = (f[0] == 'B' || f[0] == 'b' || f[0] == 'c' || f[0] == '?') && !f[1];
    int ok = is_float ? (bytes && b->len >= 4 * n) || (f[0] == 'f' && !f[1] && b->len >= 4 * n)
                      : bytes && b->len >= n;
    if (!ok) {
        PyErr_Format(PyExc_ValueError,
                     "out: a writable contiguous buffer of %zd %s (format '%s', %zd bytes given)",
                     n, is_float ? "float32 (or 4x as many bytes)" : "bytes", b->format, b->len);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static PyObject *Game_observe(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seat", "out", NULL};
    int seat;
    PyObject *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|O:observe", kwlist, &seat, &out))
        return NULL;
    GameObject *o = GAME(self);
    if (seat < 0 || seat >= o->g.players)
        return PyErr_Format(PyExc_IndexError, "seat %d: the table has seats 0..%d", seat,
                            o->g.players - 1);
    int n = obs_size(o->g.players);
    PyObject *res = out == Py_None ? new_out(n, 1) : (Py_INCREF(out), out);
    Py_buffer b;
    if (!res || get_out(res, n, 1, &b) < 0) {
        Py_XDECREF(res);
        return NULL;
    }
    float
        tmp[OBS_W * (OBS_FIXED_PLANES + OKR_MAX_PLAYERS) + 2 * OKR_MAX_PLAYERS + OBS_SCALARS_FIXED];
    okr_view v;
    okr_view_of(&o->g, seat, &v);
    fill_obs(&v, &o->g.rules, o->known_hand == o->g.hand_no ? o->known : NULL, tmp);
    memcpy(b.buf, tmp, sizeof(float) * (size_t)n); /* b.buf may be unaligned (bytearray) */
    PyBuffer_Release(&b);
    return res;
}

static PyObject *Game_action_mask(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"out", NULL};
    PyObject *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:action_mask", kwlist, &out))
        return NULL;
    int map[RUMMY_SPACE];
    int n = action_map(GAME(self), map);
    if (n < 0)
        return NULL;
    PyObject *res = out == Py_None ? new_out(n, 0) : (Py_INCREF(out), out);
    Py_buffer b;
    if (!res || get_out(res, n, 0, &b) < 0) {
        Py_XDECREF(res);
        return NULL;
    }
    uint8_t *m = b.buf;
    for (int i = 0; i < n; i++)
        m[i] = map[i] >= 0;
    PyBuffer_Release(&b);
    return res;
}

static PyObject *Game_action_of_id(PyObject *self, PyObject *arg)
{
    long id;
    int at;
    if (index_of(arg, &id) < 0 || (at = legal_of_id(GAME(self), id)) < 0)
        return NULL;
    return action_new(&GAME(self)->legal[at]);
}

/* id_to_legal(a): the index into legal() of action id a (IndexError, ValueError as apply_id). */
static PyObject *Game_id_to_legal(PyObject *self, PyObject *arg)
{
    long id;
    int at;
    if (index_of(arg, &id) < 0 || (at = legal_of_id(GAME(self), id)) < 0)
        return NULL;
    return PyLong_FromLong(at);
}

/* legal_to_id(i): the action id of legal()[i], or None if the fixed space has none for it
 * (a gin knock arrangement that is not the one its id plays; a rummy action past 512). */
static PyObject *Game_legal_to_id(PyObject *self, PyObject *arg)
{
    GameObject *o = GAME(self);
    long i;
    int map[RUMMY_SPACE];
    if (index_of(arg, &i) < 0)
        return NULL;
    int n = action_map(o, map);
    if (n < 0)
        return NULL;
    if (i < 0 || i >= o->nlegal)
        return PyErr_Format(PyExc_IndexError, "legal index %ld: %d legal actions", i, o->nlegal);
    for (int id = 0; id < n; id++)
        if (map[id] == i)
            return PyLong_FromLong(id);
    Py_RETURN_NONE;
}

/* known(): per seat, the cards the whole table saw go into that hand this hand and not
 * leave it (observe()'s known planes; determinize(known=...) takes the same form). */
static PyObject *Game_known(PyObject *self, PyObject *unused)
{
    (void)unused;
    GameObject *o = GAME(self);
    PyObject *l = PyList_New(o->g.players);
    for (int s = 0; l && s < o->g.players; s++) {
        static const uint8_t none[OKR_KINDS];
        PyObject *h = hand_list(o->known_hand == o->g.hand_no ? o->known[s] : none);
        if (!h) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, s, h);
    }
    return l;
}

static PyObject *Game_get_action_space(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(space_of(&GAME(self)->g));
}

static PyObject *Game_get_observation_size(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(obs_size(GAME(self)->g.players));
}

/* ---- Positions (okr_game_from_position). okr/_position.py turns the notation and the
 * defaults into the plain fields these two speak, so the C side stays a direct copy. ---- */

static PyObject *Game_position_raw(PyObject *self, PyObject *unused)
{
    (void)unused;
    okr_position p;
    okr_position_of(&GAME(self)->g, &p);
    int n = p.players;
    PyObject *hands = PyList_New(n), *melds = PyList_New(p.meld_n);
    for (int s = 0; hands && s < n; s++)
        PyList_SET_ITEM(hands, s, hand_list(p.hand[s]));
    for (int m = 0; melds && m < p.meld_n; m++)
        PyList_SET_ITEM(melds, m,
                        Py_BuildValue("(iiiNN)", p.meld[m].owner, p.meld[m].type, p.meld[m].lo,
                                      u8_list(p.meld[m].card, p.meld[m].n),
                                      u8_list(p.meld[m].as, p.meld[m].n)));
    if (!hands || !melds) {
        Py_XDECREF(hands);
        Py_XDECREF(melds);
        return NULL;
    }
    return Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:k,s:K,s:N,s:N,s:N,s:N,s:N,s:N,s:N,"
        "s:N}",
        "players", n, "phase", p.phase, "dealer", p.dealer, "turn_seat", p.turn_seat, "to_act",
        p.to_act, "discarder", p.discarder, "upcard", p.upcard, "claim_meld", p.claim_meld,
        "upcard_passes", p.upcard_passes, "stock_locked", p.stock_locked, "hand_no", p.hand_no,
        "turns", p.turns, "seq", (unsigned long)p.seq, "seed", (unsigned long long)p.seed, "hands",
        hands, "stock", u8_list(p.stock, p.stock_n), "pile", u8_list(p.pile, p.pile_n), "melds",
        melds, "scores", int_list(p.score, n), "concealed", int_list(p.concealed, n), "drew",
        u8_list(p.drew, n), "melded_before", u8_list(p.melded_before, n));
}

/* d[key] as an int in lo..hi. 0 or -1. */
static int d_long(PyObject *d, const char *key, long lo, long hi, long *out)
{
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "position: %s is missing", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "position: %s = %ld is out of range %ld..%ld", key, x, lo,
                     hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* seq, a list of at most cap ints in lo..hi, into out (int32); `what` names it in errors
 * ("position: hands", "view.pile"). The count or -1. Steals the reference to seq_obj, which
 * may be NULL (an error is then set). The one reader of int lists from positions, views and
 * determinize's known cards. */
static int ints_of(PyObject *seq_obj, const char *what, long lo, long hi, int32_t *out, int cap)
{
    PyObject *seq = seq_obj ? PySequence_Fast(seq_obj, "a list of ints") : NULL;
    Py_XDECREF(seq_obj);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, at most %d", what, n, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((x == -1 && PyErr_Occurred()) || x < lo || x > hi) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s[%zd] = %ld is out of range", what, i, x);
            return -1;
        }
        out[i] = (int32_t)x;
    }
    Py_DECREF(seq);
    return (int)n;
}

/* d[key], a list of at most cap ints in lo..hi, into out (int32). The count or -1. */
static int d_ints(PyObject *d, const char *key, long lo, long hi, int32_t *out, int cap)
{
    PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "position: %s is missing", key);
        return -1;
    }
    char what[64];
    snprintf(what, sizeof what, "position: %s", key);
    Py_INCREF(v);
    return ints_of(v, what, lo, hi, out, cap);
}

static int d_u8s(PyObject *d, const char *key, long hi, uint8_t *out, int cap)
{
    int32_t buf[OKR_MAX_CARDS];
    int n = d_ints(d, key, 0, hi, buf, cap < OKR_MAX_CARDS ? cap : OKR_MAX_CARDS);
    for (int i = 0; i < n; i++)
        out[i] = (uint8_t)buf[i];
    return n;
}

/* _from_position_raw(rules, fields): the engine's check and build. okr.Refused names the
 * rule a described position breaks. */
static PyObject *m_from_position_raw(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *rules, *d;
    okr_rules r;
    if (!PyArg_ParseTuple(args, "OO!:_from_position_raw", &rules, &PyDict_Type, &d) ||
        rules_of(rules, &r) < 0)
        return NULL;
    static okr_position p; /* 5 KB; the GIL serialises callers */
    memset(&p, 0, sizeof p);
    long x;
#define F(key, lo, hi, dst)                                                                        \
    do {                                                                                           \
        if (d_long(d, key, lo, hi, &x) < 0)                                                        \
            return NULL;                                                                           \
        dst = x;                                                                                   \
    } while (0)
    F("players", 0, OKR_MAX_PLAYERS, p.players);
    F("phase", 0, 255, p.phase);
    F("dealer", 0, 255, p.dealer);
    F("turn_seat", 0, 255, p.turn_seat);
    F("to_act", 0, 255, p.to_act);
    F("discarder", 0, 255, p.discarder);
    F("upcard", 0, 255, p.upcard);
    F("claim_meld", 0, 255, p.claim_meld);
    F("upcard_passes", 0, 255, p.upcard_passes);
    F("stock_locked", 0, 1, p.stock_locked);
    F("shuffle_stock", 0, 1, p.shuffle_stock);
    F("hand_no", 0, 65535, p.hand_no);
    F("turns", 0, 65535, p.turns);
    F("seq", 0, 0x7fffffffL, p.seq);
#undef F
    PyObject *seed = PyDict_GetItemString(d, "seed");
    if (seed) {
        p.seed = PyLong_AsUnsignedLongLongMask(seed);
        if (PyErr_Occurred())
            return NULL;
    }
    int n = p.players;
    PyObject *hands = PyDict_GetItemString(d, "hands");
    PyObject *hs = hands ? PySequence_Fast(hands, "position: hands is a list") : NULL;
    if (!hs) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "position: hands is missing");
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(hs) != n) {
        Py_DECREF(hs);
        return PyErr_Format(PyExc_ValueError, "position: %d hands for %d players",
                            (int)PySequence_Fast_GET_SIZE(hs), n);
    }
    for (int s = 0; s < n; s++)
        if (hand_of(PySequence_Fast_GET_ITEM(hs, s), p.hand[s]) < 0) {
            Py_DECREF(hs);
            return NULL;
        }
    Py_DECREF(hs);
    int k;
    if ((k = d_u8s(d, "pile", OKR_KINDS - 1, p.pile, OKR_MAX_CARDS)) < 0)
        return NULL;
    p.pile_n = (uint8_t)k;
    if (!p.shuffle_stock) {
        if ((k = d_u8s(d, "stock", OKR_KINDS - 1, p.stock, OKR_MAX_CARDS)) < 0)
            return NULL;
        p.stock_n = (uint8_t)k;
    }
    if (d_ints(d, "scores", INT32_MIN, INT32_MAX, p.score, n) < 0 ||
        d_ints(d, "concealed", INT32_MIN, INT32_MAX, p.concealed, n) < 0 ||
        d_u8s(d, "drew", 255, p.drew, n) < 0 ||
        d_u8s(d, "melded_before", 255, p.melded_before, n) < 0)
        return NULL;
    PyObject *melds = PyDict_GetItemString(d, "melds");
    PyObject *ms = melds ? PySequence_Fast(melds, "position: melds is a list") : NULL;
    if (!ms) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "position: melds is missing");
        return NULL;
    }
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(ms);
    if (nm > OKR_MAX_MELDS) {
        Py_DECREF(ms);
        return PyErr_Format(PyExc_ValueError, "position: more than %d melds", OKR_MAX_MELDS);
    }
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *cards, *as;
        int owner, type, lo;
        okr_meld *dst = &p.meld[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ms, i),
                              "iiiOO;a meld is (owner, type, lo, cards, as)", &owner, &type, &lo,
                              &cards, &as)) {
            Py_DECREF(ms);
            return NULL;
        }
        uint8_t c[OKR_MAX_CARDS], a[OKR_MAX_CARDS];
        int nc = pack_of(cards, c), na = nc < 0 ? -1 : pack_of(as, a);
        if (na < 0 || na != nc || nc > OKR_MELD_CARDS || owner < 0 || owner > 255 || type < 0 ||
            type > 255 || lo < 0 || lo > 255) {
            Py_DECREF(ms);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError,
                             "position: meld %zd: as many declarations as cards, at most %d", i,
                             OKR_MELD_CARDS);
            return NULL;
        }
        dst->owner = (uint8_t)owner;
        dst->type = (uint8_t)type;
        dst->lo = (uint8_t)lo;
        dst->n = (uint8_t)nc;
        memcpy(dst->card, c, (size_t)nc);
        memcpy(dst->as, a, (size_t)nc);
    }
    p.meld_n = (uint8_t)nm;
    Py_DECREF(ms);
    GameObject *o = game_alloc(&GameType);
    if (!o)
        return NULL;
    okr_refusal why;
    if (okr_game_from_position(&o->g, &r, &p, &why) != OKR_OK) {
        Py_DECREF(o);
        return refuse(&why);
    }
    return (PyObject *)o;
}

/* Game.from_position and Game.position live in okr/_position.py (the notation and the
 * defaults are easier to read in Python); these forward to it. */
static PyObject *call_position_py(const char *fn, PyObject *args, PyObject *kw)
{
    PyObject *mod = PyImport_ImportModule("okr._position");
    PyObject *f = mod ? PyObject_GetAttrString(mod, fn) : NULL;
    Py_XDECREF(mod);
    if (!f)
        return NULL;
    PyObject *res = PyObject_Call(f, args, kw);
    Py_DECREF(f);
    return res;
}

static PyObject *Game_from_position(PyObject *cls, PyObject *args, PyObject *kw)
{
    (void)cls;
    return call_position_py("from_position", args, kw);
}

static PyObject *Game_position(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *args = PyTuple_Pack(1, self);
    PyObject *res = args ? call_position_py("position", args, NULL) : NULL;
    Py_XDECREF(args);
    return res;
}

static PyObject *Game_get_rules(PyObject *self, void *c)
{
    (void)c;
    return rules_new(&GAME(self)->g.rules);
}
static PyObject *Game_get_stock(PyObject *self, void *c)
{
    (void)c;
    return u8_list(GAME(self)->g.stock, GAME(self)->g.stock_n);
}
static PyObject *Game_get_pile(PyObject *self, void *c)
{
    (void)c;
    return u8_list(GAME(self)->g.pile, GAME(self)->g.pile_n);
}
static PyObject *Game_get_melds(PyObject *self, void *c)
{
    (void)c;
    return melds_list(GAME(self)->g.meld, GAME(self)->g.meld_n);
}
static PyObject *Game_get_scores(PyObject *self, void *c)
{
    (void)c;
    return int_list(GAME(self)->g.score, GAME(self)->g.players);
}

static PyGetSetDef Game_getset[] = {
    {"rules", Game_get_rules, NULL, "the okr.Rules of the game", NULL},
    {"stock", Game_get_stock, NULL, "the stock, bottom first (hidden from every seat)", NULL},
    {"pile", Game_get_pile, NULL, "the discard pile, bottom first", NULL},
    {"melds", Game_get_melds, NULL, "melds on the table", NULL},
    {"scores", Game_get_scores, NULL, "running game scores", NULL},
    {"action_space", Game_get_action_space, NULL,
     "size of the fixed action space of action_mask() (gin 107, rummy 567)", NULL},
    {"observation_size", Game_get_observation_size, NULL, "floats in one observe()", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

#define GAME_MEMBER(name, type, doc)                                                               \
    {                                                                                              \
#name, type, offsetof(GameObject, g.name), READONLY, doc                                   \
    }
static PyMemberDef Game_members[] = {
    GAME_MEMBER(players, T_UBYTE, "seats at the table"),
    GAME_MEMBER(phase, T_UBYTE, "okr.PH_* (UPCARD .. GAME_OVER)"),
    GAME_MEMBER(dealer, T_UBYTE, "the dealer's seat"),
    GAME_MEMBER(turn_seat, T_UBYTE, "whose turn it is"),
    GAME_MEMBER(to_act, T_UBYTE, "who must act now (differs during claims, upcard rounds)"),
    GAME_MEMBER(hand_no, T_USHORT, "1, 2, ..."),
    GAME_MEMBER(turns, T_USHORT, "turns begun in this hand (RULES 4.9)"),
    GAME_MEMBER(upcard, T_UBYTE, "this hand's upcard"),
    GAME_MEMBER(seed, T_ULONGLONG, "the seed later hands are dealt from"),
    {NULL, 0, 0, 0, NULL}};

static PyMethodDef Game_methods[] = {
    {"copy", Game_copy, METH_NOARGS, "An independent copy of the game (a struct copy)."},
    {"__copy__", Game_copy, METH_NOARGS, NULL},
    {"__deepcopy__", Game_deepcopy, METH_O, NULL},
    {"legal", Game_legal, METH_NOARGS,
     "The legal actions of the seat to act, in canonical order (empty when a hand is over)."},
    {"legal_count", Game_legal_count, METH_NOARGS, "len(legal()) without making the actions."},
    {"apply", Game_apply, METH_O,
     "apply(action | text | legal index): play an action; okr.Refused names the rule if "
     "illegal. A bare int is an index into legal() (say so with apply_legal): IndexKindError "
     "if it is only an action id, AmbiguousIndexWarning if it is both and they differ."},
    {"apply_legal", Game_apply_legal, METH_O, "apply_legal(i): play legal()[i]."},
    {"apply_id", Game_apply_id, METH_O,
     "apply_id(a): play action id a of the fixed action space (action_mask(), env.step)."},
    {"step", Game_step, METH_O, "Like apply(), returning the event (seq, seat, type, card, ...)."},
    {"step_legal", Game_step_legal, METH_O, "Like apply_legal(), returning the event."},
    {"step_id", Game_step_id, METH_O, "Like apply_id(), returning the event."},
    {"legal_to_id", Game_legal_to_id, METH_O,
     "legal_to_id(i): the action id of legal()[i], None if the fixed space has none for it."},
    {"id_to_legal", Game_id_to_legal, METH_O,
     "id_to_legal(a): the index into legal() of action id a (ValueError if not legal)."},
    {"known", Game_known, METH_NOARGS,
     "known(): per seat, the cards the table saw go into that hand and not leave it."},
    {"events", (PyCFunction)(void (*)(void))Game_events, METH_VARARGS | METH_KEYWORDS,
     "events(seat, since=None): the events since that seat's last events() call (or after seq "
     "`since`), as the seat may see them (RULES 8.3)."},
    {"parse", Game_parse, METH_O, "parse(text): the Action the text means for the seat to act."},
    {"over", Game_over, METH_NOARGS, "True when the game is finished."},
    {"hand_over", Game_hand_over, METH_NOARGS, "True when the hand (or the game) is finished."},
    {"next_hand", (PyCFunction)(void (*)(void))Game_next_hand, METH_VARARGS | METH_KEYWORDS,
     "next_hand(pack=None): deal the next hand (after hand_over())."},
    {"view", Game_view, METH_O, "view(seat): what that seat may know (the protocol's View)."},
    {"hand", Game_hand, METH_O, "hand(seat): that seat's cards (the whole truth, not a view)."},
    {"hand_result", Game_hand_result, METH_NOARGS,
     "The scoring of the hand just ended (None during a hand)."},
    {"game_result", Game_game_result, METH_NOARGS,
     "The end-of-game report (None before the game is over)."},
    {"digest", Game_digest, METH_NOARGS, "64-bit digest of the state (okr_digest)."},
    {"check", Game_check, METH_NOARGS, "True if every card is in exactly one place."},
    {"observe", (PyCFunction)(void (*)(void))Game_observe, METH_VARARGS | METH_KEYWORDS,
     "observe(seat, out=None): the seat's observation as float32 planes and scalars "
     "(docs/python.md), into out or a new numpy/array buffer."},
    {"action_mask", (PyCFunction)(void (*)(void))Game_action_mask, METH_VARARGS | METH_KEYWORDS,
     "action_mask(out=None): 1 for each legal index of the fixed action space."},
    {"action_of_id", Game_action_of_id, METH_O,
     "action_of_id(a): the okr.Action of action id a (ValueError if not legal now)."},
    {"action_of_index", Game_action_of_id, METH_O, "The old name of action_of_id."},
    {"position", Game_position, METH_NOARGS,
     "The position as a dict Game.from_position(**it) accepts (cards in notation)."},
    {"_position_raw", Game_position_raw, METH_NOARGS,
     "The position's plain fields (okr_position)."},
    {"from_position", (PyCFunction)(void (*)(void))Game_from_position,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_position(rules=, hands=, pile=, stock=, melds=, scores=, dealer=, turn=, phase=, ...): "
     "a game from a described position, checked (okr.Refused names the rule)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "okr.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Game(rules='gin', players=2, seed=0, pack=None, **options): one game.",
    .tp_new = Game_new,
    .tp_dealloc = Game_dealloc,
    .tp_methods = Game_methods,
    .tp_getset = Game_getset,
    .tp_members = Game_members,
};

/* ---- Module functions --------------------------------------------------------------------- */

static PyObject *m_card(PyObject *m, PyObject *arg)
{
    (void)m;
    int k = card_of(arg);
    return k < 0 ? NULL : PyLong_FromLong(k);
}

static PyObject *m_card_str(PyObject *m, PyObject *arg)
{
    (void)m;
    int k = card_of(arg);
    if (k < 0)
        return NULL;
    char buf[3];
    return PyUnicode_FromString(okr_card_str(k, buf));
}

static PyObject *m_cards(PyObject *m, PyObject *arg)
{
    (void)m;
    uint8_t cards[OKR_MAX_CARDS];
    if (PyUnicode_Check(arg)) {
        const char *s = PyUnicode_AsUTF8(arg);
        okr_refusal why;
        if (!s)
            return NULL;
        int n = okr_cards_parse(s, cards, OKR_MAX_CARDS, &why);
        if (n < 0)
            return PyErr_Format(PyExc_ValueError, "%s", why.reason);
        return u8_list(cards, n);
    }
    int n = pack_of(arg, cards);
    return n < 0 ? NULL : u8_list(cards, n);
}

static PyObject *m_cards_str(PyObject *m, PyObject *arg)
{
    (void)m;
    PyObject *seq = PySequence_Fast(arg, "cards_str: a list of cards");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *parts = PyList_New(n);
    for (Py_ssize_t i = 0; parts && i < n; i++) {
        int k = card_of(PySequence_Fast_GET_ITEM(seq, i));
        char buf[3];
        if (k < 0) {
            Py_CLEAR(parts);
            break;
        }
        PyList_SET_ITEM(parts, i, PyUnicode_FromString(okr_card_str(k, buf)));
    }
    Py_DECREF(seq);
    if (!parts)
        return NULL;
    PyObject *sep = PyUnicode_FromString(" ");
    PyObject *s = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return s;
}

static PyObject *m_card_value(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"card", "rules", NULL};
    PyObject *card, *rules = NULL;
    okr_rules r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:card_value", kwlist, &card, &rules) ||
        rules_of(rules, &r) < 0)
        return NULL;
    int k = card_of(card);
    return k < 0 ? NULL : PyLong_FromLong(okr_card_debit(&r, k));
}

/* A hand the helpers can take under r: no kind more often than the pack holds it and, for the
 * gin helpers (whose search grows fast with the hand), at most hand_size + 1 cards. 0 or -1. */
static int hand_fits(const okr_rules *r, const uint8_t h[OKR_KINDS], int max_total)
{
    int total = 0;
    for (int k = 0; k < OKR_KINDS; k++) {
        total += h[k];
        if (h[k] > (k == OKR_JOKER ? r->jokers : r->decks)) {
            PyErr_Format(PyExc_ValueError,
                         "the hand holds %d of a kind the pack has %d of (RULES 1.1)", h[k],
                         k == OKR_JOKER ? r->jokers : r->decks);
            return -1;
        }
    }
    if (max_total >= 0 && total > max_total) {
        PyErr_Format(PyExc_ValueError, "a gin hand holds at most %d cards, not %d", max_total,
                     total);
        return -1;
    }
    return 0;
}

static PyObject *m_find_melds(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"hand", "rules", NULL};
    PyObject *hand, *rules = NULL;
    okr_rules r;
    okr_refusal why;
    okr_rules_preset(&r, "laws", &why); /* the rummy family's default; gin melds: gin_best */
    uint8_t h[OKR_KINDS];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:find_melds", kwlist, &hand, &rules) ||
        (rules && rules_of(rules, &r) < 0) || hand_of(hand, h) < 0 || hand_fits(&r, h, -1) < 0)
        return NULL;
    /* the scratch action list doubles as room for the specs: far more than any hand needs */
    okr_spec *specs = (okr_spec *)scratch;
    int cap = (int)(sizeof(scratch) / (sizeof(okr_spec)));
    int n = okr_find_melds(&r, h, specs, cap);
    if (n < 0)
        return PyErr_Format(PyExc_RuntimeError, "okr_find_melds overflowed");
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *s = spec_ns(&specs[i]);
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject *m_gin_best(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"hand", "rules", NULL};
    PyObject *hand, *rules = NULL;
    okr_rules r;
    uint8_t h[OKR_KINDS];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:gin_best", kwlist, &hand, &rules) ||
        rules_of(rules, &r) < 0 || hand_of(hand, h) < 0 || hand_fits(&r, h, r.hand_size + 1) < 0)
        return NULL;
    okr_ginmeld melds[OKR_GIN_MELDS];
    int nm = 0;
    int dw = okr_gin_best(&r, h, melds, &nm);
    return Py_BuildValue("(iN)", dw, ginmelds_list(melds, nm));
}

/* Gin with 11 cards: the discard that leaves the least deadwood (G5), ties to the lowest
 * card. Returns (card, deadwood, melds) of the 10 cards kept. */
static PyObject *m_gin_best_discard(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"hand", "rules", NULL};
    PyObject *hand, *rules = NULL;
    okr_rules r;
    uint8_t h[OKR_KINDS];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:gin_best_discard", kwlist, &hand, &rules) ||
        rules_of(rules, &r) < 0 || hand_of(hand, h) < 0 || hand_fits(&r, h, r.hand_size + 1) < 0)
        return NULL;
    int best = -1, best_dw = 0, best_n = 0;
    okr_ginmeld best_m[OKR_GIN_MELDS];
    for (int k = 0; k < OKR_KINDS; k++) {
        if (!h[k])
            continue;
        okr_ginmeld ms[OKR_GIN_MELDS];
        int nm = 0;
        h[k]--;
        int dw = okr_gin_best(&r, h, ms, &nm);
        h[k]++;
        if (best < 0 || dw < best_dw) {
            best = k;
            best_dw = dw;
            best_n = nm;
            memcpy(best_m, ms, sizeof ms);
        }
    }
    if (best < 0)
        return PyErr_Format(PyExc_ValueError, "gin_best_discard: the hand is empty");
    return Py_BuildValue("(iiN)", best, best_dw, ginmelds_list(best_m, best_n));
}

static PyObject *m_shuffle(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"seed", "hand_no", "rules", NULL};
    unsigned long long seed;
    int hand_no = 1;
    PyObject *rules = NULL;
    okr_rules r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "K|iO:shuffle", kwlist, &seed, &hand_no, &rules) ||
        rules_of(rules, &r) < 0)
        return NULL;
    uint8_t out[OKR_MAX_CARDS];
    int n = okr_shuffle(&r, (uint64_t)seed, hand_no, out, OKR_MAX_CARDS);
    if (n < 0)
        return PyErr_Format(PyExc_ValueError, "okr_shuffle failed (%d)", n);
    return u8_list(out, n);
}

static PyObject *m_option_names(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    PyObject *l = PyList_New(0);
    const char *name;
    for (int i = 0; l && (name = okr_rules_option_name(i)); i++) {
        PyObject *s = PyUnicode_FromString(name);
        if (!s || PyList_Append(l, s) < 0)
            Py_CLEAR(l);
        Py_XDECREF(s);
    }
    return l;
}

/* ---- Views from elsewhere (okbot's protobuf View, or any object with its fields) --------- */

static int attr_long(PyObject *o, const char *name, long lo, long hi, long *out)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "view.%s = %ld is out of range %ld..%ld", name, x, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* view.NAME as a list of at most `cap` ints in lo..hi, written as int32; the count or -1. */
static int attr_ints(PyObject *o, const char *name, long lo, long hi, int32_t *out, int cap)
{
    char what[64];
    snprintf(what, sizeof what, "view.%s", name);
    return ints_of(PyObject_GetAttrString(o, name), what, lo, hi, out, cap);
}

/* Fill *v from an object with the protocol View's fields (proto/okr.proto). 0 or -1. The
 * engine's okr_determinize then checks it against the pack. */
static int view_from_fields(PyObject *o, okr_view *v)
{
    int32_t buf[OKR_MAX_CARDS];
    long x;
    memset(v, 0, sizeof *v);
#define FIELD(name, hi, dst)                                                                       \
    do {                                                                                           \
        if (attr_long(o, name, 0, hi, &x) < 0)                                                     \
            return -1;                                                                             \
        dst = (uint8_t)x;                                                                          \
    } while (0)
    FIELD("seat", OKR_MAX_PLAYERS - 1, v->seat);
    FIELD("players", OKR_MAX_PLAYERS, v->players);
    FIELD("phase", OKR_PH_GAME_OVER, v->phase);
    FIELD("dealer", OKR_MAX_PLAYERS - 1, v->dealer);
    FIELD("turn_seat", OKR_MAX_PLAYERS - 1, v->turn_seat);
    FIELD("to_act", OKR_MAX_PLAYERS - 1, v->to_act);
    FIELD("stock_size", OKR_MAX_CARDS, v->stock_n);
    FIELD("upcard", 255, v->upcard);
    FIELD("stock_locked", 1, v->stock_locked);
    FIELD("discarder", OKR_MAX_PLAYERS - 1, v->discarder);
    FIELD("claim_meld", 255, v->claim_meld);
    FIELD("upcard_passes", OKR_MAX_PLAYERS, v->upcard_passes);
#undef FIELD
    if (attr_long(o, "hand_no", 0, 65535, &x) < 0)
        return -1;
    v->hand_no = (uint16_t)x;
    if (attr_long(o, "turns", 0, 65535, &x) < 0)
        return -1;
    v->turns = (uint16_t)x;
    int p = v->players, n;
    if ((n = attr_ints(o, "hand", 0, OKR_KINDS - 1, buf, OKR_MAX_CARDS)) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        v->hand[buf[i]]++;
    if ((n = attr_ints(o, "pile", 0, OKR_KINDS - 1, buf, OKR_MAX_CARDS)) < 0)
        return -1;
    v->pile_n = (uint8_t)n;
    for (int i = 0; i < n; i++)
        v->pile[i] = (uint8_t)buf[i];
    if ((n = attr_ints(o, "hand_sizes", 0, OKR_MAX_CARDS, buf, p)) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        v->hand_n[i] = (uint8_t)buf[i];
    if ((n = attr_ints(o, "turns_drawn", 0, 2, buf, p)) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        v->drew[i] = (uint8_t)buf[i];
    if ((n = attr_ints(o, "melded_before", 0, 1, buf, p)) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        v->melded_before[i] = (uint8_t)buf[i];
    if (attr_ints(o, "scores", INT32_MIN, INT32_MAX, v->score, p) < 0 ||
        attr_ints(o, "concealed", INT32_MIN, INT32_MAX, v->concealed, p) < 0)
        return -1;
    PyObject *melds = PyObject_GetAttrString(o, "melds");
    PyObject *seq = melds ? PySequence_Fast(melds, "view.melds: a list") : NULL;
    Py_XDECREF(melds);
    if (!seq)
        return -1;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(seq);
    if (nm > OKR_MAX_MELDS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "view.melds: more than %d", OKR_MAX_MELDS);
        return -1;
    }
    v->meld_n = (uint8_t)nm;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        okr_meld *d = &v->meld[i];
        int32_t cards[OKR_MELD_CARDS], as[OKR_MELD_CARDS];
        PyObject *t = PyObject_GetAttrString(m, "type");
        long type = -1;
        if (t && PyUnicode_Check(t))
            type = PyUnicode_CompareWithASCIIString(t, "run") == 0 ? OKR_RUN : OKR_SET;
        else if (t)
            type = PyLong_AsLong(t); /* the protocol's MeldType: 1 set, 2 run */
        Py_XDECREF(t);
        int nc = -1, na = -1;
        if (type == OKR_SET || type == OKR_RUN) {
            nc = attr_ints(m, "cards", 0, OKR_KINDS - 1, cards, OKR_MELD_CARDS);
            na = nc < 0 ? -1
                        : attr_ints(m, PyObject_HasAttrString(m, "as_") ? "as_" : "as", 0,
                                    OKR_KINDS - 1, as, OKR_MELD_CARDS);
        } else if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "view.melds[%zd].type: 'set' or 'run'", i);
        }
        if (na < 0 || na != nc || attr_long(m, "owner", 0, OKR_MAX_PLAYERS - 1, &x) < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "view.melds[%zd]: cards and as_ differ", i);
            Py_DECREF(seq);
            return -1;
        }
        d->owner = (uint8_t)x;
        d->type = (uint8_t)type;
        d->n = (uint8_t)nc;
        for (int k = 0; k < nc; k++) {
            d->card[k] = (uint8_t)cards[k];
            d->as[k] = (uint8_t)as[k];
        }
        long lo = 0, rank = 0, suit = 0;
        if (attr_long(m, "lo", 0, 13, &lo) < 0 || attr_long(m, "rank", 0, 13, &rank) < 0 ||
            attr_long(m, "suit", 0, 3, &suit) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        d->lo = (uint8_t)lo;
        d->rank = (uint8_t)rank;
        d->suit = (uint8_t)suit;
    }
    Py_DECREF(seq);
    return 0;
}

/* determinize's known=: {seat: cards} or one list of cards per seat (None or empty for
 * none), each as hand_of reads them, into counts. 0 or -1. */
static int known_of(PyObject *o, int players, uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS])
{
    memset(known, 0, (size_t)OKR_MAX_PLAYERS * OKR_KINDS);
    int dict = PyDict_Check(o);
    PyObject *seq = dict ? PyDict_Items(o) : PySequence_List(o);
    if (!seq) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "known: {seat: cards} or a list of cards per seat");
        }
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(seq);
    int rc = 0;
    if (!dict && n > players) {
        PyErr_Format(PyExc_ValueError, "known: %zd lists for %d seats", n, players);
        rc = -1;
    }
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        PyObject *item = PyList_GET_ITEM(seq, i), *cards = item;
        long seat = (long)i;
        if (dict) {
            seat = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
            cards = PyTuple_GET_ITEM(item, 1);
            if (seat == -1 && PyErr_Occurred()) {
                rc = -1;
                break;
            }
            if (seat < 0 || seat >= players) {
                PyErr_Format(PyExc_ValueError, "known: seat %ld, the table has 0..%d", seat,
                             players - 1);
                rc = -1;
                break;
            }
        }
        if (cards == Py_None)
            continue;
        rc = hand_of(cards, known[seat]);
    }
    Py_DECREF(seq);
    return rc;
}

/* A full game consistent with what a view's seat knows (RULES 8.3): only the view's own
 * content goes in, so nothing hidden can come out. `view`: from Game.view(), or okbot's
 * protocol View (then `rules` is needed: an okr.Rules or a preset name). `rng`: an int seed,
 * or an object with getrandbits (random.Random). `known`: cards the table saw go into other
 * hands and not leave them (okr_determinize_known), dealt there in every world. */
static PyObject *m_determinize(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"view", "rng", "rules", "known", NULL};
    PyObject *view, *rng, *rules_arg = NULL, *known_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:determinize", kwlist, &view, &rng, &rules_arg,
                                     &known_arg))
        return NULL;
    okr_rules r;
    okr_view v;
    unsigned long long seed = 0;
    PyObject *raw = PyObject_GetAttrString(view, "_raw");
    if (!raw)
        PyErr_Clear();
    if (raw && PyObject_TypeCheck(raw, &RawViewType)) {
        v = ((RawViewObject *)raw)->v;
    } else if (view_from_fields(view, &v) < 0) {
        Py_XDECREF(raw);
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError,
                            "determinize: a view (Game.view() or the protocol's View)");
        }
        return NULL;
    }
    Py_XDECREF(raw);
    if (rules_arg && rules_arg != Py_None) {
        if (rules_of(rules_arg, &r) < 0)
            return NULL;
    } else {
        PyObject *rules = PyObject_GetAttrString(view, "rules");
        if (!rules) {
            PyErr_Clear();
            return PyErr_Format(PyExc_TypeError,
                                "determinize: this view has no rules: pass rules=okr.rules(...)");
        }
        int rc = rules_of(rules, &r);
        Py_DECREF(rules);
        if (rc < 0)
            return NULL;
    }
    if (PyLong_Check(rng)) {
        seed = PyLong_AsUnsignedLongLongMask(rng);
    } else {
        PyObject *bits = PyObject_CallMethod(rng, "getrandbits", "i", 64);
        if (!bits)
            return NULL;
        seed = PyLong_AsUnsignedLongLongMask(bits);
        Py_DECREF(bits);
    }
    if (PyErr_Occurred())
        return NULL;
    uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS];
    int has_known = known_arg != Py_None;
    if (has_known && known_of(known_arg, v.players, known) < 0)
        return NULL;
    GameObject *o = game_alloc(&GameType);
    if (!o)
        return NULL;
    okr_refusal why;
    if (okr_determinize_known(&r, &v, has_known ? (const uint8_t(*)[OKR_KINDS])known : NULL,
                              (uint64_t)seed, &o->g, &why) != OKR_OK) {
        Py_DECREF(o);
        return refuse(&why);
    }
    if (has_known) { /* what the table saw is public in the world too: observe()'s planes */
        memcpy(o->known, known, sizeof o->known);
        o->known_hand = o->g.hand_no;
    }
    return (PyObject *)o;
}

/* A view from Game.view() (its raw engine view) or from fields (okbot's View). 0 or -1. */
static int any_view(PyObject *view, okr_view *v, const char *fn)
{
    PyObject *raw = PyObject_GetAttrString(view, "_raw");
    if (!raw)
        PyErr_Clear();
    if (raw && PyObject_TypeCheck(raw, &RawViewType)) {
        *v = ((RawViewObject *)raw)->v;
        Py_DECREF(raw);
        return 0;
    }
    Py_XDECREF(raw);
    if (view_from_fields(view, v) < 0) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: a view (Game.view() or the protocol's View)", fn);
        }
        return -1;
    }
    return 0;
}

/* _observe_view(view, rules, known=None, out=None): Game.observe's numbers from a view alone
 * (fill_obs, the one encoding); known: per seat (absolute) lists of cards, as Game.known().
 * okr.observe_view in __init__.py reads okbot's ctx for the rules. */
static PyObject *m_observe_view(PyObject *m, PyObject *args, PyObject *kw)
{
    (void)m;
    static char *kwlist[] = {"view", "rules", "known", "out", NULL};
    PyObject *view, *rules_arg, *known_arg = Py_None, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:observe_view", kwlist, &view, &rules_arg,
                                     &known_arg, &out))
        return NULL;
    okr_view v;
    okr_rules r;
    if (any_view(view, &v, "observe_view") < 0 || rules_of(rules_arg, &r) < 0)
        return NULL;
    if (v.players < 1 || v.seat >= v.players)
        return PyErr_Format(PyExc_ValueError, "observe_view: seat %d of %d players", v.seat,
                            v.players);
    uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS];
    if (known_arg != Py_None && known_of(known_arg, v.players, known) < 0)
        return NULL;
    int n = obs_size(v.players);
    PyObject *res = out == Py_None ? new_out(n, 1) : (Py_INCREF(out), out);
    Py_buffer b;
    if (!res || get_out(res, n, 1, &b) < 0) {
        Py_XDECREF(res);
        return NULL;
    }
    float
        tmp[OBS_W * (OBS_FIXED_PLANES + OKR_MAX_PLAYERS) + 2 * OKR_MAX_PLAYERS + OBS_SCALARS_FIXED];
    fill_obs(&v, &r, known_arg != Py_None ? (const uint8_t(*)[OKR_KINDS])known : NULL, tmp);
    memcpy(b.buf, tmp, sizeof(float) * (size_t)n);
    PyBuffer_Release(&b);
    return res;
}

/* _known_step(known, seat, type, how, card, cards, taken, pile): known_update, the rule
 * Game.apply follows, for an action seen as an event (okr.Observer). known: a bytearray of
 * MAX_PLAYERS * KINDS counts, changed in place; cards: a new meld's cards (MELD, take or claim
 * new), else empty; pile: the pile before the action, bottom first. */
static PyObject *m_known_step(PyObject *m, PyObject *args)
{
    (void)m;
    Py_buffer kb;
    int seat, type, how, card, taken;
    PyObject *cards, *pile;
    if (!PyArg_ParseTuple(args, "w*iiiiOiO:_known_step", &kb, &seat, &type, &how, &card, &cards,
                          &taken, &pile))
        return NULL;
    int32_t c[OKR_SPEC_CARDS], pl[OKR_MAX_CARDS];
    int nc = -1, np = -1;
    if (kb.len != OKR_MAX_PLAYERS * OKR_KINDS || seat < 0 || seat >= OKR_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "_known_step: known is MAX_PLAYERS * KINDS bytes");
    } else {
        Py_INCREF(cards); /* ints_of takes a reference */
        Py_INCREF(pile);
        nc = ints_of(cards, "cards", 0, OKR_KINDS - 1, c, OKR_SPEC_CARDS);
        if (nc >= 0)
            np = ints_of(pile, "pile", 0, OKR_KINDS - 1, pl, OKR_MAX_CARDS);
        else
            Py_DECREF(pile);
    }
    if (np < 0) {
        PyBuffer_Release(&kb);
        return NULL;
    }
    okr_action a;
    memset(&a, 0, sizeof a);
    a.seat = (uint8_t)seat;
    a.type = (uint8_t)type;
    a.how = (uint8_t)how;
    a.card = (uint8_t)card;
    a.u.spec.n = (uint8_t)nc;
    for (int i = 0; i < nc; i++)
        a.u.spec.card[i] = (uint8_t)c[i];
    uint8_t p8[OKR_MAX_CARDS];
    for (int i = 0; i < np; i++)
        p8[i] = (uint8_t)pl[i];
    known_update((uint8_t(*)[OKR_KINDS])kb.buf, &a, taken, p8, np);
    PyBuffer_Release(&kb);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_observe_view", (PyCFunction)(void (*)(void))m_observe_view, METH_VARARGS | METH_KEYWORDS,
     "_observe_view(view, rules, known=None, out=None): Game.observe() from a view alone."},
    {"_known_step", m_known_step, METH_VARARGS,
     "_known_step(known, seat, type, how, card, cards, taken, pile): Game's known-card rule."},
    {"card", m_card, METH_O, "card('QS') -> 50: a card's kind from text (or a kind)."},
    {"card_str", m_card_str, METH_O, "card_str(50) -> 'QS'."},
    {"cards", m_cards, METH_O, "cards('AS 2S') -> [39, 40]."},
    {"cards_str", m_cards_str, METH_O, "cards_str([39, 40]) -> 'AS 2S'."},
    {"card_value", (PyCFunction)(void (*)(void))m_card_value, METH_VARARGS | METH_KEYWORDS,
     "card_value(card, rules='gin'): deadwood value in gin (G1), hand debit in rummy (7.1)."},
    {"find_melds", (PyCFunction)(void (*)(void))m_find_melds, METH_VARARGS | METH_KEYWORDS,
     "find_melds(hand, rules='laws'): every three-card meld the hand can lay (rummy presets; "
     "gin: [], use gin_best)."},
    {"gin_best", (PyCFunction)(void (*)(void))m_gin_best, METH_VARARGS | METH_KEYWORDS,
     "gin_best(hand, rules='gin') -> (deadwood, melds): the least deadwood (G5)."},
    {"gin_best_discard", (PyCFunction)(void (*)(void))m_gin_best_discard,
     METH_VARARGS | METH_KEYWORDS,
     "gin_best_discard(hand11, rules='gin') -> (card, deadwood, melds)."},
    {"shuffle", (PyCFunction)(void (*)(void))m_shuffle, METH_VARARGS | METH_KEYWORDS,
     "shuffle(seed, hand_no=1, rules='gin'): the pack of that hand, in dealing order."},
    {"option_names", m_option_names, METH_NOARGS, "Every rule option's name."},
    {"_from_position_raw", m_from_position_raw, METH_VARARGS,
     "_from_position_raw(rules, fields): okr_game_from_position on plain fields."},
    {"determinize", (PyCFunction)(void (*)(void))m_determinize, METH_VARARGS | METH_KEYWORDS,
     "determinize(view, rng, rules=None, known=None): a Game consistent with what the view's "
     "seat knows; view from Game.view() or okbot (then rules=...); known: {seat: cards} seen "
     "going into other hands, dealt there."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "okr._okr",
                                        "The okarena rules engine (C) for Python.",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

static int add_int(PyObject *m, const char *name, long v)
{
    return PyModule_AddIntConstant(m, name, v);
}

PyMODINIT_FUNC PyInit__okr(void);
PyMODINIT_FUNC PyInit__okr(void)
{
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&ActionType) < 0 ||
        PyType_Ready(&GameType) < 0 || PyType_Ready(&RawViewType) < 0)
        return NULL;
    PyObject *types = PyImport_ImportModule("types");
    if (!types)
        return NULL;
    Namespace = PyObject_GetAttrString(types, "SimpleNamespace");
    Py_DECREF(types);
    if (!Namespace)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    PyObject *kind_bases = PyTuple_Pack(2, PyExc_IndexError, PyExc_ValueError);
    IndexKindError =
        kind_bases
            ? PyErr_NewExceptionWithDoc("okr.IndexKindError",
                                        "An int of one convention given where the other is "
                                        "expected: an action id to apply(), which reads legal() "
                                        "indices (an IndexError and a ValueError).",
                                        kind_bases, NULL)
            : NULL;
    Py_XDECREF(kind_bases);
    AmbiguousIndexWarning = PyErr_NewExceptionWithDoc(
        "okr.AmbiguousIndexWarning",
        "apply(i) with an int that is both an index into legal() and a legal action id of "
        "another move: the legal index was played; say which with apply_legal or apply_id.",
        PyExc_UserWarning, NULL);
    if (!IndexKindError || !AmbiguousIndexWarning ||
        PyModule_AddObjectRef(m, "IndexKindError", IndexKindError) < 0 ||
        PyModule_AddObjectRef(m, "AmbiguousIndexWarning", AmbiguousIndexWarning) < 0)
        return NULL;
    Refused = PyErr_NewExceptionWithDoc(
        "okr.Refused", "The engine refused: .rule is the rule number (RULES.md), .reason why.",
        PyExc_ValueError, NULL);
    if (!Refused || PyModule_AddObjectRef(m, "Refused", Refused) < 0 ||
        PyModule_AddObjectRef(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "Action", (PyObject *)&ActionType) < 0)
        goto fail;
    static const struct {
        const char *name;
        long v;
    } ints[] = {
        {"DRAW", OKR_A_DRAW},
        {"TAKE", OKR_A_TAKE},
        {"MELD", OKR_A_MELD},
        {"ADD", OKR_A_ADD},
        {"REPLACE", OKR_A_REPLACE},
        {"DISCARD", OKR_A_DISCARD},
        {"CLAIM", OKR_A_CLAIM},
        {"KNOCK", OKR_A_KNOCK},
        {"PASS", OKR_A_PASS},
        {"HOW_PLAIN", OKR_HOW_PLAIN},
        {"HOW_NEW", OKR_HOW_NEW},
        {"HOW_ADD", OKR_HOW_ADD},
        {"HOW_JOKER", OKR_HOW_JOKER},
        {"PH_UPCARD", OKR_PH_UPCARD},
        {"PH_GIN_UPCARD", OKR_PH_GIN_UPCARD},
        {"PH_DRAW", OKR_PH_DRAW},
        {"PH_CLAIM", OKR_PH_CLAIM},
        {"PH_CLAIM_MELD", OKR_PH_CLAIM_MELD},
        {"PH_PLAY", OKR_PH_PLAY},
        {"PH_HAND_OVER", OKR_PH_HAND_OVER},
        {"PH_GAME_OVER", OKR_PH_GAME_OVER},
        {"JOKER", OKR_JOKER},
        {"KINDS", OKR_KINDS},
        {"MAX_PLAYERS", OKR_MAX_PLAYERS},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (add_int(m, ints[i].name, ints[i].v) < 0)
            goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
