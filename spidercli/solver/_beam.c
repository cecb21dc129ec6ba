/* One pass of spidercli's beam search (BeamSolver._beam_python in solver.py), compiled.
 *
 * This file is optional: spidercli.solver.search uses it when it was built, and its own Python pass
 * otherwise. It must give exactly what the Python pass gives (the same moves in the same order,
 * the same ranks, the same 64-bit keys and seen set, the same candidates kept and the same line),
 * and it counts the positions it expands as the Python does (it tells the budget every 256 at
 * most: _Budget.grant). The tests compare the two passes on many positions
 * (tests/test_beam_compiled.py).
 *
 * Plain CPython C API, no other dependency. Cards are bytes: suit << 4 | rank (rank 1..13).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "_passes.h" /* read_cards, get_long, set_long, ask_grant, tell_grant: shared */

#define MAXCOLS 10
#define NPLACES (MAXCOLS + 1)
#define NIBBLES UINT64_C(0x1111111111111111)
#define KING_SEAT (UINT64_C(1) << 56)
#define MAX_WIDTH (1 << 20) /* the widest beam taken (wider ones go to the Python pass) */

/* ------------------------------------------------------------------ a column's part of the rank */

typedef struct {
    uint64_t digest; /* the column's 64-bit digest (0 for an empty column) */
    uint64_t fnv;    /* FNV-1a over its cards alone: a card added on top continues from it */
    int16_t dis;     /* disorder: face-down cards, plus one per one-suit run of face-up cards */
    int16_t ready;   /* the length of the one-suit run on top */
    uint8_t bsh;     /* 4 * (bottom card's rank + 1): the rank's bottom nibble (0: empty) */
    uint8_t tsh;     /* 4 * (top card's rank): its top nibble (0: empty) */
} Info; /* 24 bytes: a position's ten are read and copied for every child */

/* The nibble a shift stands for (1 << sh), 0 for an empty column's 0. */
static inline uint64_t nib(uint8_t sh) {
    return (uint64_t)(sh != 0) << sh;
}
#define BOTTOM(i) nib((i)->bsh)
#define TOP(i) nib((i)->tsh)

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

/* FNV-1a over cards, continuing from the state h. */
static inline uint64_t fnv_cards(uint64_t h, const uint8_t *col, int n) {
    for (int i = 0; i < n; i++) {
        h ^= col[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* The digest from the FNV state over the cards: the face-down count, then splitmix64's
 * finaliser. */
static inline uint64_t digest_finish(uint64_t h, int d) {
    h ^= (uint8_t)d;
    h *= FNV_PRIME;
    h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
    return h ^ (h >> 31);
}

/* FNV-1a over the column's cards then its face-down count, and splitmix64's finaliser. */
static uint64_t digest_of(const uint8_t *col, int n, int d) {
    return digest_finish(fnv_cards(FNV_OFFSET, col, n), d);
}

static void info_of(const uint8_t *col, int n, int d, Info *out) {
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return;
    }
    int32_t dis = d + 1;
    for (int i = d; i < n - 1; i++)
        if (col[i + 1] != col[i] - 1)
            dis++;
    int j = n - 1;
    while (j > d && col[j - 1] == col[j] + 1)
        j--;
    out->dis = (int16_t)dis;
    out->ready = (int16_t)(n - j);
    out->bsh = (uint8_t)(4 * ((col[0] & 15) + 1));
    out->tsh = (uint8_t)(4 * (col[n - 1] & 15));
    out->fnv = fnv_cards(FNV_OFFSET, col, n);
    out->digest = digest_finish(out->fnv, d);
}

/* FNV-1a's prime is odd, so a step can be undone: (h * FNV_INVERSE) ^ card gives the state
 * before the card. */
#define FNV_INVERSE UINT64_C(0xce965057aff6957b)

/* The breaks (a card not one below the one under it, same suit) among cards g[0..k). */
static inline int breaks_of(const uint8_t *g, int k) {
    int b = 0;
    for (int i = 0; i + 1 < k; i++)
        b += g[i + 1] != g[i] - 1;
    return b;
}

/* info_of(col, rest, ds) from the info o of the whole column (col, n, d), its top n - rest cards
 * taken off, which hold gb breaks among them; only for 0 < rest and d <= rest (ds is d, or
 * rest - 1 when the new top card is turned): the same values, without reading the cards that
 * stay, but for the new top's run. */
static inline void info_pop(const Info *o, const uint8_t *col, int n, int d, int rest, int gb,
                            Info *out) {
    int ds = d;
    if (d < rest) {
        out->dis = o->dis - gb - (col[rest] != col[rest - 1] - 1);
        int j = rest - 1;
        while (j > d && col[j - 1] == col[j] + 1)
            j--;
        out->ready = rest - j;
    } else { /* the new top card turned: face-down cards under a run of one */
        ds = rest - 1;
        out->dis = rest;
        out->ready = 1;
    }
    out->bsh = o->bsh;
    out->tsh = (uint8_t)(4 * (col[rest - 1] & 15));
    uint64_t h = o->fnv;
    for (int i = n - 1; i >= rest; i--)
        h = (h * FNV_INVERSE) ^ col[i];
    out->fnv = h;
    out->digest = digest_finish(h, ds);
}

/* info_of(col, lt + k, d) from the info o of (col, lt, d), the k cards g put on top, which hold
 * gb breaks among them and a one-suit run of gtrail cards on top; only for 0 < lt, d < lt and
 * no run completed (the caller checks for an Ace on top). */
static inline void info_push(const Info *o, const uint8_t *col, int lt, int d, const uint8_t *g,
                             int k, int gb, int gtrail, Info *out) {
    const int join = g[0] != col[lt - 1] - 1;
    out->dis = o->dis + join + gb;
    out->ready = gtrail < k ? gtrail : join ? k : k + o->ready;
    out->bsh = o->bsh;
    out->tsh = (uint8_t)(4 * (g[k - 1] & 15));
    out->fnv = fnv_cards(o->fnv, g, k);
    out->digest = digest_finish(out->fnv, d);
}

/* The one-suit run on top of cards g[0..k). */
static inline int trail_of(const uint8_t *g, int k) {
    int j = k - 1;
    while (j > 0 && g[j - 1] == g[j] + 1)
        j--;
    return k - j;
}

static int popcount64(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static int64_t rank_of(int64_t dis, int64_t ready, int64_t empties, uint64_t b, uint64_t t) {
    uint64_t nb = b | b >> 1 | b >> 2 | b >> 3;
    uint64_t nt = t | t >> 1 | t >> 2 | t >> 3;
    int64_t d = dis - popcount64(nb & nt & NIBBLES) - empties;
    if (d < 0)
        d = 0;
    return d * 256 - ready - empties;
}

/* A column ending in an Ace: the one-suit run King..Ace it completes removed (and the card under
 * it turned). Returns 1 when a run was removed. */
static int take_run(const uint8_t *col, int *n, int *d) {
    int len = *n;
    if (len - *d < 13)
        return 0;
    uint8_t suit = col[len - 1] & 0xF0;
    for (int j = 0; j < 13; j++)
        if (col[len - 13 + j] != (suit | (13 - j)))
            return 0;
    len -= 13;
    if (len > 0 && *d >= len)
        *d = len - 1;
    *n = len;
    return 1;
}

/* ------------------------------------------------------------------ positions */

typedef struct {
    Info info[MAXCOLS];
    uint8_t len[MAXCOLS];  /* at most 127 cards */
    uint8_t down[MAXCOLS]; /* at most 255 */
    int32_t dealt;
    int32_t runs;
    int64_t dis, ready, empties; /* the rank's sums (ready includes 13 a run removed) */
    uint64_t bottoms, tops;
    uint64_t key;
} Node;

typedef struct {
    int32_t parent;
    int8_t s, t, k; /* s < 0: a deal */
} Back;

typedef struct {
    int64_t rank;
    int32_t parent;
    int8_t s, t, k; /* s < 0: a deal */
} Cand;

/* A zeroed block of n 64-bit words. A big one (the set of keys met: tens of megabytes, read at
 * random) is aligned to 2 MB and asked for in huge pages where Linux offers them: its lookups
 * then miss the processor's address cache far less often. Freed with free(). */
#define HUGE_PAGE ((size_t)2 << 20)
static uint64_t *zeroed_words(size_t n) {
    size_t bytes = n * sizeof(uint64_t);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, bytes) != 0)
            return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: no huge pages is fine */
        memset(p, 0, bytes);
        return p;
    }
#endif
    return calloc(n, sizeof(uint64_t));
}

/* An open-addressing set of 64-bit keys (0 kept aside). */
typedef struct {
    uint64_t *slots;
    size_t mask;
    size_t count;
    int has_zero;
} Seen;

static int seen_init(Seen *s, size_t cap) {
    size_t n = 1024;
    while (n * 3 < cap * 4) /* room for cap keys at three quarters full */
        n <<= 1;
    s->slots = zeroed_words(n);
    if (!s->slots)
        return -1;
    s->mask = n - 1;
    s->count = 0;
    s->has_zero = 0;
    return 0;
}

static size_t seen_slot(uint64_t key, size_t mask) {
    uint64_t h = key ^ (key >> 29);
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    return (size_t)(h ^ (h >> 32)) & mask;
}

static int seen_grow(Seen *s) {
    size_t n = (s->mask + 1) * 2;
    uint64_t *slots = zeroed_words(n);
    if (!slots)
        return -1;
    for (size_t i = 0; i <= s->mask; i++) {
        uint64_t k = s->slots[i];
        if (k) {
            size_t j = seen_slot(k, n - 1);
            while (slots[j])
                j = (j + 1) & (n - 1);
            slots[j] = k;
        }
    }
    free(s->slots);
    s->slots = slots;
    s->mask = n - 1;
    return 0;
}

/* How many keys a pass of this width is likely to meet (a few thousand a unit of width), at
 * most the seen limit: the set starts that large rather than growing to it step by step. */
static size_t seen_expected(int width, long long seen_limit) {
    size_t n = (size_t)width * 4096;
    if (n > ((size_t)1 << 22))
        n = (size_t)1 << 22;
    if (seen_limit >= 0 && (unsigned long long)seen_limit < n)
        n = (size_t)seen_limit;
    return n < 1024 ? 1024 : n;
}

/* Adds key: 1 when it was new, 0 when already there, -1 when out of memory. */
static int seen_add(Seen *s, uint64_t key) {
    if (key == 0) {
        if (s->has_zero)
            return 0;
        s->has_zero = 1;
        s->count++;
        return 1;
    }
    size_t j = seen_slot(key, s->mask);
    while (s->slots[j]) {
        if (s->slots[j] == key)
            return 0;
        j = (j + 1) & s->mask;
    }
    s->slots[j] = key;
    s->count++;
    if (s->count * 4 > (s->mask + 1) * 3 && seen_grow(s) < 0)
        return -1;
    return 1;
}

static void seen_clear(Seen *s) {
    memset(s->slots, 0, (s->mask + 1) * sizeof(uint64_t));
    s->count = 0;
    s->has_zero = 0;
}

/* A bounded max-heap of ranks: the ``width`` best (lowest) ranks met for one bucket. */
typedef struct {
    int64_t *v;
    int n;
} Heap;

static void heap_push(Heap *h, int64_t x) {
    int i = h->n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h->v[p] >= x)
            break;
        h->v[i] = h->v[p];
        i = p;
    }
    h->v[i] = x;
}

static void heap_replace_top(Heap *h, int64_t x) {
    int n = h->n, i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->v[c + 1] > h->v[c])
            c++;
        if (h->v[c] <= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    h->v[i] = x;
}

/* Candidates are sorted by (rank, order met): each is a 64-bit word, its rank (biased to sort
 * unsigned) above its order met, sorted by the rank's 32 bits with a stable radix sort (the
 * words start in the order met). A rank fits in 32 bits: at most 10 columns of 127 cards and
 * 255 face-down cards give disorders below 4,000 (times 256), and runs below 2^20 + 64 give cards
 * ready below 2^24. */
typedef uint64_t Key;

static Key key_of(int64_t rank, uint32_t seq) {
    return (uint64_t)((uint32_t)rank ^ UINT32_C(0x80000000)) << 32 | seq;
}

/* Sort keys[0..n) by their upper 32 bits, stably (a byte at a time, least significant first,
 * skipping the bytes all keys share); tmp holds n keys. Returns the sorted array (keys or
 * tmp). */
static Key *sort_keys(Key *keys, Key *tmp, size_t n) {
    size_t count[4][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys[i];
        count[0][(k >> 32) & 255]++;
        count[1][(k >> 40) & 255]++;
        count[2][(k >> 48) & 255]++;
        count[3][k >> 56]++;
    }
    for (int b = 0; b < 4; b++) {
        int shift = 32 + 8 * b;
        if (n == 0 || count[b][(keys[0] >> shift) & 255] == n)
            continue; /* every key has this byte */
        size_t at = 0;
        for (int v = 0; v < 256; v++) {
            size_t c = count[b][v];
            count[b][v] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t k = keys[i];
            tmp[count[b][(k >> shift) & 255]++] = k;
        }
        Key *swap = keys;
        keys = tmp;
        tmp = swap;
    }
    return keys;
}

/* A child move met while expanding a position, before its key is looked up. */
typedef struct {
    int64_t rank;
    uint64_t key;
    int8_t s, t, k;
} Pend;

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* A position's children as expand met them, settled (looked up in the set of keys met, offered
 * to the heaps, kept as candidates) once the next position is expanded: their slots in the set
 * are fetched meanwhile. */
typedef struct {
    Pend *pend; /* its moves' children not put off: at most ncols * cap */
    size_t n;
    int32_t idx;  /* the position expanded; -1: none (settled) */
    int32_t dealt; /* its deals done: its moves' bucket (the deal's child's is the next) */
    int deal;      /* 1: the deal's child (deal_rank, deal_key) follows its moves' */
    int64_t deal_rank;
    uint64_t deal_key;
} Brood;

/* The whole pass's state. */
typedef struct {
    /* cap: the most cards a column can hold (every card of the problem), and so also the most a
     * position holds; stride: ncols * cap, a position's cards unpacked (a column every cap
     * bytes), as the moves read and write them (expand reads them packed) */
    int ncols, cap, stride;
    int nchunks;
    uint8_t *chunks;    /* nchunks * ncols cards */
    int chunk_len[64];
    int permissive, goal, width;
    uint64_t place[NPLACES];
    /* levels: current and next */
    Node *cur, *nxt;
    uint8_t *cur_cards, *nxt_cards; /* cap bytes a position: its columns packed, in order */
    uint8_t *wide; /* stride bytes: the root as read, then each child being built */
    size_t cur_n, cur_cap, nxt_cap;
    /* candidates */
    Cand *cands;
    size_t ncands, cands_cap;
    /* the way back: each level's (parent, step), and how many entries each holds (PyMem_Malloc's
     * blocks, which tracemalloc sees: the tests measure what a long pass holds) */
    Back **levels;
    size_t *level_n;
    size_t nlevels, levels_cap;
    size_t back_total, back_after; /* entries held now, and after the last pruning */
    Key *keys, *keys_tmp; /* the candidates' sort keys, and room for sorting them */
    size_t keys_cap;
    Seen seen;
    Heap *heaps; /* one per bucket */
    int64_t *heap_store;
    uint8_t *tmp; /* a column being built */
    Brood brood[2]; /* the position being expanded's children, and the one's before */
    uint64_t *later; /* the keys of children met this level that could not be kept (see expand) */
    size_t nlater, later_cap;
} Pass;

static void sums_of(const Pass *P, Node *nd) {
    int64_t dis = 0, ready = 0, empties = 0;
    uint64_t bottoms = 0, tops = KING_SEAT;
    uint64_t key = (uint64_t)nd->dealt * P->place[NPLACES - 1];
    for (int i = 0; i < P->ncols; i++) {
        if (nd->len[i]) {
            dis += nd->info[i].dis;
            ready += nd->info[i].ready;
            bottoms += BOTTOM(&nd->info[i]);
            tops += TOP(&nd->info[i]);
            key += P->place[i] * nd->info[i].digest;
        } else {
            empties++;
        }
    }
    nd->dis = dis;
    nd->ready = ready + 13 * (int64_t)nd->runs;
    nd->empties = empties;
    nd->bottoms = bottoms;
    nd->tops = tops;
    nd->key = key;
}

static int64_t node_rank(const Node *nd) {
    return rank_of(nd->dis, nd->ready, nd->empties, nd->bottoms, nd->tops);
}

/* n bytes copied in whole blocks of BLOCK (a fixed-size copy is a load and a store, where a
 * copy of n bytes is a call): up to BLOCK - 1 bytes past n are read and written too, so every
 * buffer of cards ends with BLOCK spare bytes (SPARE), and the bytes past a column's cards are
 * never read as cards. */
#define BLOCK 16
#define SPARE BLOCK
static inline void copy_blocks(uint8_t *to, const uint8_t *from, int n) {
    for (int i = 0; i < n; i += BLOCK)
        memcpy(to + i, from + i, BLOCK);
}

/* A position's cards packed (cap bytes: its columns one after another, in order) and unpacked
 * (stride bytes: column i at i * cap, for the moves); what lies past a column's length is never
 * read. Both copy whole blocks, column by column in order: the bytes written past a column's
 * end are those of the next column (written after it) or of the next position (written after
 * this one), or the buffer's spare bytes. */
static inline void unpack(const Pass *P, const Node *nd, uint8_t *wide, const uint8_t *packed) {
    for (int i = 0; i < P->ncols; i++) {
        copy_blocks(wide + (size_t)i * P->cap, packed, nd->len[i]);
        packed += nd->len[i];
    }
}

static inline void pack(const Pass *P, const Node *nd, uint8_t *packed, const uint8_t *wide) {
    for (int i = 0; i < P->ncols; i++) {
        copy_blocks(packed, wide + (size_t)i * P->cap, nd->len[i]);
        packed += nd->len[i];
    }
}

/* The deal applied to (node, cards) in place; its infos and sums recomputed. */
static void apply_deal(const Pass *P, Node *nd, uint8_t *cards) {
    const uint8_t *chunk = P->chunks + (size_t)nd->dealt * P->ncols;
    int clen = P->chunk_len[nd->dealt];
    for (int i = 0; i < clen; i++) {
        uint8_t *col = cards + (size_t)i * P->cap;
        int n = nd->len[i], d = nd->down[i];
        col[n] = chunk[i];
        Info ni;
        int full = 1;
        if (n > 0 && d < n) {
            info_push(&nd->info[i], col, n, d, col + n, 1, 0, 1, &ni);
            full = (chunk[i] & 15) == 1 && ni.ready >= 13; /* a run completed */
        }
        n++;
        if (full) {
            if ((chunk[i] & 15) == 1)
                nd->runs += take_run(col, &n, &d);
            info_of(col, n, d, &ni);
        }
        nd->info[i] = ni;
        nd->len[i] = n;
        nd->down[i] = d;
    }
    nd->dealt++;
    sums_of(P, nd); /* the other columns' infos stand */
}

/* The move (s, t, k) applied in place; the two columns' infos and the sums recomputed. */
static void apply_move(const Pass *P, Node *nd, uint8_t *cards, int s, int t, int k) {
    uint8_t *src = cards + (size_t)s * P->cap;
    uint8_t *dst = cards + (size_t)t * P->cap;
    const int n0 = nd->len[s], d0 = nd->down[s];
    int n = n0 - k;
    int ds = d0;
    if (n && ds >= n)
        ds = n - 1;
    const int lt = nd->len[t], dt0 = nd->down[t];
    int nt = lt, dt = dt0;
    memcpy(dst + nt, src + n, (size_t)k);
    nt += k;
    const uint8_t *g = dst + lt;
    const int gb = breaks_of(g, k);
    Info nti;
    int full = 1;
    if (lt > 0 && dt0 < lt) {
        info_push(&nd->info[t], dst, lt, dt0, g, k, gb, trail_of(g, k), &nti);
        full = (dst[nt - 1] & 15) == 1 && nti.ready >= 13; /* a run completed */
    }
    if (full) {
        if ((dst[nt - 1] & 15) == 1)
            nd->runs += take_run(dst, &nt, &dt);
        info_of(dst, nt, dt, &nti);
    }
    nd->info[t] = nti;
    if (n > 0 && d0 <= n)
        info_pop(&nd->info[s], src, n0, d0, n, gb, &nd->info[s]);
    else
        info_of(src, n, ds, &nd->info[s]);
    nd->len[s] = n;
    nd->down[s] = ds;
    nd->len[t] = nt;
    nd->down[t] = dt;
    sums_of(P, nd);
}

static int add_cand(Pass *P, int64_t rank, int32_t parent, int s, int t, int k) {
    if (P->ncands == P->cands_cap) {
        size_t cap = P->cands_cap ? P->cands_cap * 2 : 4096;
        Cand *c = realloc(P->cands, cap * sizeof(Cand));
        if (!c)
            return -1;
        P->cands = c;
        P->cands_cap = cap;
    }
    Cand *c = &P->cands[P->ncands++];
    c->rank = rank;
    c->parent = parent;
    c->s = (int8_t)s;
    c->t = (int8_t)t;
    c->k = (int8_t)k;
    return 0;
}

/* Offer a rank to a bucket's heap. With ``skip``, returns 1 when the child cannot make the
 * bucket's best ``width`` (and leaves the heap as it is). */
static int offer(Pass *P, int bucket, int64_t rank, int skip) {
    Heap *h = &P->heaps[bucket];
    if (h->n >= P->width) {
        if (rank >= h->v[0])
            return skip;
        heap_replace_top(h, rank);
    } else {
        heap_push(h, rank);
    }
    return 0;
}

/* The rank and key of the deal's child of (nd, cards), from nd's own, without building it:
 * 0 when a card dealt may complete a run or lands on an empty column (the caller builds the
 * child whole then). */
static int deal_sums(const Pass *P, const Node *nd, const uint8_t *packed, const int *off,
                     int64_t *rank, uint64_t *key) {
    const uint8_t *chunk = P->chunks + (size_t)nd->dealt * P->ncols;
    const int clen = P->chunk_len[nd->dealt];
    int64_t dis = nd->dis, ready = nd->ready;
    uint64_t bottoms = nd->bottoms, tops = nd->tops, k = nd->key + P->place[NPLACES - 1];
    for (int i = 0; i < clen; i++) {
        const int n = nd->len[i], d = nd->down[i];
        if (n == 0 || d >= n)
            return 0;
        const Info *o = &nd->info[i];
        Info ni;
        info_push(o, packed + off[i], n, d, &chunk[i], 1, 0, 1, &ni);
        if ((chunk[i] & 15) == 1 && ni.ready >= 13)
            return 0;
        dis += ni.dis - o->dis;
        ready += ni.ready - o->ready;
        bottoms += BOTTOM(&ni) - BOTTOM(o);
        tops += TOP(&ni) - TOP(o);
        k += P->place[i] * (ni.digest - o->digest);
    }
    *rank = rank_of(dis, ready, nd->empties, bottoms, tops);
    *key = k;
    return 1;
}

/* A key met this level, to be added to the set of keys met when the level is done. */
static int defer_key(Pass *P, uint64_t key) {
    if (P->nlater == P->later_cap) {
        size_t cap = P->later_cap ? P->later_cap * 2 : 4096;
        uint64_t *l = realloc(P->later, cap * sizeof(uint64_t));
        if (!l)
            return -1;
        P->later = l;
        P->later_cap = cap;
    }
    P->later[P->nlater++] = key;
    return 0;
}

/* The keys put off this level, added to the set (their slots fetched a few ahead). */
static int add_later(Pass *P) {
    const size_t n = P->nlater;
    const uint64_t *l = P->later;
    for (size_t i = 0; i < n; i++) {
        if (i + 8 < n)
            PREFETCH(&P->seen.slots[seen_slot(l[i + 8], P->seen.mask)]);
        if (seen_add(&P->seen, l[i]) < 0)
            return -1;
    }
    P->nlater = 0;
    return 0;
}

/* Expand the level's position idx into *b (settle keeps its children). Returns 0 (go on), 1 (a
 * win: *ws, *wt, *wk set; *ws < 0 for a deal) or -1 (out of memory). Its children are ranked
 * against the heaps as the positions before the previous one left them (the previous one's
 * children are settled after): a child put off then would be put off after them too, as a
 * heap's worst only gets better during a level, and every other child is looked at again when
 * settled. */
static int expand(Pass *P, int32_t idx, Brood *b, int *ws, int *wt, int *wk) {
    const Node *nd = &P->cur[idx];
    /* the cards read where they are packed: column t at off[t] */
    const uint8_t *const cards = P->cur_cards + (size_t)idx * P->cap;
    const int ncols = P->ncols;
    int off[MAXCOLS];
    for (int t = 0, at = 0; t < ncols; t++) {
        off[t] = at;
        at += nd->len[t];
    }
    const int stock_left = nd->dealt < P->nchunks;
    int by_rank[16][MAXCOLS];
    int nby[16];
    memset(nby, 0, sizeof nby);
    int first_empty = -1;
    for (int t = 0; t < ncols; t++) {
        int n = nd->len[t];
        if (n) {
            int r = cards[off[t] + n - 1] & 15;
            by_rank[r][nby[r]++] = t;
        } else if (first_empty < 0) {
            first_empty = t;
        }
    }
    uint8_t *tmp = P->tmp;
    size_t npend = 0;
    const int goal_met = nd->runs >= P->goal;
    /* A child ranked no better than the ``width`` best already met for its bucket cannot be
     * kept, whether met before or not: its key is not looked up now, only added to the set of
     * keys met once the level is done (the heap's worst only gets better during a level, so the
     * same child met again this level is left out again). */
    const Heap *heap = &P->heaps[nd->dealt];
    for (int s = 0; s < ncols; s++) {
        const uint8_t *col = cards + off[s];
        const int n = nd->len[s];
        if (!n)
            continue;
        const int d = nd->down[s];
        const int same = nd->info[s].ready;
        int m = same;
        if (P->permissive) {
            int i = n - m;
            while (m < n - d && (col[i - 1] & 15) == (col[i] & 15) + 1) {
                m++;
                i--;
            }
        }
        const Info *os = &nd->info[s];
        /* An Ace on top may complete a run (a King..Ace of one suit on top is a run of 13
         * ready), and then, or when the goal is met already, the move is looked at whole. */
        const int top_ace = (col[n - 1] & 15) == 1;
        int gbreaks = 0; /* breaks between the moved cards (only a permissive move has any) */
        for (int k = 1; k <= m; k++) {
            const uint8_t first = col[n - k];
            if (k > 1 && col[n - k + 1] != first - 1)
                gbreaks++;
            const int split = k < n - d && col[n - k - 1] == first + 1;
            int targets[MAXCOLS + 1];
            int ntargets = 0;
            int fr = (first & 15) + 1;
            if (fr < 16)
                for (int j = 0; j < nby[fr]; j++) {
                    int t = by_rank[fr][j];
                    if (t == s)
                        continue;
                    if (split) {
                        const Info *it = &nd->info[t];
                        uint8_t last = cards[off[t] + nd->len[t] - 1];
                        if (!(last == first + 1 && it->ready + k > same))
                            continue;
                    }
                    targets[ntargets++] = t;
                }
            if (first_empty >= 0 && k < n && (stock_left || !split))
                targets[ntargets++] = first_empty;
            if (!ntargets)
                continue;
            /* the source's side, once for this count */
            const int rest = n - k;
            int ds = d;
            if (rest && ds >= rest)
                ds = rest - 1;
            Info ns;
            if (rest > 0 && d <= rest)
                info_pop(os, col, n, d, rest, gbreaks, &ns);
            else
                info_of(col, rest, ds, &ns);
            /* the moved cards' one-suit run on top (the source's, or all of them) */
            const int gtrail = k < same ? k : same;
            for (int j = 0; j < ntargets; j++) {
                const int t = targets[j];
                const uint8_t *tc = cards + off[t];
                const int lt = nd->len[t];
                int nt = lt + k;
                int dt = nd->down[t];
                const Info *ot = &nd->info[t];
                int removed = 0;
                Info ntI;
                int full = 1; /* info_of on the whole new column (a run may be completed) */
                if (lt > 0 && dt < lt) {
                    /* The target's info from its own: the cards added on top change its
                     * disorder by the join and the breaks among them, its run on top, its top
                     * card and, continued from its FNV state, its digest (info_of's values). */
                    const int join = col[rest] != tc[lt - 1] - 1;
                    ntI.dis = ot->dis + join + gbreaks;
                    ntI.ready = gtrail < k ? gtrail : join ? k : k + ot->ready;
                    ntI.bsh = ot->bsh;
                    ntI.tsh = os->tsh;
                    ntI.fnv = fnv_cards(ot->fnv, col + rest, k);
                    ntI.digest = digest_finish(ntI.fnv, dt);
                    full = top_ace && (ntI.ready >= 13 || goal_met);
                } else if (lt == 0 && dt == 0) {
                    /* to an empty column: the moved cards alone */
                    ntI.dis = 1 + gbreaks;
                    ntI.ready = gtrail;
                    ntI.bsh = (uint8_t)(4 * ((col[rest] & 15) + 1));
                    ntI.tsh = os->tsh;
                    ntI.fnv = fnv_cards(FNV_OFFSET, col + rest, k);
                    ntI.digest = digest_finish(ntI.fnv, 0);
                    full = top_ace && (ntI.ready >= 13 || goal_met);
                }
                if (full) {
                    memcpy(tmp, tc, (size_t)lt);
                    memcpy(tmp + lt, col + rest, (size_t)k);
                    if (top_ace) {
                        removed = take_run(tmp, &nt, &dt);
                        if (nd->runs + removed >= P->goal) {
                            *ws = s;
                            *wt = t;
                            *wk = k;
                            return 1;
                        }
                    }
                    info_of(tmp, nt, dt, &ntI);
                }
                int64_t d2 = nd->dis - os->dis - ot->dis + ns.dis + ntI.dis;
                int64_t r2 = nd->ready - os->ready - ot->ready + ns.ready + ntI.ready + 13 * removed;
                int64_t e2 = nd->empties + (rest == 0) + (nt == 0) - (lt == 0);
                uint64_t b2 = nd->bottoms - BOTTOM(os) - BOTTOM(ot) + BOTTOM(&ns) + BOTTOM(&ntI);
                uint64_t t2 = nd->tops - TOP(os) - TOP(ot) + TOP(&ns) + TOP(&ntI);
                int64_t rank = rank_of(d2, r2, e2, b2, t2);
                uint64_t key = nd->key + P->place[s] * (ns.digest - os->digest) +
                               P->place[t] * (ntI.digest - ot->digest);
                if (heap->n >= P->width && rank >= heap->v[0]) {
                    if (defer_key(P, key) < 0)
                        return -1;
                    continue;
                }
                /* met in order below, once every child's slot in the seen set is fetched */
                Pend *pd = &b->pend[npend++];
                pd->rank = rank;
                pd->key = key;
                pd->s = (int8_t)s;
                pd->t = (int8_t)t;
                pd->k = (int8_t)k;
                PREFETCH(&P->seen.slots[seen_slot(key, P->seen.mask)]);
            }
        }
    }
    b->n = npend;
    b->idx = idx;
    b->dealt = nd->dealt;
    b->deal = 0;
    if (stock_left && first_empty < 0) {
        int64_t rank;
        uint64_t key;
        if (goal_met || !deal_sums(P, nd, cards, off, &rank, &key)) {
            Node child = *nd;
            unpack(P, nd, tmp, cards);
            apply_deal(P, &child, tmp);
            if (child.runs >= P->goal) {
                *ws = -1;
                *wt = *wk = 0;
                return 1;
            }
            rank = node_rank(&child);
            key = child.key;
        }
        b->deal = 1;
        b->deal_rank = rank;
        b->deal_key = key;
        PREFETCH(&P->seen.slots[seen_slot(key, P->seen.mask)]);
    }
    return 0;
}

/* The children of an expanded position, in the order met: each not met before (and, for a
 * move's, ranked among its bucket's best so far) offered to its bucket's heap and kept as a
 * candidate. Returns 0, or -1 when out of memory. */
static int settle(Pass *P, Brood *b) {
    if (b->idx < 0)
        return 0;
    const Heap *heap = &P->heaps[b->dealt];
    for (size_t i = 0; i < b->n; i++) {
        const Pend *pd = &b->pend[i];
        if (heap->n >= P->width && pd->rank >= heap->v[0]) {
            if (defer_key(P, pd->key) < 0)
                return -1;
            continue;
        }
        int added = seen_add(&P->seen, pd->key);
        if (added < 0)
            return -1;
        if (!added)
            continue;
        offer(P, b->dealt, pd->rank, 0);
        if (add_cand(P, pd->rank, b->idx, pd->s, pd->t, pd->k) < 0)
            return -1;
    }
    if (b->deal) {
        int added = seen_add(&P->seen, b->deal_key);
        if (added < 0)
            return -1;
        if (added) {
            offer(P, b->dealt + 1, b->deal_rank, 0);
            if (add_cand(P, b->deal_rank, b->idx, -1, 0, 0) < 0)
                return -1;
        }
    }
    b->idx = -1;
    return 0;
}

static void pass_free(Pass *P) {
    free(P->chunks);
    free(P->cur);
    free(P->nxt);
    free(P->cur_cards);
    free(P->nxt_cards);
    free(P->cands);
    if (P->levels) {
        for (size_t i = 0; i < P->nlevels; i++)
            PyMem_Free(P->levels[i]);
        free(P->levels);
    }
    free(P->level_n);
    free(P->keys);
    free(P->keys_tmp);
    free(P->seen.slots);
    free(P->heaps);
    free(P->heap_store);
    free(P->tmp);
    free(P->wide);
    free(P->brood[0].pend);
    free(P->brood[1].pend);
    free(P->later);
}

static int set_progress(PyObject *progress, const Node *best) {
    int64_t down = 0;
    for (int i = 0; i < MAXCOLS; i++)
        down += best->down[i];
    struct {
        const char *name;
        int64_t value;
        int bigger;
    } fields[4] = {{"best_runs", best->runs, 1},
                   {"best_down", down, 0},
                   {"best_deals", best->dealt, 1},
                   {"best_rank", node_rank(best), 0}};
    for (int f = 0; f < 4; f++) {
        long long v;
        if (get_long(progress, fields[f].name, &v) < 0)
            return -1;
        const long long nv = fields[f].value;
        if ((fields[f].bigger ? nv > v : nv < v) && set_long(progress, fields[f].name, nv) < 0)
            return -1;
    }
    /* the levels seen and the sum of their best positions' ranks (the fair hint's lookahead) */
    long long levels, sum;
    if (get_long(progress, "levels", &levels) < 0 || get_long(progress, "rank_sum", &sum) < 0)
        return -1;
    if (set_long(progress, "levels", levels + 1) < 0 ||
        set_long(progress, "rank_sum", sum + (long long)node_rank(best)) < 0)
        return -1;
    return 0;
}

/* Forget the way back of every past position that is no ancestor of the current level's (most
 * are: the lines kept soon share their past), compacting each level and renumbering the parents
 * that point into it. The lines found are the same; only the memory a long pass holds changes.
 * Returns -1 when out of memory (nothing changed then). */
static int prune_way_back(Pass *P) {
    size_t most = 1;
    for (size_t l = 0; l < P->nlevels; l++)
        if (P->level_n[l] > most)
            most = P->level_n[l];
    int32_t *map = malloc(most * sizeof(int32_t));
    if (!map)
        return -1;
    size_t total = P->level_n[P->nlevels - 1];
    for (size_t l = P->nlevels - 1; l >= 1; l--) {
        Back *here = P->levels[l], *prev = P->levels[l - 1];
        size_t n = P->level_n[l], np = P->level_n[l - 1];
        for (size_t i = 0; i < np; i++)
            map[i] = -1;
        for (size_t i = 0; i < n; i++)
            map[here[i].parent] = 0;
        size_t kept = 0;
        for (size_t i = 0; i < np; i++)
            if (map[i] == 0) {
                prev[kept] = prev[i];
                map[i] = (int32_t)kept++;
            }
        for (size_t i = 0; i < n; i++)
            here[i].parent = map[here[i].parent];
        if (kept < np) { /* give the rest back: a new block of the size kept */
            Back *small = PyMem_Malloc((kept ? kept : 1) * sizeof(Back));
            if (small) {
                memcpy(small, prev, kept * sizeof(Back));
                PyMem_Free(prev);
                P->levels[l - 1] = small;
            }
        }
        P->level_n[l - 1] = kept;
        total += kept;
    }
    free(map);
    P->back_total = P->back_after = total;
    return 0;
}

static PyObject *line_of(Pass *P, size_t idx, int ws, int wt, int wk) {
    size_t L = P->nlevels; /* levels[0] is the root's */
    PyObject *out = PyList_New((Py_ssize_t)L);
    if (!out)
        return NULL;
    PyObject *last = ws < 0 ? (Py_INCREF(Py_None), Py_None) : Py_BuildValue("(iii)", ws, wt, wk);
    if (!last) {
        Py_DECREF(out);
        return NULL;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)L - 1, last);
    for (size_t l = L - 1; l >= 1; l--) {
        const Back *b = &P->levels[l][idx];
        PyObject *step = b->s < 0 ? (Py_INCREF(Py_None), Py_None)
                                  : Py_BuildValue("(iii)", b->s, b->t, b->k);
        if (!step) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)l - 1, step);
        idx = (size_t)b->parent;
    }
    return out;
}

PyDoc_STRVAR(beam_doc,
             "beam(cols, down, chunks, runs, permissive, runs_to_win, width, cap, seen_limit, "
             "places, grant, progress)\n--\n\n"
             "One beam pass, exactly as BeamSolver's Python pass: the winning line (a list of "
             "(source, target, count) or None for a deal), or None. cap < 0: no cap. "
             "grant(done, more): counts the positions expanded since its last call and, with "
             "more, says how many more may be expanded before the next (see _Budget.grant).");

static PyObject *beam(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cols, *down, *chunks, *places, *grant, *progress;
    int runs, permissive, goal, width, cap_levels;
    long long seen_limit;
    if (!PyArg_ParseTuple(args, "O!O!O!ipiiiLO!OO", &PyTuple_Type, &cols, &PyTuple_Type, &down,
                          &PyTuple_Type, &chunks, &runs, &permissive, &goal, &width, &cap_levels,
                          &seen_limit, &PyTuple_Type, &places, &grant, &progress))
        return NULL;
    Py_ssize_t ncols = PyTuple_GET_SIZE(cols);
    Py_ssize_t nchunks = PyTuple_GET_SIZE(chunks);
    if (ncols < 1 || ncols > MAXCOLS || PyTuple_GET_SIZE(down) != ncols) {
        PyErr_SetString(PyExc_ValueError, "1 to 10 columns, each with its face-down count");
        return NULL;
    }
    if (nchunks > 63 || PyTuple_GET_SIZE(places) != NPLACES || width < 1 || width > MAX_WIDTH ||
        runs < 0 || runs > (1 << 20) || goal > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError,
                        "at most 63 deals, 11 places, a width of 1 to 2^20, runs 0 to 2^20");
        return NULL;
    }
    Pass Pz;
    Pass *P = &Pz;
    memset(P, 0, sizeof *P);
    P->ncols = (int)ncols;
    P->nchunks = (int)nchunks;
    P->permissive = permissive;
    P->goal = goal;
    P->width = width;
    for (int i = 0; i < NPLACES; i++) {
        P->place[i] = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(places, i));
        if (PyErr_Occurred())
            return NULL;
    }
    /* The most cards a column can hold: every card of the problem. */
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *c = PyTuple_GET_ITEM(cols, i);
        if (!PyBytes_Check(c)) {
            PyErr_SetString(PyExc_TypeError, "columns: bytes expected");
            return NULL;
        }
        total += PyBytes_GET_SIZE(c);
    }
    for (Py_ssize_t i = 0; i < nchunks; i++) {
        PyObject *c = PyTuple_GET_ITEM(chunks, i);
        if (!PyBytes_Check(c)) {
            PyErr_SetString(PyExc_TypeError, "deals: bytes expected");
            return NULL;
        }
        total += PyBytes_GET_SIZE(c);
    }
    if (total > 127) { /* a count of cards moved fits in an int8_t */
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return NULL;
    }
    P->cap = total > 0 ? (int)total : 1;
    P->stride = P->ncols * P->cap;
    int buckets = P->nchunks + 1;
    PyObject *result = NULL;
    Back *pending = NULL;
    /* positions the budget let this pass expand before it asks again, and those expanded since
     * it last counted them */
    Py_ssize_t allowance = 0, spent = 0;

    P->chunks = calloc((size_t)(nchunks > 0 ? nchunks : 1) * (size_t)ncols, 1);
    P->tmp = malloc((size_t)P->stride + SPARE);
    P->wide = malloc((size_t)P->stride + SPARE);
    for (int i = 0; i < 2; i++) {
        P->brood[i].pend = malloc(((size_t)P->stride + 1) * sizeof(Pend));
        P->brood[i].idx = -1;
    }
    P->heaps = calloc((size_t)buckets, sizeof(Heap));
    P->heap_store = malloc((size_t)buckets * (size_t)width * sizeof(int64_t));
    P->cur = malloc(sizeof(Node));
    P->cur_cards = malloc((size_t)P->cap + SPARE);
    if (!P->chunks || !P->tmp || !P->wide || !P->brood[0].pend || !P->brood[1].pend ||
        !P->heaps || !P->heap_store || !P->cur || !P->cur_cards ||
        seen_init(&P->seen, seen_expected(width, seen_limit)) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (int b = 0; b < buckets; b++)
        P->heaps[b].v = P->heap_store + (size_t)b * (size_t)width;
    for (Py_ssize_t i = 0; i < nchunks; i++) {
        int n;
        if (read_cards(PyTuple_GET_ITEM(chunks, i), "deal", P->chunks + i * ncols, &n, P->ncols) <
            0)
            goto done;
        P->chunk_len[i] = n;
    }
    /* the root */
    Node *root = P->cur;
    memset(root, 0, sizeof *root);
    memset(P->wide, 0, (size_t)P->stride + SPARE);
    for (int i = 0; i < P->ncols; i++) {
        int n;
        if (read_cards(PyTuple_GET_ITEM(cols, i), "column", P->wide + (size_t)i * P->cap, &n,
                        P->cap) < 0)
            goto done;
        long dv = PyLong_AsLong(PyTuple_GET_ITEM(down, i));
        if (dv == -1 && PyErr_Occurred())
            goto done;
        if (dv < 0 || dv > 255) {
            PyErr_SetString(PyExc_ValueError, "a face-down count from 0 to 255 expected");
            goto done;
        }
        root->len[i] = (uint8_t)n;
        root->down[i] = (uint8_t)dv;
        info_of(P->wide + (size_t)i * P->cap, n, (int)dv, &root->info[i]);
    }
    pack(P, root, P->cur_cards, P->wide);
    root->dealt = 0;
    root->runs = runs;
    sums_of(P, root);
    P->cur_n = 1;
    P->cur_cap = 1;
    if (seen_add(&P->seen, root->key) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* The way back of the level being expanded, not yet in ``levels``: the root's. */
    pending = PyMem_Malloc(sizeof(Back));
    if (!pending) {
        PyErr_NoMemory();
        goto done;
    }
    pending->parent = -1;
    pending->s = -1;
    pending->t = pending->k = 0;
    while (P->cur_n && (cap_levels < 0 || P->nlevels < (size_t)cap_levels)) {
        if (P->nlevels == P->levels_cap) {
            size_t c = P->levels_cap ? P->levels_cap * 2 : 64;
            Back **lv = realloc(P->levels, c * sizeof(Back *));
            if (!lv) {
                PyErr_NoMemory();
                goto done;
            }
            P->levels = lv;
            size_t *ln = realloc(P->level_n, c * sizeof(size_t));
            if (!ln) {
                PyErr_NoMemory();
                goto done;
            }
            P->level_n = ln;
            P->levels_cap = c;
        }
        P->levels[P->nlevels] = pending;
        P->level_n[P->nlevels++] = P->cur_n;
        P->back_total += P->cur_n;
        pending = NULL;
        /* The way back grows with every level: past the seen limit (and twice what the last
         * pruning left), the past no current position descends from is forgotten. */
        if ((long long)P->back_total > seen_limit && P->back_total > 2 * P->back_after &&
            prune_way_back(P) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if ((long long)P->seen.count > seen_limit) {
            seen_clear(&P->seen);
            for (size_t i = 0; i < P->cur_n; i++)
                if (seen_add(&P->seen, P->cur[i].key) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
        }
        P->ncands = 0;
        for (int b = 0; b < buckets; b++)
            P->heaps[b].n = 0;
        for (size_t idx = 0; idx < P->cur_n; idx++) {
            if (allowance == 0) { /* the budget's word, every 256 positions at most */
                allowance = ask_grant(grant, spent);
                if (allowance < 0)
                    goto done;
                spent = 0;
            }
            allowance--;
            spent++;
            if (idx + 1 < P->cur_n) /* the next position's head, while this one is expanded */
                PREFETCH(&P->cur[idx + 1]);
            int ws, wt, wk;
            int rc = expand(P, (int32_t)idx, &P->brood[idx & 1], &ws, &wt, &wk);
            if (rc < 0 || settle(P, &P->brood[!(idx & 1)]) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            if (rc > 0) {
                result = line_of(P, idx, ws, wt, wk);
                goto done;
            }
        }
        if (P->cur_n && settle(P, &P->brood[(P->cur_n - 1) & 1]) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (add_later(P) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        /* sort the candidates by (rank, order met) */
        size_t nc = P->ncands;
        if (nc > P->keys_cap) {
            size_t cap = nc + nc / 2;
            free(P->keys);
            free(P->keys_tmp);
            P->keys_cap = 0;
            P->keys = malloc(cap * sizeof(Key));
            P->keys_tmp = malloc(cap * sizeof(Key));
            if (!P->keys || !P->keys_tmp) {
                PyErr_NoMemory();
                goto done;
            }
            P->keys_cap = cap;
        }
        for (size_t i = 0; i < nc; i++)
            P->keys[i] = key_of(P->cands[i].rank, (uint32_t)i);
        const Key *keys = sort_keys(P->keys, P->keys_tmp, nc);
        /* the next level: at most width per bucket */
        size_t most = (size_t)width * (size_t)buckets;
        if (most > nc)
            most = nc;
        if (most > P->nxt_cap) {
            free(P->nxt);
            free(P->nxt_cards);
            P->nxt_cap = 0;
            P->nxt = malloc(most * sizeof(Node));
            P->nxt_cards = malloc(most * (size_t)P->cap + SPARE);
            if (!P->nxt || !P->nxt_cards) {
                PyErr_NoMemory();
                goto done;
            }
            P->nxt_cap = most;
        }
        pending = PyMem_Malloc((most ? most : 1) * sizeof(Back));
        if (!pending) {
            PyErr_NoMemory();
            goto done;
        }
        int counts[64];
        memset(counts, 0, sizeof counts);
        size_t kept = 0;
        for (size_t i = 0; i < nc && kept < most; i++) {
            if (i + 8 < nc) { /* a coming candidate's parent, fetched while this one is built */
                const Cand *ahead = &P->cands[(uint32_t)keys[i + 8]];
                PREFETCH(&P->cur[ahead->parent]);
                PREFETCH(P->cur_cards + (size_t)ahead->parent * P->cap);
            }
            const Cand *c = &P->cands[(uint32_t)keys[i]];
            const Node *parent = &P->cur[c->parent];
            int bucket = parent->dealt + (c->s < 0);
            if (counts[bucket] >= width)
                continue;
            counts[bucket]++;
            Node *child = &P->nxt[kept];
            uint8_t *cc = P->wide;
            *child = *parent;
            unpack(P, parent, cc, P->cur_cards + (size_t)c->parent * P->cap);
            if (c->s < 0)
                apply_deal(P, child, cc);
            else
                apply_move(P, child, cc, c->s, c->t, c->k);
            pack(P, child, P->nxt_cards + kept * (size_t)P->cap, cc);
            pending[kept].parent = c->parent;
            pending[kept].s = c->s;
            pending[kept].t = c->t;
            pending[kept].k = c->k;
            kept++;
        }
        /* swap the levels */
        Node *tn = P->cur;
        uint8_t *tc = P->cur_cards;
        size_t tcap = P->cur_cap;
        P->cur = P->nxt;
        P->cur_cards = P->nxt_cards;
        P->cur_cap = P->nxt_cap;
        P->cur_n = kept;
        P->nxt = tn;
        P->nxt_cards = tc;
        P->nxt_cap = tcap;
        if (kept && set_progress(progress, &P->cur[0]) < 0)
            goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (result && spent && tell_grant(grant, spent) < 0) /* the last positions counted */
        Py_CLEAR(result);
    PyMem_Free(pending);
    pass_free(P);
    return result;
}

PyDoc_STRVAR(digest_doc, "column_digest(col, down)\n--\n\n"
                         "A column's 64-bit digest: FNV-1a over its cards and face-down count, "
                         "then splitmix64's finaliser (the Python pass computes the same).");

static PyObject *column_digest(PyObject *self, PyObject *args) {
    (void)self;
    const char *buf;
    Py_ssize_t len;
    int d;
    if (!PyArg_ParseTuple(args, "y#i", &buf, &len, &d))
        return NULL;
    if (d < 0 || d > 255) {
        PyErr_SetString(PyExc_ValueError, "a face-down count from 0 to 255 expected");
        return NULL;
    }
    if (len > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(digest_of((const uint8_t *)buf, (int)len, d));
}

static PyMethodDef methods[] = {
    {"beam", beam, METH_VARARGS, beam_doc},
    {"column_digest", column_digest, METH_VARARGS, digest_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "spidercli.solver._beam", "spidercli's beam pass, compiled (optional).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__beam(void) { return PyModule_Create(&module); }
