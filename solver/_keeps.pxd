# The keeps of a bid whist exchange, made and put in search order.
#
# The bidder picks n cards out of the pool (hand and kitty).  The library
# (bid.py) describes the choices suit by suit: each choice keeps some of a
# suit's cards (one card of each run of equivalent ones stands for the
# run), with a heuristic worth, the keep's cards as codes (their names'
# order), their bit masks in the engine's five suits, and a cap (the most
# tricks any keep with this choice of trumps can take, 255: none).  A keep
# takes one choice of every suit, n cards in all; its worth is the sum of
# its choices' (added suit by suit, in order, as floating point), its cap
# the least of theirs.
#
# The search wants the keeps best first: by worth, highest first, and then
# by their cards' names (the codes compared in turn), so that a run orders
# them the same way every time.  Made in Python (tuples of card names
# joined suit by suit, then sorted), the 6,000-19,000 keeps of each of the
# ten options of a bid took about 7% of the time of the bid question (10
# samples of the bid board of examples/simulate.pbn: 0.40 s joining, 0.15 s
# sorting and 0.23 s of masks, against about 12.5 s in all).
from libc.stdint cimport uint8_t, uint16_t
from libc.stdlib cimport qsort, realloc, free
from libc.string cimport memcmp, memcpy

cdef enum:
    KEEP_CARDS = 16     # the most cards a keep holds (a hand: 13 at most)
    KEEP_SUITS = 5      # four suits and the jokers' own at no-trump


cdef struct Keep:
    double worth
    uint8_t key[KEEP_CARDS]         # the cards' codes, suit by suit; zeros after the last
    uint16_t masks[KEEP_SUITS]      # the cards in the engine's suits 0..4
    uint16_t pick[KEEP_SUITS]       # the choice of each suit (an index into all the choices)
    uint8_t cap


cdef struct KeepMaker:
    # the choices: those of suit s are first[s] .. first[s + 1] - 1
    int nsuits
    int n
    const uint16_t* first
    const uint8_t* size
    const double* worth
    const uint8_t* key              # KEEP_CARDS codes a choice
    const uint16_t* masks           # KEEP_SUITS masks a choice
    const uint8_t* cap
    int most[KEEP_SUITS + 1]        # the most cards suits s.. can add
    # the keeps made so far
    Keep* keeps
    Py_ssize_t count
    Py_ssize_t room
    int failed


cdef inline void keeps_walk(KeepMaker* m, int s, int held, Keep k) noexcept nogil:
    """Every completion of the partial keep k (suits before s chosen,
    ``held`` cards) appended to m.keeps."""
    cdef int j, c, size
    cdef Keep nk
    cdef Keep* grown
    if s == m.nsuits:
        if held != m.n or m.failed:
            return
        if m.count == m.room:
            m.room = 1024 if m.room == 0 else 2 * m.room
            grown = <Keep*> realloc(m.keeps, m.room * sizeof(Keep))
            if grown == NULL:
                m.failed = 1
                return
            m.keeps = grown
        m.keeps[m.count] = k
        m.count += 1
        return
    for j in range(m.first[s], m.first[s + 1]):
        size = m.size[j]
        if held + size > m.n or held + size + m.most[s + 1] < m.n:
            continue
        nk = k
        nk.worth = k.worth + m.worth[j]
        memcpy(&nk.key[held], &m.key[KEEP_CARDS * j], size)
        for c in range(KEEP_SUITS):
            nk.masks[c] = k.masks[c] | m.masks[KEEP_SUITS * j + c]
        nk.pick[s] = <uint16_t> j
        if m.cap[j] < nk.cap:
            nk.cap = m.cap[j]
        keeps_walk(m, s + 1, held + size, nk)


cdef inline int keep_order(const void* a, const void* b) noexcept nogil:
    """Best first: higher worth, then the lower codes."""
    cdef const Keep* x = <const Keep*> a
    cdef const Keep* y = <const Keep*> b
    if x.worth > y.worth:
        return -1
    if x.worth < y.worth:
        return 1
    return memcmp(x.key, y.key, KEEP_CARDS)


cdef inline int keeps_make(KeepMaker* m) noexcept nogil:
    """All the keeps, in search order, in m.keeps (m.count of them; the
    caller frees m.keeps).  -1 if memory ran out."""
    cdef int s, j, top
    cdef Keep k
    m.keeps = NULL
    m.count = 0
    m.room = 0
    m.failed = 0
    m.most[m.nsuits] = 0
    for s in range(m.nsuits - 1, -1, -1):
        top = 0
        for j in range(m.first[s], m.first[s + 1]):
            if m.size[j] > top:
                top = m.size[j]
        m.most[s] = m.most[s + 1] + top
    k.worth = 0.0
    for j in range(KEEP_CARDS):
        k.key[j] = 0
    for j in range(KEEP_SUITS):
        k.masks[j] = 0
        k.pick[j] = 0
    k.cap = 255
    keeps_walk(m, 0, 0, k)
    if m.failed:
        free(m.keeps)
        m.keeps = NULL
        m.count = 0
        return -1
    if m.count > 1:
        qsort(m.keeps, m.count, sizeof(Keep), keep_order)
    return 0
