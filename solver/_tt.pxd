# The transposition table: probe and store, nothing else.
#
# Entries are made at trick boundaries.  A position is filed under its
# shape: the leader and the suit lengths of every hand.  Under a shape the
# table keeps a list of patterns, each holding only the owners of the top
# cards of each suit that decided its bounds (partition search), so one
# pattern answers for every position of that shape that agrees on those
# cards, whatever the smaller cards are.  Bounds are on the tricks N-S take
# from the trick boundary on, so they hold for any target.
#
# Memory is fixed when the table is made: an open-addressed array of shape
# slots and a pool of pattern pages.  When either fills up the table is
# emptied and starts again (stored bounds are only ever a speed-up).
from libc.stdint cimport int32_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from _types cimport TTPage, TTPattern, TTSlot, TTable, PAGE


cdef inline int tt_init(TTable* t, size_t nbytes) noexcept nogil:
    """Allocate about nbytes: a quarter for shape slots, the rest for
    pattern pages."""
    cdef uint64_t ns = 1024
    while ns * 2 * sizeof(TTSlot) <= nbytes // 4:
        ns *= 2
    cdef uint64_t np = (nbytes - ns * sizeof(TTSlot)) // sizeof(TTPage)
    if np < 64:
        np = 64
    if np > 0x7FFFFFFF:
        np = 0x7FFFFFFF
    t.slots = <TTSlot*> calloc(ns, sizeof(TTSlot))
    t.pages = <TTPage*> calloc(np, sizeof(TTPage))
    if t.slots == NULL or t.pages == NULL:
        free(t.slots)
        free(t.pages)
        t.slots = NULL
        t.pages = NULL
        return -1
    t.nslots = ns
    t.npages = <int32_t> np
    t.used = 0
    t.pages_used = 0
    t.stores = 0
    t.hits = 0
    t.resets = 0
    t.gen = 1
    return 0


cdef inline void tt_free(TTable* t) noexcept nogil:
    free(t.slots)
    free(t.pages)
    t.slots = NULL
    t.pages = NULL


cdef inline void tt_empty(TTable* t) noexcept nogil:
    """Forget everything: move to a new generation (slots of older ones
    count as empty), wiping the slots only when the counter wraps."""
    t.gen += 1
    if t.gen == 0:
        memset(t.slots, 0, t.nslots * sizeof(TTSlot))
        t.gen = 1
    t.used = 0
    t.pages_used = 0


cdef inline void tt_clear(TTable* t) noexcept nogil:
    tt_empty(t)
    t.stores = 0
    t.hits = 0
    t.resets = 0


cdef inline uint64_t tt_hash(uint64_t key, uint16_t key2) noexcept nogil:
    cdef uint64_t h = key ^ (<uint64_t> key2 * 0xC2B2AE3D27D4EB4FULL)
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h


cdef inline TTSlot* tt_find(TTable* t, uint64_t key, uint16_t key2) noexcept nogil:
    """The slot of a shape, or the empty slot where it would go."""
    cdef uint64_t m = t.nslots - 1
    cdef uint64_t i = tt_hash(key, key2) & m
    cdef TTSlot* e
    while True:
        e = t.slots + i
        if e.gen != t.gen or (e.key2 == key2 and e.key == key):
            return e
        i = (i + 1) & m


cdef inline int tt_probe(TTable* t, uint64_t key, uint16_t key2, uint64_t* own,
                         int need, uint64_t* msk_out) noexcept nogil:
    """Can N-S take `need` tricks from here?  1 yes, 0 no, -1 unknown.

    On an answer, msk_out receives the deciding pattern's masks."""
    cdef TTSlot* e = tt_find(t, key, key2)
    cdef int32_t pg
    cdef int i
    cdef TTPattern* p
    if e.gen != t.gen:
        return -1
    pg = e.first
    while pg >= 0:
        for i in range(t.pages[pg].count):
            p = &t.pages[pg].pat[i]
            if ((p.own[0] ^ own[0]) & p.msk[0]) or ((p.own[1] ^ own[1]) & p.msk[1]):
                continue
            if p.lower >= need or p.upper < need:
                msk_out[0] = p.msk[0]
                msk_out[1] = p.msk[1]
                t.hits += 1
                return 1 if p.lower >= need else 0
        pg = t.pages[pg].next
    return -1


cdef inline int32_t tt_new_page(TTable* t) noexcept nogil:
    cdef int32_t pg
    if t.pages_used >= t.npages:
        return -1
    pg = t.pages_used
    t.pages_used += 1
    t.pages[pg].next = -1
    t.pages[pg].count = 0
    return pg


cdef inline void tt_store(TTable* t, uint64_t key, uint16_t key2, uint64_t* own,
                          uint64_t* msk, int lower, int upper, int left) noexcept nogil:
    """Record lower <= N-S tricks from here <= upper for the pattern."""
    cdef TTSlot* e = tt_find(t, key, key2)
    cdef uint64_t o0 = own[0] & msk[0]
    cdef uint64_t o1 = own[1] & msk[1]
    cdef int32_t pg, npg
    cdef int i
    cdef TTPattern* p
    if e.gen != t.gen:
        if (t.used + 1) * 2 > t.nslots or t.pages_used >= t.npages:
            tt_empty(t)
            t.resets += 1
            e = tt_find(t, key, key2)
        pg = tt_new_page(t)
        e.key = key
        e.key2 = key2
        e.gen = t.gen
        e.first = pg
        e.last = pg
        e.npat = 0
        t.used += 1
    else:
        # the same pattern again: tighten its bounds
        pg = e.first
        while pg >= 0:
            for i in range(t.pages[pg].count):
                p = &t.pages[pg].pat[i]
                if p.msk[0] == msk[0] and p.msk[1] == msk[1] and p.own[0] == o0 and p.own[1] == o1:
                    if lower > p.lower:
                        p.lower = lower
                    if upper < p.upper:
                        p.upper = upper
                    t.stores += 1
                    return
            pg = t.pages[pg].next
        pg = e.last
        if t.pages[pg].count >= PAGE:
            npg = tt_new_page(t)
            if npg < 0:
                tt_empty(t)
                t.resets += 1
                tt_store(t, key, key2, own, msk, lower, upper, left)
                return
            t.pages[pg].next = npg
            e.last = npg
            pg = npg
    p = &t.pages[pg].pat[t.pages[pg].count]
    t.pages[pg].count += 1
    e.npat += 1
    p.own[0] = o0
    p.own[1] = o1
    p.msk[0] = msk[0]
    p.msk[1] = msk[1]
    p.lower = lower
    p.upper = upper
    t.stores += 1
