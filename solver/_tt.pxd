# The transposition table: probe and store, nothing else.
#
# Entries are made at trick boundaries.  A position is looked up by its
# leader and the suit lengths of every hand (the key); inside the key an
# entry keeps only the owners of the top cards of each suit that decided its
# bound (partition search), so one entry answers for every position that
# agrees on those cards, whatever the smaller cards are.  Bounds are on the
# tricks N-S take from the trick boundary on, so they hold for any target.
#
# The table has a fixed number of buckets of BUCKET entries: memory is
# bounded, and a full bucket gives up its shallowest entry.
from libc.stdint cimport uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from _types cimport TTEntry, TTable, BUCKET


cdef inline int tt_init(TTable* t, size_t nbytes) noexcept nogil:
    """Allocate about nbytes (at least one bucket, a power of two)."""
    cdef uint64_t nb = 1
    cdef int lg = 0
    while nb * 2 * BUCKET * sizeof(TTEntry) <= nbytes and lg < 40:
        nb *= 2
        lg += 1
    t.slots = <TTEntry*> calloc(nb * BUCKET, sizeof(TTEntry))
    if t.slots == NULL:
        return -1
    t.nbuckets = nb
    t.shift = 64 - lg
    t.stores = 0
    t.hits = 0
    return 0


cdef inline void tt_free(TTable* t) noexcept nogil:
    free(t.slots)
    t.slots = NULL


cdef inline void tt_clear(TTable* t) noexcept nogil:
    memset(t.slots, 0, t.nbuckets * BUCKET * sizeof(TTEntry))
    t.stores = 0
    t.hits = 0


cdef inline TTEntry* tt_bucket(TTable* t, uint64_t key, uint16_t key2) noexcept nogil:
    cdef uint64_t h = (key ^ (<uint64_t> key2 << 48) ^ (<uint64_t> key2 * 0xC2B2AE3D27D4EB4FULL))
    h *= 0x9E3779B97F4A7C15ULL
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    if t.shift >= 64:
        return t.slots
    return t.slots + (h >> t.shift) * BUCKET


cdef inline int tt_probe(TTable* t, uint64_t key, uint16_t key2, uint64_t* own,
                         int need, uint64_t* msk_out) noexcept nogil:
    """Can N-S take `need` tricks from here?  1 yes, 0 no, -1 unknown.

    On an answer, msk_out receives the matching entry's pattern masks."""
    cdef TTEntry* e = tt_bucket(t, key, key2)
    cdef int i
    for i in range(BUCKET):
        if e[i].key2 != key2 or e[i].key != key:
            continue
        if ((e[i].own[0] ^ own[0]) & e[i].msk[0]) or ((e[i].own[1] ^ own[1]) & e[i].msk[1]):
            continue
        if e[i].lower >= need:
            msk_out[0] = e[i].msk[0]
            msk_out[1] = e[i].msk[1]
            t.hits += 1
            return 1
        if e[i].upper < need:
            msk_out[0] = e[i].msk[0]
            msk_out[1] = e[i].msk[1]
            t.hits += 1
            return 0
    return -1


cdef inline void tt_store(TTable* t, uint64_t key, uint16_t key2, uint64_t* own,
                          uint64_t* msk, int lower, int upper, int left) noexcept nogil:
    """Record lower <= N-S tricks from here <= upper for the pattern."""
    cdef TTEntry* e = tt_bucket(t, key, key2)
    cdef uint64_t o0 = own[0] & msk[0]
    cdef uint64_t o1 = own[1] & msk[1]
    cdef int i, victim = -1, vleft = 1000
    for i in range(BUCKET):
        if (e[i].key2 == key2 and e[i].key == key and e[i].msk[0] == msk[0]
                and e[i].msk[1] == msk[1] and e[i].own[0] == o0 and e[i].own[1] == o1):
            if lower > e[i].lower:
                e[i].lower = lower
            if upper < e[i].upper:
                e[i].upper = upper
            t.stores += 1
            return
        if e[i].key2 == 0:
            if vleft > -1:
                victim = i
                vleft = -1
        elif e[i].left < vleft:
            victim = i
            vleft = e[i].left
    e += victim
    e.key = key
    e.key2 = key2
    e.own[0] = o0
    e.own[1] = o1
    e.msk[0] = msk[0]
    e.msk[1] = msk[1]
    e.lower = lower
    e.upper = upper
    e.left = left
    t.stores += 1
