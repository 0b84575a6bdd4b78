# Several cores on one null-window search (Core.search_job): the cores search
# the same position for the same target at once, in one table, and the
# first to finish answers for all.
#
# What keeps them from doing the same work twice is a small shared map of
# the moves being searched now (after the "simplified ABDADA" scheme of
# parallel alpha-beta): at a node with enough tricks left, a core searches
# the first move as it would alone, but a later move whose position another
# core is searching just now is put off to the end of the list.  By the
# time the core comes back to it, the other core has usually finished it
# and its bounds are in the table, so it costs a few probes.  A wrong
# answer of the map (two positions with one key, a full bucket, or a race
# between a mark and a look) only changes which core searches what, never
# a result: every move is still searched by the core that put it off.
#
# The first move is put off only at the root of a test whose root is
# expected to fail on every move (an ALL node: see engine.py's
# _root_fails_all), where the cores must search every first card anyway;
# elsewhere it is searched by every core that comes to the node.  Putting
# it off everywhere (so that a second core starts on the next move at once)
# made the runs erratic: the four-void freak deal's no-trump search with
# North leading (three null-window searches), two cores, 256 MB, seven
# runs each: 27.8M-77.7M nodes in all, four runs over 56M, against
# 30.8M-40.6M (one core alone: 24.1M).  At a node whose first move cuts,
# the second core then searches moves nobody needs.  At such a root, a
# core marks its moves even while it searches alone, so that a core that
# joins later finds the first one taken.
#
# The map is a set of buckets of SPLIT_WAYS entries (one 64-byte line
# each): a mark takes a free entry of its bucket, and stays until its core
# unmarks it.  It was one entry per key: the marks near the root, held for
# the whole search of their move, were overwritten within milliseconds by
# the thousands of short marks made below them, so a core joining a search
# seldom saw which move near the root the other was in.  (On hard deal 19's
# critical test, East's "at least 7?" of the spade row, the joining core
# searched the owner's first lead beside it: 1.06M nodes of the 2.08M the
# two spent on it.)  A full bucket leaves a move unmarked: it is then
# searched by both.
#
# The search each core runs is numbered (a job); a core that finishes its
# job first writes the number to `done`, and the other cores, which look at
# it after every move they search at a node with SPLIT_LEFT tricks left or
# more, return at once without storing what their unfinished search saw
# (below those nodes a core searches as it would alone, and finishes the
# subtree it is in before it looks: engine's search_node).  `done` is a
# watermark: a number written counts every earlier one done too, and it
# never moves back.
#
# A helper may also test another target of the owner's position ahead of
# the owner (engine.py's tests ahead).  Its job takes the owner's next
# number, later than the owner's test now, so it does not write `done` when
# it finishes (Core.search_job's publish): that would stop the owner's
# test.  It is counted done (Core.finish_job, under engine.py's lock) when
# the helper answers while the owner searches it too, or when its answer
# is no longer needed.
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from _tt cimport tt_ld32

cdef extern from *:
    """
    /* The map of moves in progress is read and written relaxed (a stale
       read only changes the order of work); the number of the job done,
       acquire/release (_tt.pxd's tt_ld32, tt_st32). */
    static inline uint64_t split_ld64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline int split_cas64(uint64_t* p, uint64_t old, uint64_t v) {
        return __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    /* `done` only ever moves forward (as serial numbers): a core that
       finishes an earlier job after a later one was counted done does not
       bring the later one back to life. */
    static inline void split_done_upto(int32_t* done, int32_t job) {
        int32_t old = __atomic_load_n(done, __ATOMIC_ACQUIRE);
        while ((int32_t) ((uint32_t) job - (uint32_t) old) > 0
               && !__atomic_compare_exchange_n(done, &old, job, 1, __ATOMIC_RELEASE,
                                               __ATOMIC_ACQUIRE)) {
        }
    }
    """
    uint64_t split_ld64(const uint64_t* p) nogil
    bint split_cas64(uint64_t* p, uint64_t old, uint64_t v) nogil
    void split_done_upto(int32_t* done, int32_t job) nogil

cdef enum:
    # Entries of the map of moves in progress, in buckets of SPLIT_WAYS:
    # each core marks at most one move per node of its current path that
    # has SPLIT_LEFT tricks left or more, a few dozen at a time.
    SPLIT_SLOTS = 1024
    SPLIT_WAYS = 8
    # Moves are put off only at nodes with at least this many tricks left
    # (the current one included).  Measured on the slowest null-window
    # search of bridge-solver's hard deal 2 (West leading at no-trump,
    # 2.15-2.47 s alone), two cores from the start: 1.40-1.50 s at 10,
    # 1.46-1.75 s at 8, 1.60-2.05 s at 6, 2.03-2.13 s at 3, 1.57-1.89 s at
    # 12.  Lower, the cores mostly trade small subtrees they would each
    # have finished as fast.
    SPLIT_LEFT = 10


cdef struct Split:
    uint8_t pad0[64]
    int32_t done                  # the last job a core finished (0: none)
    uint8_t pad1[60]
    int32_t issued                # the last job number the owner handed out (split_next_job)
    uint8_t pad2[60]              # (the buckets start on a line of their own)
    uint64_t busy[SPLIT_SLOTS]    # positions being searched now, by key (0: free), SPLIT_WAYS a bucket


cdef inline void split_init(Split* sp) noexcept nogil:
    cdef int i
    sp.done = 0
    sp.issued = 0
    for i in range(SPLIT_SLOTS):
        sp.busy[i] = 0


cdef inline uint64_t* split_bucket(Split* sp, uint64_t key) noexcept nogil:
    return &sp.busy[(key & (SPLIT_SLOTS // SPLIT_WAYS - 1)) * SPLIT_WAYS]


cdef inline int split_busy(Split* sp, uint64_t key) noexcept nogil:
    """Is the position with this key (never 0) being searched now?"""
    cdef uint64_t* e = split_bucket(sp, key)
    cdef int j
    for j in range(SPLIT_WAYS):
        if split_ld64(&e[j]) == key:
            return 1
    return 0


cdef inline int split_mark(Split* sp, uint64_t key) noexcept nogil:
    """Mark the position with this key as being searched, in a free entry
    of its bucket; 0 when none is free (the position is left unmarked)."""
    cdef uint64_t* e = split_bucket(sp, key)
    cdef int j
    for j in range(SPLIT_WAYS):
        if split_ld64(&e[j]) == 0 and split_cas64(&e[j], 0, key):
            return 1
    return 0


cdef inline void split_unmark(Split* sp, uint64_t key) noexcept nogil:
    """Take back a mark split_mark made."""
    cdef uint64_t* e = split_bucket(sp, key)
    cdef int j
    for j in range(SPLIT_WAYS):
        if split_ld64(&e[j]) == key and split_cas64(&e[j], key, 0):
            return


cdef inline int32_t split_next_job(Split* sp) noexcept nogil:
    """A new job number for the owner of the split, after every number it
    has handed out (never 0; after 2**32 jobs the numbers wrap, and the
    comparisons of split_stopped still hold)."""
    cdef uint32_t n = (<uint32_t> sp.issued) + 1
    if n == 0:
        n = 1
    sp.issued = <int32_t> n
    return <int32_t> n


cdef inline int split_stopped(Split* sp, int32_t job) noexcept nogil:
    """Has another core finished job `job` (0: a search of its own, never
    stopped)?  Jobs are numbered upwards (split_next_job), so a later job
    done stops an earlier one too (compared as serial numbers: within
    2**31 of each other)."""
    return job != 0 and <int32_t> ((<uint32_t> tt_ld32(&sp.done)) - <uint32_t> job) >= 0
