/* spidercli's search of the whole space of play (ProofSearch in proof.py), compiled.
 *
 * This file is optional: ProofSearch uses it when it was built, and its own Python search
 * otherwise. It must search exactly as the Python does: every legal action in the order of
 * Solver.moves(node, True) (every count of every movable group onto every column that takes it,
 * then onto each empty column, then the deal when legal), depth first, each position once up to
 * position_key's equivalence, the same positions counted (it tells the budget every 256 at most:
 * _Budget.grant) and so the same line when it wins and the same count when it proves. The tests
 * compare the two (tests/test_proof_compiled.py).
 *
 * What differs is the memory a position costs. The Python search keeps each key as tuples of
 * bytes, and a generator a level of its path (about 1 KB a position). Here:
 *
 * - A key is a few dozen bytes in an arena (blocks of 64 MB, never moved). A column is written
 *   as its face-down count, which column of the start its face-down cards are the bottom of (they
 *   never move: they are always the first cards of the column they were dealt to), and its
 *   face-up cards: 3 bits for a card one rank below the card under it (its suit), 7 bits for any
 *   other card or for a one-suit run of 3 to 11 such cards (see encode). The encoding is a
 *   function of the column's cards and face-down count and can be decoded back to them, so two
 *   columns are equal exactly when their encodings are: the equivalence is the Python key's.
 * - An open-addressing table of 8-byte slots (a 28-bit tag of the key's hash and the key's
 *   offset) finds a key; every tag match is settled by comparing the whole key. Two positions are
 *   one only when their keys are equal, never because their hashes are: a proof cannot rest on
 *   chance. The table is rebuilt from the arena when it grows (the keys are read again in order),
 *   so the old table is freed first.
 * - The path is one mutable position, actions applied and undone, with 8 bytes a level: where
 *   that level's actions resume (the last one tried) and what its action changed (to undo it).
 *   A path millions of actions deep is fine.
 *
 * The search stops by itself (gave up) before the arena, the table and the path together would
 * pass max_bytes (but for the first table and path, 40 KB, held from the start), or past
 * max_positions.
 *
 * Plain CPython C API, no other dependency. Cards are bytes: suit << 4 | rank (rank 1..13).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_passes.h" /* read_cards, get_long, set_long, ask_grant, tell_grant: shared */

#define MAXCOLS 10
#define MAXCARDS 127
#define MAXDEALS 63
/* A column's encoding: a header of 1 or 2 bytes, then at most 7 bits a card and 7 for the end,
 * padded to a byte. */
#define ENC_MAX (2 + ((MAXCARDS + 1) * 7 + 7) / 8)
/* A key: its length byte, the deals done, the columns' encodings (127 cards and 10 columns: at
 * most 2 + 10 * 3 + (127 + 10) * 7 / 8 bytes, under 255). */
#define KEY_MAX 256
#define END_CODE 63
/* RUN_CODE + n (54..62): a one-suit run of n = 3..11 cards down from the card under them (52
 * and 53 are unused). */
#define RUN_CODE 51

#define BLOCK_BITS 26
#define BLOCK ((size_t)1 << BLOCK_BITS) /* the arena's blocks: 64 MB */
#define OFFSET_BITS 36                  /* a slot: 28 bits of tag, then offset + 1 (0: empty) */
#define OFFSET_MASK ((UINT64_C(1) << OFFSET_BITS) - 1)
#define MAX_BLOCKS (((size_t)1 << (OFFSET_BITS - BLOCK_BITS)) - 1)
#define FIRST_SLOTS ((size_t)1 << 12)

/* ------------------------------------------------------------------ the path */

enum { ON_CARDS, ON_EMPTY, THE_DEAL, DONE }; /* where a level's actions are: Frame.ph */
#define NONE 0xFF                            /* Frame.t before the first target of a phase */

/* What an action changed (Frame.undo). A move: bits 0-2, the suit of a run removed at 4-5.
 * A deal: DEALT, the columns where it removed a run (bits 0-9) and turned a card (bits 10-19). */
#define SRC_TURNED 1u
#define RUN_OFF 2u
#define DST_TURNED 4u
#define DEALT (1u << 31)

typedef struct {
    uint8_t s, t, k; /* the move last tried from this level's position */
    uint8_t ph;      /* ON_CARDS, ON_EMPTY, THE_DEAL (the deal is next) or DONE */
    uint32_t undo;   /* what the action last applied changed */
} Frame;             /* 8 bytes a level */

/* ------------------------------------------------------------------ the search */

typedef struct {
    int ncols, nchunks, permissive, goal;
    /* the position: each column's cards bottom to top, face-down counts, deals done, runs */
    uint8_t col[MAXCOLS][MAXCARDS + 1];
    uint8_t len[MAXCOLS], down[MAXCOLS];
    int dealt, runs;
    uint8_t chunk[MAXDEALS][MAXCOLS];
    uint8_t chunk_len[MAXDEALS];
    /* canon[i][d]: the first column whose d bottom cards are column i's d bottom cards */
    uint8_t canon[MAXCOLS][256];
    uint8_t start_down[MAXCOLS];
    /* each column's encoding, kept up to date; the columns in their encodings' order */
    uint8_t enc[MAXCOLS][ENC_MAX];
    uint8_t enc_len[MAXCOLS];
    uint8_t order[MAXCOLS];
    uint8_t key[KEY_MAX];
    size_t key_len; /* its length byte included */
    /* the set of keys met */
    uint64_t *slots;
    size_t mask, count;
    uint8_t **blocks;
    size_t *block_used;
    size_t nblocks, blocks_cap;
    /* the path: frames[0] is the start's */
    Frame *frames;
    size_t nframes, frames_cap;
    unsigned long long max_bytes;
    /* the budget: positions it let the search count before it asks again, and those counted
     * since it was last told; what the search tells it and the caller */
    Py_ssize_t allowance, spent;
    size_t positions;
    long long best_runs, best_deals;
    PyObject *grant, *progress, *counts;
} Proof;

/* ------------------------------------------------------------------ columns and keys */

static inline void put_bits(uint8_t *out, size_t *pos, uint64_t *acc, int *bits, uint32_t v,
                            int n) {
    *acc = *acc << n | v;
    *bits += n;
    while (*bits >= 8) {
        *bits -= 8;
        out[(*pos)++] = (uint8_t)(*acc >> *bits);
    }
}

/* Column i's encoding: a header byte (face-down count if under 15, then the column its face-down
 * cards come from; a count from 15 up in a second byte), then its face-up cards bottom to top,
 * then an end code and zero bits to the byte. A card one rank below the card under it is 1 and
 * its suit (3 bits: most face-up cards, as moves build); a one-suit run of 3 to 11 cards down
 * from the card under them is 0 and a 6-bit code (52..62); any other card is 0 and its 6-bit
 * code (suit * 13 + rank - 1); the end 0 and 63. Decoding gives the column back, so two columns
 * are equal exactly when their encodings are. */
static void encode(Proof *P, int i) {
    const uint8_t *col = P->col[i];
    int n = P->len[i], d = P->down[i];
    uint8_t *out = P->enc[i];
    size_t pos = 0;
    out[pos++] = (uint8_t)((d < 15 ? d : 15) << 4 | P->canon[i][d]);
    if (d >= 15)
        out[pos++] = (uint8_t)d;
    uint64_t acc = 0;
    int bits = 0;
    for (int j = d; j < n;) {
        uint8_t c = col[j];
        if (j > d) {
            int run = 0; /* the one-suit run down from the card under c, c first */
            while (run < 11 && j + run < n && col[j + run] == col[j + run - 1] - 1)
                run++;
            if (run >= 3) {
                put_bits(out, &pos, &acc, &bits, (uint32_t)(RUN_CODE + run), 7);
                j += run;
                continue;
            }
            if ((c & 15) + 1 == (col[j - 1] & 15)) {
                put_bits(out, &pos, &acc, &bits, 4u | (uint32_t)(c >> 4), 3);
                j++;
                continue;
            }
        }
        put_bits(out, &pos, &acc, &bits, (uint32_t)((c >> 4) * 13 + (c & 15) - 1), 7);
        j++;
    }
    put_bits(out, &pos, &acc, &bits, END_CODE, 7);
    if (bits)
        out[pos++] = (uint8_t)(acc << (8 - bits));
    P->enc_len[i] = (uint8_t)pos;
}

static inline int enc_cmp(const Proof *P, int a, int b) {
    int la = P->enc_len[a], lb = P->enc_len[b];
    int c = memcmp(P->enc[a], P->enc[b], (size_t)(la < lb ? la : lb));
    return c ? c : la - lb;
}

/* The position's key in P->key: its length, the deals done and the columns' encodings, in place
 * while cards remain to deal, in their encodings' order once the stock is out (position_key:
 * then the columns are a multiset). */
static void make_key(Proof *P) {
    uint8_t *k = P->key;
    size_t pos = 1;
    k[pos++] = (uint8_t)P->dealt;
    if (P->dealt < P->nchunks) {
        for (int i = 0; i < P->ncols; i++) {
            memcpy(k + pos, P->enc[i], P->enc_len[i]);
            pos += P->enc_len[i];
        }
    } else {
        /* insertion sort from the last order: an action changes one to ten columns */
        uint8_t *o = P->order;
        for (int i = 1; i < P->ncols; i++) {
            uint8_t x = o[i];
            int j = i - 1;
            while (j >= 0 && enc_cmp(P, o[j], x) > 0) {
                o[j + 1] = o[j];
                j--;
            }
            o[j + 1] = x;
        }
        for (int i = 0; i < P->ncols; i++) {
            memcpy(k + pos, P->enc[o[i]], P->enc_len[o[i]]);
            pos += P->enc_len[o[i]];
        }
    }
    k[0] = (uint8_t)(pos - 1);
    P->key_len = pos;
}

/* A 64-bit hash of a key's bytes (its length byte included): where it is looked for. Any
 * function would find the same keys; a good one finds them faster. */
static uint64_t hash_key(const uint8_t *p, size_t n) {
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(n + 1);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, p + i, n - i);
        h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
    return h ^ (h >> 31);
}

static inline const uint8_t *stored(const Proof *P, uint64_t slot) {
    uint64_t off = (slot & OFFSET_MASK) - 1;
    return P->blocks[off >> BLOCK_BITS] + (off & (BLOCK - 1));
}

/* Where the key in P->key is: 1 when met (its slot in *at), 0 when not (the empty slot it goes
 * to in *at). */
static int lookup(const Proof *P, uint64_t h, size_t *at) {
    uint64_t tag = h >> OFFSET_BITS;
    size_t i = (size_t)h & P->mask;
    for (;; i = (i + 1) & P->mask) {
        uint64_t slot = P->slots[i];
        if (!slot) {
            *at = i;
            return 0;
        }
        if (slot >> OFFSET_BITS == tag) { /* the tags match: the whole key decides */
            const uint8_t *k = stored(P, slot);
            if (k[0] == P->key[0] && memcmp(k + 1, P->key + 1, P->key_len - 1) == 0) {
                *at = i;
                return 1;
            }
        }
    }
}

static void place(Proof *P, uint64_t h, uint64_t off) {
    size_t i = (size_t)h & P->mask;
    while (P->slots[i])
        i = (i + 1) & P->mask;
    P->slots[i] = (h >> OFFSET_BITS) << OFFSET_BITS | (off + 1);
}

/* The table, twice as large: the old one freed first, then every key read again from the arena
 * in the order stored. Returns -1 when out of memory (the table is gone then). */
static int grow(Proof *P) {
    size_t n = (P->mask + 1) * 2;
    free(P->slots);
    P->slots = calloc(n, sizeof(uint64_t));
    if (!P->slots)
        return -1;
    P->mask = n - 1;
    for (size_t b = 0; b < P->nblocks; b++) {
        const uint8_t *base = P->blocks[b];
        for (size_t pos = 0; pos < P->block_used[b]; pos += (size_t)base[pos] + 1)
            place(P, hash_key(base + pos, (size_t)base[pos] + 1),
                  (uint64_t)b << BLOCK_BITS | (uint64_t)pos);
    }
    return 0;
}

/* The memory held: the arena's bytes in use, the table and the path. The last block's unused
 * part is not counted: it is allocated (so the address space may pass the budget by up to one
 * block, 64 MB) but its pages are not touched, so not resident, until keys are written there. */
static unsigned long long held(const Proof *P, size_t slots, size_t frames) {
    unsigned long long arena = 0;
    if (P->nblocks)
        arena = (unsigned long long)(P->nblocks - 1) * BLOCK + P->block_used[P->nblocks - 1];
    return arena + (unsigned long long)slots * sizeof(uint64_t) +
           (unsigned long long)frames * sizeof(Frame);
}

/* Make room for one more key and one more level within max_bytes: 0, or 1 when it does not fit
 * (the search gives up), or -1 when out of memory. The table doubles past 4/5 full when the
 * budget allows, else it fills to 9/10 before the search gives up. */
static int make_room(Proof *P) {
    size_t slots = P->mask + 1;
    size_t frames = P->nframes == P->frames_cap ? P->frames_cap * 2 : P->frames_cap;
    unsigned long long need = held(P, slots, frames) + P->key_len;
    int doubling = (P->count + 1) * 5 > slots * 4;
    if (doubling && need + slots * sizeof(uint64_t) > P->max_bytes) {
        if ((P->count + 1) * 10 > slots * 9)
            return 1;
        doubling = 0;
    }
    if (doubling)
        need += slots * sizeof(uint64_t);
    if (need > P->max_bytes)
        return 1;
    if (P->nblocks == 0 || P->block_used[P->nblocks - 1] + P->key_len > BLOCK) {
        if (P->nblocks == MAX_BLOCKS)
            return 1;
        if (P->nblocks == P->blocks_cap) {
            size_t c = P->blocks_cap ? P->blocks_cap * 2 : 16;
            uint8_t **bl = realloc(P->blocks, c * sizeof(uint8_t *));
            if (!bl)
                return -1;
            P->blocks = bl;
            size_t *used = realloc(P->block_used, c * sizeof(size_t));
            if (!used)
                return -1;
            P->block_used = used;
            P->blocks_cap = c;
        }
        P->blocks[P->nblocks] = malloc(BLOCK);
        if (!P->blocks[P->nblocks])
            return -1;
        P->block_used[P->nblocks++] = 0;
    }
    if (P->nframes == P->frames_cap) {
        Frame *f = realloc(P->frames, frames * sizeof(Frame));
        if (!f)
            return -1;
        P->frames = f;
        P->frames_cap = frames;
    }
    if (doubling && grow(P) < 0)
        return -1;
    return 0;
}

/* Store the key in P->key (room made) at its slot. */
static void insert(Proof *P, uint64_t h, size_t at) {
    size_t b = P->nblocks - 1;
    size_t pos = P->block_used[b];
    memcpy(P->blocks[b] + pos, P->key, P->key_len);
    P->block_used[b] = pos + P->key_len;
    P->slots[at] = (h >> OFFSET_BITS) << OFFSET_BITS | (((uint64_t)b << BLOCK_BITS | pos) + 1);
    P->count++;
}

/* ------------------------------------------------------------------ actions */

/* The cards that can move from the top of column s (not empty): its one-suit run on top, or under
 * the permissive rule its descending run of face-up cards (Solver.moves). */
static int movable(const Proof *P, int s) {
    const uint8_t *col = P->col[s];
    int n = P->len[s], d = P->down[s];
    int j = n - 1;
    while (j > d && col[j - 1] == col[j] + 1)
        j--;
    int m = n - j;
    if (P->permissive) {
        int i = n - m;
        while (m < n - d && (col[i - 1] & 15) == (col[i] & 15) + 1) {
            m++;
            i--;
        }
    }
    return m;
}

/* The next action from the position, resuming after the last one tried (f): 1 for a move
 * (f->s, f->t, f->k), 2 for the deal, 0 when none is left. Solver.moves(node, True)'s order: by
 * source column, each column that takes its cards, then each empty column with every count from
 * 1; the deal last, when cards remain and no column is empty. */
static int next_action(const Proof *P, Frame *f) {
    for (; f->ph < THE_DEAL; f->s++, f->ph = ON_CARDS, f->t = NONE) {
        int s = f->s;
        if (s >= P->ncols) {
            f->ph = THE_DEAL;
            break;
        }
        int n = P->len[s];
        if (!n)
            continue;
        int m = movable(P, s);
        if (f->ph == ON_CARDS) {
            int top = P->col[s][n - 1] & 15;
            for (int t = f->t == NONE ? 0 : f->t + 1; t < P->ncols; t++) {
                int lt = P->len[t];
                if (t == s || !lt)
                    continue;
                int k = (P->col[t][lt - 1] & 15) - top;
                if (k >= 1 && k <= m) {
                    f->t = (uint8_t)t;
                    f->k = (uint8_t)k;
                    return 1;
                }
            }
            f->ph = ON_EMPTY;
            f->t = NONE;
        }
        if (f->t != NONE && f->k < m) {
            f->k++;
            return 1;
        }
        for (int t = f->t == NONE ? 0 : f->t + 1; t < P->ncols; t++)
            if (!P->len[t]) {
                f->t = (uint8_t)t;
                f->k = 1;
                return 1;
            }
    }
    if (f->ph == THE_DEAL) {
        f->ph = DONE;
        if (P->dealt < P->nchunks) {
            for (int i = 0; i < P->ncols; i++)
                if (!P->len[i])
                    return 0;
            return 2;
        }
    }
    return 0;
}

/* Column i ends in an Ace: the one-suit run King..Ace it completes removed, and the card under it
 * turned (_take_run). Returns RUN_OFF, with DST_TURNED when a card was turned, or 0. */
static unsigned take_run(Proof *P, int i) {
    const uint8_t *col = P->col[i];
    int len = P->len[i], d = P->down[i];
    if (len - d < 13)
        return 0;
    uint8_t suit = col[len - 1] & 0xF0;
    for (int j = 0; j < 13; j++)
        if (col[len - 13 + j] != (suit | (13 - j)))
            return 0;
    len -= 13;
    P->len[i] = (uint8_t)len;
    P->runs++;
    if (len > 0 && d >= len) { /* d was len: the card under the run is turned */
        P->down[i] = (uint8_t)(len - 1);
        return RUN_OFF | DST_TURNED;
    }
    return RUN_OFF;
}

/* The run of suit (<< 4) taken off column i, put back. */
static void put_run_back(Proof *P, int i, uint8_t suit) {
    uint8_t *top = P->col[i] + P->len[i];
    for (int j = 0; j < 13; j++)
        top[j] = (uint8_t)(suit | (13 - j));
    P->len[i] = (uint8_t)(P->len[i] + 13);
    P->runs--;
}

/* Search.after_move, in place; what it changed goes to f->undo. */
static void apply_move(Proof *P, Frame *f) {
    int s = f->s, t = f->t, k = f->k;
    int n = P->len[s] - k;
    memcpy(P->col[t] + P->len[t], P->col[s] + n, (size_t)k);
    P->len[t] = (uint8_t)(P->len[t] + k);
    P->len[s] = (uint8_t)n;
    uint32_t undo = 0;
    if (n && P->down[s] >= n) { /* it was n: the card under the group is turned */
        P->down[s] = (uint8_t)(n - 1);
        undo |= SRC_TURNED;
    }
    uint8_t top = P->col[t][P->len[t] - 1];
    if ((top & 15) == 1) {
        unsigned r = take_run(P, t);
        if (r)
            undo |= r | (uint32_t)(top >> 4) << 4;
    }
    f->undo = undo;
    encode(P, s);
    encode(P, t);
}

static void undo_move(Proof *P, const Frame *f) {
    int s = f->s, t = f->t, k = f->k;
    uint32_t undo = f->undo;
    if (undo & DST_TURNED)
        P->down[t]++;
    if (undo & RUN_OFF)
        put_run_back(P, t, (uint8_t)((undo >> 4 & 3) << 4));
    if (undo & SRC_TURNED)
        P->down[s]++;
    int n = P->len[t] - k;
    memcpy(P->col[s] + P->len[s], P->col[t] + n, (size_t)k);
    P->len[s] = (uint8_t)(P->len[s] + k);
    P->len[t] = (uint8_t)n;
    encode(P, s);
    encode(P, t);
}

/* Search.after_deal, in place: one card on each of the first columns, a run completed by an Ace
 * removed. */
static void apply_deal(Proof *P, Frame *f) {
    const uint8_t *chunk = P->chunk[P->dealt];
    int n = P->chunk_len[P->dealt];
    uint32_t undo = DEALT;
    for (int i = 0; i < n; i++) {
        P->col[i][P->len[i]] = chunk[i];
        P->len[i]++;
        if ((chunk[i] & 15) == 1) {
            unsigned r = take_run(P, i);
            if (r & RUN_OFF)
                undo |= 1u << i;
            if (r & DST_TURNED)
                undo |= 1u << (10 + i);
        }
        encode(P, i);
    }
    P->dealt++;
    f->undo = undo;
}

static void undo_deal(Proof *P, const Frame *f) {
    P->dealt--;
    const uint8_t *chunk = P->chunk[P->dealt];
    int n = P->chunk_len[P->dealt];
    for (int i = n - 1; i >= 0; i--) {
        if (f->undo & 1u << (10 + i))
            P->down[i]++;
        if (f->undo & 1u << i)
            put_run_back(P, i, chunk[i] & 0xF0);
        P->len[i]--;
        encode(P, i);
    }
}

static void undo_action(Proof *P, const Frame *f) {
    if (f->undo & DEALT)
        undo_deal(P, f);
    else
        undo_move(P, f);
}

/* ------------------------------------------------------------------ Python */

static void proof_free(Proof *P) {
    free(P->slots);
    for (size_t b = 0; b < P->nblocks; b++)
        free(P->blocks[b]);
    free(P->blocks);
    free(P->block_used);
    free(P->frames);
}

/* The counts object's attributes: positions, depth (the path's actions), dealt (the current
 * position's deals done) and memory (bytes held). */
static int tell(PyObject *counts, const Proof *P, size_t positions) {
    size_t depth = P->nframes ? P->nframes - 1 : 0;
    struct {
        const char *name;
        unsigned long long value;
    } fields[4] = {{"positions", positions},
                   {"depth", depth},
                   {"dealt", (unsigned long long)P->dealt},
                   {"memory", held(P, P->slots ? P->mask + 1 : 0, P->frames_cap)}};
    for (int f = 0; f < 4; f++) {
        PyObject *o = PyLong_FromUnsignedLongLong(fields[f].value);
        if (!o)
            return -1;
        int rc = PyObject_SetAttrString(counts, fields[f].name, o);
        Py_DECREF(o);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static PyObject *line_of(const Proof *P) {
    PyObject *out = PyList_New((Py_ssize_t)P->nframes);
    if (!out)
        return NULL;
    for (size_t i = 0; i < P->nframes; i++) {
        const Frame *f = &P->frames[i];
        PyObject *step = f->undo & DEALT ? (Py_INCREF(Py_None), Py_None)
                                         : Py_BuildValue("(iii)", f->s, f->t, f->k);
        if (!step) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, step);
    }
    return out;
}

/* Tell the caller how far the search is: progress.best_runs and best_deals, and the counts. */
static int report(Proof *P) {
    return set_long(P->progress, "best_runs", P->best_runs) < 0 ||
                   set_long(P->progress, "best_deals", P->best_deals) < 0 ||
                   tell(P->counts, P, P->positions) < 0
               ? -1
               : 0;
}

/* _Budget.tick's count of one position, told to the budget every 256 at most (_Budget.grant):
 * -1 with its exception (_Stop when the budget is spent). */
static int tick(Proof *P) {
    if (P->allowance == 0) {
        if (report(P) < 0)
            return -1;
        P->allowance = ask_grant(P->grant, P->spent);
        if (P->allowance < 0)
            return -1;
        P->spent = 0;
    }
    P->allowance--;
    P->spent++;
    return 0;
}

PyDoc_STRVAR(search_doc,
             "search(cols, down, chunks, runs, permissive, runs_to_win, max_positions, max_bytes, "
             "grant, progress, counts)\n--\n\n"
             "ProofSearch's search, exactly as its Python pass: (line, False) for a win (a list of "
             "(source, target, count), None for a deal), (None, True) when the whole space was "
             "searched without one, (None, False) when it gave up: past max_positions (< 0: no "
             "limit) or before its memory would pass max_bytes. grant(done, more): see "
             "_Budget.grant; progress.best_runs and best_deals are raised as the Python pass "
             "raises them; counts.positions, depth, dealt and memory are set before each grant "
             "and at the end.");

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cols, *down, *chunks, *grant, *progress, *counts;
    int runs, permissive, goal;
    long long max_positions, max_bytes;
    if (!PyArg_ParseTuple(args, "O!O!O!ipiLLOOO", &PyTuple_Type, &cols, &PyTuple_Type, &down,
                          &PyTuple_Type, &chunks, &runs, &permissive, &goal, &max_positions,
                          &max_bytes, &grant, &progress, &counts))
        return NULL;
    Py_ssize_t ncols = PyTuple_GET_SIZE(cols);
    Py_ssize_t nchunks = PyTuple_GET_SIZE(chunks);
    if (ncols < 1 || ncols > MAXCOLS || PyTuple_GET_SIZE(down) != ncols) {
        PyErr_SetString(PyExc_ValueError, "1 to 10 columns, each with its face-down count");
        return NULL;
    }
    if (nchunks > MAXDEALS || runs < 0 || runs > (1 << 20) || goal > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "at most 63 deals, runs 0 to 2^20");
        return NULL;
    }
    if (!PyCallable_Check(grant)) {
        PyErr_SetString(PyExc_TypeError, "grant: a callable expected");
        return NULL;
    }
    Proof *P = calloc(1, sizeof(Proof)); /* some 14 KB: not on the stack */
    if (!P)
        return PyErr_NoMemory();
    P->ncols = (int)ncols;
    P->nchunks = (int)nchunks;
    P->permissive = permissive;
    P->goal = goal;
    P->runs = runs;
    P->max_bytes = max_bytes < 0 ? 0 : (unsigned long long)max_bytes;
    P->grant = grant;
    P->progress = progress;
    P->counts = counts;
    PyObject *result = NULL;
    int total = 0;
    for (Py_ssize_t i = 0; i < nchunks; i++) {
        int n;
        if (read_cards(PyTuple_GET_ITEM(chunks, i), "deal", P->chunk[i], &n, P->ncols) < 0)
            goto done;
        P->chunk_len[i] = (uint8_t)n;
        total += n;
    }
    for (int i = 0; i < P->ncols; i++) {
        int n;
        if (read_cards(PyTuple_GET_ITEM(cols, i), "column", P->col[i], &n, MAXCARDS) < 0)
            goto done;
        total += n;
        long dv = PyLong_AsLong(PyTuple_GET_ITEM(down, i));
        if (dv == -1 && PyErr_Occurred())
            goto done;
        /* every column's top card face up (classic play), as the search keeps it */
        if (dv < 0 || dv > 255 || (n ? dv >= n : dv != 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "a face-down count from 0 to 255, below its column's length");
            goto done;
        }
        P->len[i] = (uint8_t)n;
        P->down[i] = P->start_down[i] = (uint8_t)dv;
    }
    if (total > MAXCARDS) { /* a column's length fits in a byte, and a key in KEY_MAX */
        PyErr_SetString(PyExc_ValueError, "too many cards");
        goto done;
    }
    if (get_long(progress, "best_runs", &P->best_runs) < 0 ||
        get_long(progress, "best_deals", &P->best_deals) < 0)
        goto done;
    for (int i = 0; i < P->ncols; i++)
        for (int d = 0; d <= P->start_down[i]; d++) {
            int c = 0;
            while (c < i &&
                   !(P->start_down[c] >= d && memcmp(P->col[c], P->col[i], (size_t)d) == 0))
                c++;
            P->canon[i][d] = (uint8_t)c;
        }
    for (int i = 0; i < P->ncols; i++) {
        encode(P, i);
        P->order[i] = (uint8_t)i;
    }
    if (runs >= goal) { /* won where it stands */
        result = Py_BuildValue("(NO)", PyList_New(0), Py_False);
        goto done;
    }
    P->mask = FIRST_SLOTS - 1;
    P->slots = calloc(FIRST_SLOTS, sizeof(uint64_t));
    P->frames_cap = 1024;
    P->frames = malloc(P->frames_cap * sizeof(Frame));
    if (!P->slots || !P->frames) {
        PyErr_NoMemory();
        goto done;
    }
    int exhaustive = 0;
    /* the start: met, counted, its level on the path */
    make_key(P);
    int room = make_room(P);
    if (room < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (room > 0)
        goto finish;
    size_t at;
    uint64_t h = hash_key(P->key, P->key_len);
    lookup(P, h, &at);
    insert(P, h, at);
    P->positions = 1;
    P->frames[0] = (Frame){0, NONE, 0, ON_CARDS, 0};
    P->nframes = 1;
    if (tick(P) < 0)
        goto done;
    for (;;) {
        Frame *f = &P->frames[P->nframes - 1];
        int a = next_action(P, f);
        if (!a) { /* this level done: back to the one below */
            if (--P->nframes == 0)
                break;
            undo_action(P, &P->frames[P->nframes - 1]);
            continue;
        }
        if (a == 1)
            apply_move(P, f);
        else
            apply_deal(P, f);
        if (P->runs >= P->goal) {
            PyObject *line = line_of(P);
            if (!line)
                goto done;
            result = Py_BuildValue("(NO)", line, Py_False); /* N: the tuple takes the line */
            if (!result)
                goto done;
            goto finish;
        }
        make_key(P);
        h = hash_key(P->key, P->key_len);
        if (lookup(P, h, &at)) { /* met before */
            undo_action(P, f);
            continue;
        }
        if (max_positions >= 0 &&
            (unsigned long long)P->positions >= (unsigned long long)max_positions)
            goto finish;
        size_t slots = P->mask + 1;
        room = make_room(P);
        if (room < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (room > 0)
            goto finish;
        if (P->mask + 1 != slots) /* the table grew: the key's empty slot moved */
            lookup(P, h, &at);
        if (tick(P) < 0)
            goto done;
        insert(P, h, at);
        P->positions++;
        if (P->runs > P->best_runs)
            P->best_runs = P->runs;
        if (P->dealt > P->best_deals)
            P->best_deals = P->dealt;
        P->frames[P->nframes++] = (Frame){0, NONE, 0, ON_CARDS, 0};
    }
    exhaustive = 1;
finish:
    /* won, exhausted or gave up: the last positions counted (nothing more to grant) */
    if (report(P) < 0) {
        Py_CLEAR(result);
        goto done;
    }
    if (P->spent && tell_grant(grant, P->spent) < 0) {
        Py_CLEAR(result);
        goto done;
    }
    if (!result)
        result = Py_BuildValue("(OO)", Py_None, exhaustive ? Py_True : Py_False);
done:
    proof_free(P);
    free(P);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "spidercli.solver._proof",
    "spidercli's search of the whole space of play, compiled (optional).", -1, methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__proof(void) { return PyModule_Create(&module); }
