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
# answer of the map (two positions on one entry, or a race between a mark
# and a look) only changes which core searches what, never a result: every
# move is still searched by the core that put it off.
#
# The first move is never put off.  Putting it off too when another core
# is in it (so that the second core starts on the next move at once) made
# the runs erratic: the four-void freak deal's no-trump search with North
# leading (three null-window searches), two cores, 256 MB, seven runs
# each: 27.8M-77.7M nodes in all, four runs over 56M, against 30.8M-40.6M
# (one core alone: 24.1M).  At a node whose first move cuts,
# the second core then searches moves nobody needs.
#
# The search each core runs is numbered (a job); a core that finishes its
# job first writes the number to `done`, and the other cores, which look at
# it after every move they search, return at once without storing what
# their unfinished search saw.  `done` is a watermark: a number written
# counts every earlier one done too, and it never moves back.
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
    static inline void split_st64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
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
    void split_st64(uint64_t* p, uint64_t v) nogil
    void split_done_upto(int32_t* done, int32_t job) nogil

cdef enum:
    # Entries of the map of moves in progress: each core marks at most one
    # move per node of its current path that has SPLIT_LEFT tricks left
    # or more, a few dozen at a time.
    SPLIT_SLOTS = 1024
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
    uint64_t busy[SPLIT_SLOTS]    # positions being searched now, by key (0: free)


cdef inline void split_init(Split* sp) noexcept nogil:
    cdef int i
    sp.done = 0
    sp.issued = 0
    for i in range(SPLIT_SLOTS):
        sp.busy[i] = 0


cdef inline int split_busy(Split* sp, uint64_t key) noexcept nogil:
    """Is the position with this key (never 0) being searched now?"""
    return split_ld64(&sp.busy[key & (SPLIT_SLOTS - 1)]) == key


cdef inline void split_mark(Split* sp, uint64_t key) noexcept nogil:
    split_st64(&sp.busy[key & (SPLIT_SLOTS - 1)], key)


cdef inline void split_unmark(Split* sp, uint64_t key) noexcept nogil:
    cdef uint64_t* e = &sp.busy[key & (SPLIT_SLOTS - 1)]
    if split_ld64(e) == key:
        split_st64(e, 0)


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
