# The transposition table: probe and store, nothing else.
#
# Entries are made at trick boundaries.  A position is filed under its
# shape: the leader and the suit lengths of every hand.  Under a shape the
# table keeps patterns, each holding only the owners of the top cards of
# each suit that decided its bounds (partition search), so one pattern
# answers for every position of that shape that agrees on those cards,
# whatever the smaller cards are.  Bounds are on the tricks N-S take from
# the trick boundary on, so they hold for any target.
#
# The patterns of a shape are split into lists by what they say about the
# top card of each suit: a pattern's class is the set of suits whose top
# card it covers, and its list is keyed by the class and the owners of
# those top cards.  A position can only match patterns of the lists keyed
# by its own top owners, one list per class, so a probe reads the shape's
# directory (the classes present) and then one list per class instead of
# every pattern of the shape.  It reads a list only where that can tell it
# something: the directory keeps a bit per list that is there (tt_mark),
# and each list the range of its patterns' bounds (tt_widen).
#
# A list that grows long (TT_SPLIT patterns: symmetric deals with few
# shapes) is split one level further: its next patterns that also cover the
# second card from the top of some suits go to lists keyed by those suits
# (the second class) and the owners of those cards; the class slot records
# which second classes it has, and a probe reads the class slot's own list
# and then one split list per second class.  (Random deals rarely split a
# list; on the two-suited freak deal the split takes a fifth off the
# instructions of its spade searches.)
#
# Memory is fixed when the table is made: an open-addressed array of slots
# (directories and lists; the slots of one shape start in one 4 KB block,
# see tt_start) and a pool of pattern pages.  Only the part in use is ever
# written, so only that part is brought into memory: the pages are handed
# out in order, and the slots in use are the first TT_SLOTS_FIRST of the
# array, doubled as they fill (tt_grow, TT_GROW_LATE).  When either fills
# up during one search bigger than the table, the table keeps the shapes
# with the most tricks left (the bounds that cost the most to find again),
# at most half the pages and a quarter of the slots, and forgets the rest;
# else it forgets everything (tt_fill).  Stored bounds are only ever a
# speed-up.
#
# "Full" for the slots is half of them in use (tt_store_in).  At three
# quarters, the four-void freak deal's table (which its slots fill, with a
# third of the pages free) filled twice instead of three times but searched
# 33.9M nodes against 31.7M: a fill later in the search forgot more of what
# it still needed.  The two-suited deal, which never fills, was unchanged.
#
# Two search cores may use one table at once (Core.share_from: a thread
# helping with the keeps of another's exchange option).  Probes take no
# lock; a shareable table's stores take its lock, publish what they add
# with release ordering (read with acquire: a slot's generation, a page's
# count and next page), rewrite no pattern while another core is in, and,
# the table full, take no more bounds until every core searching it has
# stopped where it is: the last of them makes room, and all go on (see
# tt_store_in and the engine's park).  The pattern pages a shared table will hand out next are
# brought into memory ahead of use, outside the lock (tt_store): a page
# the system must first provide (and clear) would otherwise hold up the
# other core's stores for as long as it takes.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

cdef extern from *:
    # (declared here as well as in _bits.pxd: _types.pxd cimports this
    # file, and _bits.pxd cimports _types.pxd)
    int __builtin_ctz(unsigned int) nogil
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    /* Memory for the table's big arrays.  Probes land anywhere in them, so
       on Linux they are asked to live in 2 MB pages (transparent huge
       pages, madvise mode): far fewer TLB misses than with 4 KB pages.
       Zeroed memory (the slots) comes from calloc, which for big blocks
       maps fresh zero pages that the system provides only when first
       touched, in 4 KB pages: a big table costs nothing until it is
       used.  Elsewhere plain malloc. */
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void* tt_alloc(size_t n, int zero) {
        void* p = NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        size_t align = (size_t) 2 << 20;
        if (n >= align) {
            if (zero) {
                /* Zeroed and probed at random: huge pages only up to
                   256 MB (the default tables), since each slot touched
                   brings in a whole page: in 2 MB pages a 2-card ending
                   reached 600 MB of a 3000 MB table. */
                p = calloc(1, n);
                if (p && n <= ((size_t) 256 << 20)) {
                    uintptr_t a = ((uintptr_t) p + align - 1) & ~(uintptr_t) (align - 1);
                    uintptr_t e = ((uintptr_t) p + n) & ~(uintptr_t) (align - 1);
                    if (e > a) madvise((void*) a, e - a, MADV_HUGEPAGE);
                }
                return p;
            }
            size_t m = (n + align - 1) & ~(align - 1);
            if (posix_memalign(&p, align, m) == 0) {
                madvise(p, m, MADV_HUGEPAGE);
                return p;
            }
            p = NULL;
        }
    #endif
        if (zero) return calloc(1, n ? n : 1);
        return malloc(n ? n : 1);
    }
    """
    void* tt_alloc(size_t n, int zero) nogil

cdef extern from *:
    """
    /* Bring in the memory of [p, p + n) now, writable, without changing
       what it holds (Linux 5.14's MADV_POPULATE_WRITE; elsewhere, or if the
       system refuses, nothing: the memory then comes in when first
       written, as usual). */
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void tt_populate(void* p, size_t n) {
    #if defined(__linux__) && defined(MADV_POPULATE_WRITE)
        uintptr_t a = (uintptr_t) p & ~(uintptr_t) 4095;
        uintptr_t e = ((uintptr_t) p + n + 4095) & ~(uintptr_t) 4095;
        if (e > a) (void) madvise((void*) a, e - a, MADV_POPULATE_WRITE);
    #else
        (void) p; (void) n;
    #endif
    }
    """
    void tt_populate(void* p, size_t n) nogil

cdef extern from *:
    """
    /* A table searched by several threads at once (Core.share_from): the stores
       take a lock, the probes do not, so the fields a probe reads that a
       store sets last (a slot's generation, a page's count and next) are
       written with release and read with acquire ordering: a probe that
       sees them sees what was written before them.  On x86 these are plain
       moves that the compiler may not reorder. */
    static inline uint16_t tt_ld16(const uint16_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void tt_st16(uint16_t* p, uint16_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int32_t tt_ld32(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void tt_st32(int32_t* p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    /* A spin-wait's pause (the engine's park spins with it too). */
    static inline void tt_pause(void) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #endif
    }
    static inline void tt_lock(int32_t* l) {
        while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
                tt_pause();
            }
        }
    }
    static inline void tt_unlock(int32_t* l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
    /* Give the processor to another thread for a while (a core waiting
       for others that may share its processor: the engine's park). */
    #if defined(__unix__) || defined(__APPLE__)
    #include <sched.h>
    static inline void tt_yield(void) { sched_yield(); }
    #else
    static inline void tt_yield(void) { }
    #endif
    """
    uint16_t tt_ld16(const uint16_t* p) nogil
    void tt_st16(uint16_t* p, uint16_t v) nogil
    int32_t tt_ld32(const int32_t* p) nogil
    void tt_st32(int32_t* p, int32_t v) nogil
    void tt_lock(int32_t* l) nogil
    void tt_unlock(int32_t* l) nogil
    void tt_pause() nogil
    void tt_yield() nogil

cdef enum:
    PAGE = 3          # patterns in one page of the table (a page: 104 bytes)
    TT_DIR = 0x7FFFFFFF   # TTSlot.sub of a shape's directory slot
    TT_LEAF = 1 << 24     # TTSlot.sub bit of a split list (see tt_leaf)
    TT_SPLIT = 12         # a class slot with this many patterns of its own splits the next ones
    TT_MANY_ROOTS = 16    # a fill after this many roots since the last one may forget everything (see tt_fill)
    TT_BLOCK_BITS = 7     # a shape's slots start in one block of 2**TT_BLOCK_BITS slots (see tt_start)
    TT_BLOCK = 1 << TT_BLOCK_BITS
    # Slots a table starts with (2 MB of them); it doubles them when more
    # than 1 / TT_GROW_AT of them are in use, up to the slots it was made
    # with (see tt_grow).  With 2 (doubling only when the table would
    # fill) the 40 seeded exchanges on one solver took 3% more CPU than
    # with all the slots from the start, the longer probe runs of a
    # fuller table; with 8 the same within the noise (seeds 0-21: 27.40 s
    # against 27.42 s), and a 512 MB table reached all its slots at seed 5.
    #
    # Past a quarter of its slots the table doubles them only when more
    # than 1 / TT_GROW_LATE are in use: the last doublings are the ones
    # that cost memory.  The two-suited freak deal's table holds 114,531
    # slots: with 8 all the way it took the whole 16 MB of slots of the
    # default table, with 2 past the quarter 8 MB, the same nodes (78.80M).
    TT_SLOTS_FIRST = 1 << 16
    TT_GROW_AT = 8
    TT_GROW_LATE = 2
    # Pages (1.6 MB of them) that a shared table's stores bring into memory
    # ahead of use, outside the lock (see tt_store).  On this project's 2-core
    # VM a fresh 2 MB page took milliseconds to come in (512 MB written the
    # first time: 1.1-1.7 s; the second time: 0.02 s), and did so inside
    # the lock, where the other core's stores waited for it.  Seed 21's
    # exchange on two threads spent 5.0% of its time in tt_lock before,
    # 1.5% after.
    TT_POP_AHEAD = 16384


cdef struct TTPattern:
    # 32 bytes.  A suit has at most 15 cards (a trump suit with both
    # jokers), so the two top bits of each suit's 32-bit half are never
    # an owner field; those of the masks hold the bounds, which the
    # comparison of owners then ignores (see tt_put).  (With the bounds
    # in bytes of their own and padding, a pattern took 40 bytes and a page
    # 128: the two-suited freak deal's table filled its 48 MB of pages
    # once, and the whole process took 99 MB; now 36 MB of pages, no fill,
    # 91 MB.  Four bytes a suit for the masks' starts instead of the masks
    # (24-byte patterns) made every comparison a few shifts dearer: the
    # freak deals took 20-30% longer.)
    uint64_t own[2]    # owners of the cards of suits 0,1 (own[0]) and 2,3 (own[1]); 32 bits a suit, 2 bits a card, lowest card first
    uint64_t msk[2]    # the owner bits that matter: the top cards on which the bounds depend; in bits 30-31 and 62-63, the lower bound (msk[0]) and the upper (msk[1])


cdef struct TTPage:
    TTPattern pat[PAGE]  # patterns of one shape, oldest first
    int32_t next       # next page of the same shape, -1 at the end
    int32_t count      # patterns used in this page


cdef struct TTSlot:
    uint64_t key       # suit lengths of every hand: 4 bits at 16*hand + 4*suit (suits 0..3)
    uint16_t lead_jokers  # the rest of the shape: leader (bits 0-1), no-trump joker count of each hand (2 bits each from bit 2), bit 15 always set
    uint16_t gen       # generation of the table that wrote the slot: an older one means empty
    uint32_t sub       # which list of the shape: TT_DIR for its directory, else see tt_sub
    uint16_t classes   # directory slot: the classes present (bit per class); a class slot: the second classes of its split lists
    uint8_t count      # a class slot: patterns in its own list (counted up to TT_SPLIT)
    uint8_t bounds     # a list: the highest lower bound of its patterns (bits 4-7) and the lowest upper bound (bits 0-3), or more widely (see tt_widen)
    int32_t first      # first page of this list's patterns (-1 in a directory slot)
    int32_t last       # page new patterns go to
    uint32_t lists     # a bit for each list below it that may be there (see tt_mark): directory slot, the class lists; class slot, its split lists


cdef struct TTShape:
    # A position's shape as the table files it: the key and the rest of
    # the shape (TTSlot.key, TTSlot.lead_jokers) and their hash, made once
    # (tt_shape) for the several slots a probe or a store looks for; and
    # the position's top-card owners (tt_tops), which name its lists,
    # likewise found once by the caller for the probe and the store
    # (before, each of tt_likely_list, tt_probe and tt_store_in found
    # them: 2% more instructions on seed 1211's deal 41, with a bit-by-bit
    # tt_sub where tt_class_fields now is).
    uint64_t key
    uint64_t hash
    uint16_t lead_jokers
    uint32_t tops      # a position's top-card owners (tt_tops), set by the caller before a probe or store


cdef struct TTable:
    # Two threads may search one table (Core.share_from): what every probe
    # reads and what every store writes are kept on cache lines of their
    # own (the padding), so that a store does not take from the other
    # core the line its probes read, nor the neighbouring fields of the
    # Ctx holding the table.
    uint8_t pad0[64]
    TTSlot* slots      # open addressing over shapes; nslots is a power of two
    TTPage* pages      # the pattern pool
    uint64_t nslots    # slots in use: the first nslots of the array (see tt_grow)
    uint64_t maxslots  # slots allocated
    int32_t npages     # pages allocated
    uint16_t gen       # current generation (never 0): emptying the table moves it on
    int32_t guests     # other search cores searching in this table now (Core.share_from)
    int32_t shareable  # stores take the lock: other cores may join (Core.shareable)
    int32_t evict      # set when the table fills up while shared: room is made once every core in it waits (see tt_store_in)
    int32_t want_share # a core asks the owner to make the table shareable mid-search (Core.ask_shareable)
    uint8_t pad1[64]
    uint64_t used      # slots in use (kept below half of nslots)
    int32_t pages_used # pages handed out
    uint64_t fills     # times the table filled up (a diagnostic)
    uint64_t stores    # bounds stored since the table was made
    uint64_t root_stores  # stores when the current root was set (tt_root)
    uint64_t roots     # roots set since the table was made (tt_root)
    uint64_t fill_roots  # roots at the last fill or emptying
    int32_t lock       # held by a store while the table has guests
    int32_t owner_in   # its owner core is searching it now (see the engine's search_enter)
    int32_t parked     # cores waiting in it, shared and full, for room (the engine's park)
    int32_t populated  # pages known to be in memory (see tt_store)
    uint8_t pad2[64]


cdef inline int tt_init(TTable* t, size_t nbytes) noexcept nogil:
    """Allocate about nbytes: for shape slots the most of them, a power
    of two, that fit in 3/8 of it, the rest for pattern pages (the default
    44 MB: 16 MB of slots and 28 MB of pages; 64 MB: 16 and 48; 512 MB:
    128 and 384).  The table starts on the first TT_SLOTS_FIRST slots."""
    cdef uint64_t ns = 1024
    if nbytes < ns * sizeof(TTSlot) + 64 * sizeof(TTPage):
        nbytes = ns * sizeof(TTSlot) + 64 * sizeof(TTPage)   # the smallest table
    while ns * 2 * sizeof(TTSlot) <= nbytes * 3 // 8:
        ns *= 2
    cdef uint64_t np = (nbytes - ns * sizeof(TTSlot)) // sizeof(TTPage)
    if np < 64:
        np = 64
    if np > 0x7FFFFFFF:
        np = 0x7FFFFFFF
    t.slots = <TTSlot*> tt_alloc(ns * sizeof(TTSlot), 1)      # empty: generation 0
    t.pages = <TTPage*> tt_alloc(np * sizeof(TTPage), 0)      # set up as handed out
    if t.slots == NULL or t.pages == NULL:
        free(t.slots)
        free(t.pages)
        t.slots = NULL
        t.pages = NULL
        return -1
    t.maxslots = ns
    t.nslots = ns if ns < TT_SLOTS_FIRST else TT_SLOTS_FIRST
    t.npages = <int32_t> np
    t.used = 0
    t.pages_used = 0
    t.gen = 1
    t.guests = 0
    t.evict = 0
    t.shareable = 0
    t.want_share = 0
    t.lock = 0
    t.owner_in = 0
    t.parked = 0
    t.populated = 0
    return 0


cdef inline void tt_free(TTable* t) noexcept nogil:
    free(t.slots)
    free(t.pages)
    t.slots = NULL
    t.pages = NULL


cdef inline void tt_empty(TTable* t) noexcept nogil:
    """Forget everything: move to a new generation (slots of older ones
    count as empty), wiping the slots only when the counter wraps."""
    t.evict = 0
    t.fill_roots = t.roots
    t.gen += 1
    if t.gen == 0:
        memset(t.slots, 0, t.nslots * sizeof(TTSlot))
        t.gen = 1
    t.used = 0
    t.pages_used = 0


cdef inline uint64_t tt_hash(uint64_t key, uint16_t lead_jokers) noexcept nogil:
    """Hash of a shape."""
    cdef uint64_t h = key ^ (<uint64_t> lead_jokers * 0xC2B2AE3D27D4EB4FULL)
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h


cdef inline void tt_shape(TTShape* sp, uint64_t key, uint16_t lead_jokers) noexcept nogil:
    sp.key = key
    sp.lead_jokers = lead_jokers
    sp.hash = tt_hash(key, lead_jokers)


cdef inline uint64_t tt_start(TTable* t, TTShape* sp, uint32_t sub) noexcept nogil:
    """Where the search for the slot of a shape's directory or list starts.
    The directory and the class lists of a shape start in one block of
    TT_BLOCK slots (4 KB: one small memory page) chosen by the shape, at a
    place chosen by the list.  A probe reads the directory and then one or
    two lists: in one block they cost one address translation instead of
    one each, and a table of hundreds of megabytes read at random misses
    the translation buffer on almost every read (the machine's own pages
    may be small where ours are huge).  Split lists (tt_leaf) go anywhere:
    the symmetric freak deals give a few shapes hundreds of them, which
    would crowd one block.  (Measured, nodes unchanged, alternating runs:
    the no-trump exchange of the seeded deal 21, 10.2 s against 11.0 s;
    the random set's tables 6.3-6.5 s against 6.7 s; with the split lists
    in the block too, the two freak deals were 5-18% slower.)"""
    cdef uint64_t h = sp.hash
    cdef uint64_t x
    cdef uint32_t g
    if (sub & TT_LEAF) and sub != TT_DIR:
        x = h ^ (<uint64_t> sub * 0xBF58476D1CE4E5B9ULL)
        x ^= x >> 31
        x *= 0x94D049BB133111EBULL
        x ^= x >> 29
        return x & (t.nslots - 1)
    g = (<uint32_t> sub * 0x9E3779B1u) ^ <uint32_t> (h >> 32)
    g *= 0x85EBCA6Bu
    return (h & (t.nslots - 1) & ~(<uint64_t> (TT_BLOCK - 1))) | (g >> (32 - TT_BLOCK_BITS))


cdef inline TTSlot* tt_find(TTable* t, TTShape* sp, uint32_t sub, int* found) noexcept nogil:
    """The slot of a shape's directory or list (found: 1), or the empty
    slot where it would go (found: 0); open addressing, linear probing.
    The slot's generation is read once and decides: in a shared table an
    empty slot may be taken for another shape at any moment, and a second
    look at its generation could take that shape's list for this one's."""
    cdef uint64_t m = t.nslots - 1
    cdef uint64_t i = tt_start(t, sp, sub)
    cdef TTSlot* e
    while True:
        e = t.slots + i
        if tt_ld16(&e.gen) != t.gen:
            found[0] = 0
            return e
        if e.lead_jokers == sp.lead_jokers and e.sub == sub and e.key == sp.key:
            found[0] = 1
            return e
        i = (i + 1) & m


cdef inline void tt_prefetch(TTable* t, TTShape* sp) noexcept nogil:
    """Ask for the slot of a shape's directory ahead of a probe, so that
    its load overlaps the work before the probe (the owner strings)."""
    __builtin_prefetch(t.slots + tt_start(t, sp, TT_DIR))


cdef inline int tt_class(uint64_t* msk, int* sh) noexcept nogil:
    """The suits whose top card the mask covers, a bit per suit."""
    cdef int s, cls = 0
    for s in range(4):
        if sh[s] >= 0 and (msk[s >> 1] >> sh[s]) & 3:
            cls |= 1 << s
    return cls


cdef inline uint32_t tt_tops(uint64_t* own, int* sh) noexcept nogil:
    """The owners of the suits' top cards, two bits a suit (bits 2s, 2s+1;
    0 for a suit without cards): what tt_sub takes from a position."""
    cdef int s
    cdef uint32_t tops = 0
    for s in range(4):
        if sh[s] >= 0:
            tops |= <uint32_t> (((own[s >> 1] >> sh[s]) & 3) << (2 * s))
    return tops


cdef extern from *:
    """
    /* The owner fields (two bits a suit) of the suits of a class. */
    static const uint8_t tt_class_fields[16] = {
        0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
        0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF};
    """
    const uint8_t tt_class_fields[16]


cdef inline uint32_t tt_sub(uint32_t tops, int cls) noexcept nogil:
    """Key of the class slot of class cls that a position (or pattern) with
    these top-card owners (tt_tops) belongs to: the class (bits 16-19) and
    the owners of those top cards (bits 0-7)."""
    return (<uint32_t> cls << 16) | (tops & tt_class_fields[cls])


cdef inline TTSlot* tt_likely_list(TTable* t, TTShape* sp, int* sh) noexcept nogil:
    """Where the slot of the list a probe most likely reads would start
    its search: the list keyed by the owners of the top card of every
    suit.  A caller asks for it alongside the directory's slot
    (tt_prefetch), so that it is not a second miss that waits for the
    directory's.  (Counted on a bid whist exchange, 12-card no-trump keeps:
    88% of the directories found hold one class, and 87.5% of the table's
    answers came from this list; in alternating runs there, 9.7 s with
    this prefetch against 9.9 s without.)  The caller prefetches: GCC
    takes a function whose only effect is a prefetch for one without
    effects and drops its calls."""
    cdef int s, full = 0
    for s in range(4):
        if sh[s] >= 0:
            full |= 1 << s
    return t.slots + tt_start(t, sp, tt_sub(sp.tops, full))


cdef inline uint32_t tt_leaf(uint64_t* own, uint32_t sub, int cls2, int* sh) noexcept nogil:
    """Key of the pattern list under a class slot `sub`: the second class
    cls2 (the suits whose second card from the top the patterns cover, bits
    20-23) and the owners of those second cards (bits 8-15).  sh: the
    offsets of the top cards; the second card's field is just below."""
    cdef int s
    sub |= TT_LEAF | (<uint32_t> cls2 << 20)
    for s in range(4):
        if (cls2 >> s) & 1:
            sub |= <uint32_t> (((own[s >> 1] >> (sh[s] - 2)) & 3) << (8 + 2 * s))
    return sub


cdef inline int tt_class2(uint64_t* msk, int* sh) noexcept nogil:
    """The suits whose second card from the top the mask covers."""
    cdef int s, cls = 0
    for s in range(4):
        if sh[s] >= 0 and ((sh[s] & 31) >= 2) and (msk[s >> 1] >> (sh[s] - 2)) & 3:
            cls |= 1 << s
    return cls


cdef enum:
    TT_BOUND_BITS = 30    # (and 62) see TTPattern

cdef extern from *:
    """
    /* The owner fields of a pattern's masks, without its bounds. */
    #define TT_CARDS 0x3FFFFFFF3FFFFFFFULL
    #if defined(__BMI2__)
    #include <immintrin.h>
    #endif
    /* The bound held in a mask word (see TTPattern): its bits 30-31 and
       62-63 gathered, in that order, as bits 0-3.  One bit extract: the
       table's scans read the bounds of every pattern that matches, and
       with two shifts, two masks and an or seed 1211's deal 41 took 0.7%
       more instructions (11.105G against 11.028G without a profile).
       (Its own bit extract, not _bits.pxd's pext64: this file cannot
       cimport _bits.pxd, see above.) */
    static inline int tt_bound(uint64_t m) {
    #if defined(__BMI2__)
        return (int) _pext_u64(m, ~TT_CARDS);
    #else
        return (int) (((m >> 30) & 3) | ((m >> 60) & 12));
    #endif
    }
    """
    uint64_t TT_CARDS
    int tt_bound(uint64_t m) nogil


cdef inline uint64_t tt_bound_bits(int v) noexcept nogil:
    """A bound (0-15) in the spare bits of a mask word (see TTPattern;
    tt_bound's inverse)."""
    return ((<uint64_t> (v & 3)) << TT_BOUND_BITS) | ((<uint64_t> ((v >> 2) & 3)) << (32 + TT_BOUND_BITS))


cdef inline int tt_scan(TTable* t, TTSlot* e, uint64_t* own, int need, uint64_t* msk_out) noexcept nogil:
    """Look through the patterns of list e for one that matches the
    position and answers "N-S take `need` tricks?": 1 or 0 (its masks in
    msk_out), -1 if none.  (A mask word's bound bits do not disturb the
    comparison: the owner strings are zero there.)"""
    cdef int32_t pg = e.first
    cdef int i, n, lower
    cdef uint64_t m0, m1
    cdef TTPattern* p
    while pg >= 0:
        n = tt_ld32(&t.pages[pg].count)
        for i in range(n):
            p = &t.pages[pg].pat[i]
            m0 = p.msk[0]
            m1 = p.msk[1]
            if ((p.own[0] ^ own[0]) & m0) or ((p.own[1] ^ own[1]) & m1):
                continue
            lower = tt_bound(m0)
            if lower >= need or tt_bound(m1) < need:
                msk_out[0] = m0 & TT_CARDS
                msk_out[1] = m1 & TT_CARDS
                return 1 if lower >= need else 0
        pg = tt_ld32(&t.pages[pg].next)
    return -1


cdef inline uint32_t tt_mark(uint32_t sub) noexcept nogil:
    """The bit of a list in its parent slot's TTSlot.lists (a one-bit hash
    of the list's key).

    A probe looks for the class list that the position's top-card owners
    name, for each class of the directory, and for split lists likewise:
    a third of those lists are not there (40 tables of bridge-solver's
    1k_deals 801-840: 23.6M class slots looked for, 7.9M of them absent),
    and each absent one still costs a read of the slots where it would
    be.  A clear bit says it is absent without that read.  Together with
    the lists' bounds (tt_widen), same nodes: those 40 tables 6.00 s
    against 6.12 s (medians of three, alternating), deals 841-880 5.93 s
    against 5.98 s, the exchange of the seeded deal 21 9.4 s against
    9.8 s, the two freak deals 2-3% less."""
    return 1u << ((sub * 0x9E3779B1u) >> 27)


cdef inline TTSlot* tt_list(TTable* t, TTShape* sp, TTSlot* parent, uint32_t sub) noexcept nogil:
    """The slot of a shape's list `sub`, or NULL if it is not there (its
    bit clear in its parent slot, or no such slot)."""
    cdef int found
    cdef TTSlot* e
    if not (parent.lists & tt_mark(sub)):
        return NULL
    e = tt_find(t, sp, sub, &found)
    return e if found else NULL


cdef inline void tt_note_list(TTSlot* parent, uint32_t sub) noexcept nogil:
    """Set the bit of list `sub` in its parent slot (written only when it
    changes, as TTSlot.classes)."""
    if not (parent.lists & tt_mark(sub)):
        parent.lists |= tt_mark(sub)


cdef inline int tt_probe(TTable* t, TTShape* sp, uint64_t* own, int* sh, int need,
                         uint64_t* msk_out) noexcept nogil:
    """Can N-S take `need` tricks from here?  1 yes, 0 no, -1 unknown.
    own: the position's owner strings (as TTPattern.own); sh: the bit
    offset in them of the field of each suit's top card, -1 for a suit
    without cards (the owner string of suit s is the half s & 1 of word
    s >> 1, lowest card first, two bits a card).

    On an answer, msk_out receives the deciding pattern's masks."""
    cdef int found
    cdef TTSlot* d = tt_find(t, sp, TT_DIR, &found)
    cdef TTSlot* e
    cdef TTSlot* leaf
    cdef int cls, r, cls2
    cdef uint32_t classes, seconds, sub, tops
    if not found:
        return -1
    tops = sp.tops
    classes = d.classes
    while classes:
        cls = __builtin_ctz(classes)
        classes &= classes - 1
        sub = tt_sub(tops, cls)
        e = tt_list(t, sp, d, sub)
        if e == NULL:
            continue
        if tt_answers(e, need):
            r = tt_scan(t, e, own, need, msk_out)
            if r >= 0:
                return r
        seconds = e.classes
        while seconds:
            cls2 = __builtin_ctz(seconds)
            seconds &= seconds - 1
            leaf = tt_list(t, sp, e, tt_leaf(own, sub, cls2, sh))
            if leaf == NULL or not tt_answers(leaf, need):
                continue
            r = tt_scan(t, leaf, own, need, msk_out)
            if r >= 0:
                return r
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


cdef inline void tt_claim(TTable* t, TTSlot* e, TTShape* sp, uint32_t sub, int32_t pg) noexcept nogil:
    """Take the empty slot e for a shape's list (or directory); its
    generation last, for the probes of other threads (Core.share_from)."""
    e.key = sp.key
    e.lead_jokers = sp.lead_jokers
    e.sub = sub
    e.classes = 0
    e.count = 0
    e.bounds = 0x0F
    e.first = pg
    e.last = pg
    e.lists = 0
    tt_st16(&e.gen, t.gen)
    t.used += 1


cdef inline void tt_put(TTPattern* p, uint64_t o0, uint64_t o1, uint64_t* msk,
                        int lower, int upper) noexcept nogil:
    """Write a pattern: owners (already masked), masks and bounds (kept
    within 0-15, which only widens them: at most 13 tricks are left)."""
    if lower < 0:
        lower = 0
    if upper > 15:
        upper = 15
    p.own[0] = o0
    p.own[1] = o1
    p.msk[0] = msk[0] | tt_bound_bits(lower)
    p.msk[1] = msk[1] | tt_bound_bits(upper)


cdef inline void tt_widen(TTSlot* e, TTPattern* p) noexcept nogil:
    """Take the bounds of pattern p, as written in list e, into the list's
    summary e.bounds: a probe whose question none of the list's patterns
    could answer, whatever the position, skips the list.  (Of the lists
    scanned without an answer on the 40 tables of tt_mark, 35% held no
    pattern whose bounds could have answered.)  A summary only ever
    widens, so in a shared table a probe that reads it stale skips at
    worst a list that could have answered."""
    cdef int hi = e.bounds >> 4
    cdef int lo = e.bounds & 15
    if tt_bound(p.msk[0]) > hi:
        hi = tt_bound(p.msk[0])
    if tt_bound(p.msk[1]) < lo:
        lo = tt_bound(p.msk[1])
    if ((hi << 4) | lo) != e.bounds:
        e.bounds = <uint8_t> ((hi << 4) | lo)


cdef inline int tt_answers(TTSlot* e, int need) noexcept nogil:
    """Could a pattern of list e answer "N-S take `need` tricks?" (see tt_widen)."""
    return need <= (e.bounds >> 4) or need > (e.bounds & 15)


cdef inline int tt_tighten(TTable* t, TTSlot* e, uint64_t o0, uint64_t o1, uint64_t* msk,
                           int lower, int upper, int shared) noexcept nogil:
    """If list e holds the pattern already, tighten its bounds and return 1.
    Else, if it holds a pattern the new one makes useless (one that fixes
    the same cards and more, with bounds no tighter), put the new one in
    its place and return 1 (so a list does not keep the narrower patterns
    of what a wider one now says); else 0.  In a shared table
    no pattern is rewritten, since a probe of another thread could read
    it half written (a tightened bound alone is safe: either value of
    each bound holds)."""
    cdef int32_t pg = e.first
    cdef int i
    cdef TTPattern* p
    cdef TTPattern* spare = NULL
    while pg >= 0:
        for i in range(t.pages[pg].count):
            p = &t.pages[pg].pat[i]
            # Both cases below need a pattern that agrees with the new one
            # on the new one's cards: most do not, and that test first
            # (three instructions a half) spares them the rest.  (With it
            # last, each pattern's masks and bounds were tested first: the
            # stores of seed 1211's deal 41 took 501M instructions in
            # tt_store_in, now 377M; same nodes.)
            if ((p.own[0] ^ o0) & msk[0]) != 0 or ((p.own[1] ^ o1) & msk[1]) != 0:
                continue
            # (the same cards, then the same owners: both sides' owners are
            # stored masked, tt_put, and agree on those cards)
            if (p.msk[0] & TT_CARDS) == msk[0] and (p.msk[1] & TT_CARDS) == msk[1]:
                # (one word written per bound: a probe of another thread
                # reads either value, and each holds)
                if lower > tt_bound(p.msk[0]):
                    p.msk[0] = (p.msk[0] & TT_CARDS) | tt_bound_bits(lower)
                if upper < tt_bound(p.msk[1]):
                    p.msk[1] = (p.msk[1] & TT_CARDS) | tt_bound_bits(upper)
                tt_widen(e, p)
                return 1
            if (spare == NULL and not shared
                    and (msk[0] & ~p.msk[0]) == 0 and (msk[1] & ~p.msk[1]) == 0
                    and tt_bound(p.msk[0]) <= lower and tt_bound(p.msk[1]) >= upper):
                spare = p
        pg = t.pages[pg].next
    if spare != NULL:
        tt_put(spare, o0, o1, msk, lower, upper)
        tt_widen(e, spare)
        return 1
    return 0


cdef inline int tt_left(uint64_t key, uint16_t lead_jokers) noexcept nogil:
    """Tricks left at a shape (a trick boundary: every hand holds that many
    cards), counted in the leader's hand: its suit lengths and jokers."""
    cdef int h = lead_jokers & 3
    cdef uint64_t x = key >> (16 * h)
    return <int> ((x & 15) + ((x >> 4) & 15) + ((x >> 8) & 15) + ((x >> 12) & 15)
                  + ((lead_jokers >> (2 + 2 * h)) & 3))


cdef inline void tt_root(TTable* t) noexcept nogil:
    """A new root position is about to be searched (see tt_fill)."""
    t.root_stores = t.stores
    t.roots += 1


cdef inline void tt_leave(TTable* t) noexcept nogil:
    """Count a core leaving the table (one that tt_join let in)."""
    tt_lock(&t.lock)
    t.guests -= 1
    tt_unlock(&t.lock)


cdef inline int tt_join(TTable* t) noexcept nogil:
    """Count a core joining the table, unless the table has filled up
    and is making room (see tt_store_in): 1 if joined."""
    cdef int ok
    tt_lock(&t.lock)
    ok = t.evict == 0
    if ok:
        t.guests += 1
    tt_unlock(&t.lock)
    return ok


cdef inline TTSlot* tt_refile(TTable* t, TTSlot* s) noexcept nogil:
    """Put a copy of slot s (taken out of the table) where its shape and
    list now go; the caller sets its generation if that changed."""
    cdef TTShape shape
    cdef int found
    cdef TTSlot* e
    tt_shape(&shape, s.key, s.lead_jokers)
    e = tt_find(t, &shape, s.sub, &found)
    e[0] = s[0]
    return e


cdef inline void tt_grow(TTable* t, uint64_t n) noexcept nogil:
    """Use the first n slots of the array (a power of two; at most
    maxslots) instead of nslots: the slots in use are rehashed into them
    (if the memory for that is not there, the table stays as it is).

    Never while other cores search the table: a shareable table is grown
    to all its slots when it is made shareable (Core.shareable).  The
    slots are placed at random (tt_start), so the first searches of a
    table of all its slots touch every part of the array, and the system
    brings all of it into memory: 128 MB for a 512 MB table, which on
    this project's 2-core VM took about 0.45 s of CPU in every process
    that made one, however small its searches."""
    cdef uint64_t i, k = 0, old = t.nslots
    cdef TTSlot* keep
    if n > t.maxslots:
        n = t.maxslots
    if n <= old:
        return
    keep = <TTSlot*> malloc((<size_t> t.used + 1) * sizeof(TTSlot))
    if keep == NULL:
        return
    for i in range(old):
        if t.slots[i].gen == t.gen and k < t.used:
            keep[k] = t.slots[i]
            k += 1
    # the slots past the old ones were never used: generation 0, empty
    memset(t.slots, 0, old * sizeof(TTSlot))
    t.nslots = n
    for i in range(k):
        tt_refile(t, &keep[i])
    free(keep)


cdef inline void tt_fill(TTable* t) noexcept nogil:
    """The table is full.  If TT_MANY_ROOTS roots or more were set since
    the last fill and the search of the current root has stored fewer
    bounds than a quarter of the pages (many small searches, as in a
    simulation or an exchange: what the table holds is mostly other
    positions'), forget everything.  (Without the count of roots, the
    second leader of a big table row often found the table full early and
    forgot its first leader's bounds too: the four-void deal's no-trump
    row 117.7M nodes in 64 MB against 102.7M with it, the two-suited
    deal's 146.3M against 136.0M; the exchanges and simulations, with
    thousands of roots between fills, unchanged.)  Else (one search
    bigger than the table) keep the lists of the shapes with the most
    tricks left, as many as fit in half the pages and a quarter of the
    slots, and forget the rest.  The kept pages are
    moved to the front of the pool in their order, the kept slots rehashed
    into a new generation.  (Forgetting everything every time, the
    symmetric four-void deal's table searched 303.5M nodes in a 64 MB
    table; keeping the deepest half, 152.6M; in a table that never fills,
    about 120M.)"""
    cdef uint64_t i, nkeep = 0, k
    cdef int32_t pg, j, np = t.pages_used
    cdef int l, lmin
    cdef uint64_t pages_at[16]
    cdef uint64_t slots_at[16]
    cdef uint64_t pages_kept = 0, slots_kept = 0
    cdef int32_t* fwd
    cdef TTSlot* keep
    cdef TTSlot* e
    cdef int many
    t.fills += 1
    many = t.roots - t.fill_roots >= TT_MANY_ROOTS
    t.fill_roots = t.roots
    if many and t.stores - t.root_stores < <uint64_t> (t.npages // 4):
        tt_empty(t)
        return
    memset(pages_at, 0, sizeof(pages_at))
    memset(slots_at, 0, sizeof(slots_at))
    for i in range(t.nslots):
        e = t.slots + i
        if e.gen != t.gen:
            continue
        l = tt_left(e.key, e.lead_jokers) & 15
        slots_at[l] += 1
        pg = e.first
        while pg >= 0:
            pages_at[l] += 1
            pg = t.pages[pg].next
    lmin = 16
    while lmin > 1:
        if (pages_kept + pages_at[lmin - 1] > <uint64_t> (t.npages // 2)
                or slots_kept + slots_at[lmin - 1] > t.nslots // 4):
            break
        lmin -= 1
        pages_kept += pages_at[lmin]
        slots_kept += slots_at[lmin]
    if slots_kept == 0:
        tt_empty(t)
        return
    fwd = <int32_t*> malloc((<size_t> np + 1) * sizeof(int32_t))
    keep = <TTSlot*> malloc((<size_t> slots_kept + 1) * sizeof(TTSlot))
    if fwd == NULL or keep == NULL:
        free(fwd)
        free(keep)
        tt_empty(t)
        return
    # mark the kept pages, then move them to the front in order (a page
    # only ever moves down, onto a page already moved or forgotten)
    for j in range(np):
        fwd[j] = -1
    for i in range(t.nslots):
        e = t.slots + i
        if e.gen != t.gen or tt_left(e.key, e.lead_jokers) < lmin:
            continue
        keep[nkeep] = e[0]
        nkeep += 1
        pg = e.first
        while pg >= 0:
            fwd[pg] = 0
            pg = t.pages[pg].next
    k = 0
    for j in range(np):
        if fwd[j] < 0:
            continue
        fwd[j] = <int32_t> k
        if <int32_t> k != j:
            t.pages[k] = t.pages[j]
        k += 1
    for j in range(<int32_t> k):
        if t.pages[j].next >= 0:
            t.pages[j].next = fwd[t.pages[j].next]
    tt_empty(t)
    t.pages_used = <int32_t> k
    for i in range(nkeep):
        e = tt_refile(t, &keep[i])
        e.gen = t.gen
        if e.first >= 0:
            e.first = fwd[e.first]
            e.last = fwd[e.last]
        t.used += 1
    free(fwd)
    free(keep)


cdef inline void tt_store_in(TTable* t, TTShape* sp, uint64_t* own, int* sh, uint64_t* msk,
                             int lower, int upper, int shared) noexcept nogil:
    """tt_store's work.  Shared: what a probe reads is written before what
    makes it visible; and a full table takes no more bounds (emptying it
    or keeping a part would pull the patterns from under the other
    threads' probes) but sets evict: at its next store each core
    searching it waits for the others (the engine's park; a guest with no
    job goes on in its own table instead, leave_if_evicted), and the last
    to wait fills it up as usual."""
    cdef uint64_t o0 = own[0] & msk[0]
    cdef uint64_t o1 = own[1] & msk[1]
    cdef int32_t pg, npg
    cdef int cls, cls2, found
    cdef uint32_t sub
    cdef TTPattern* p
    cdef TTSlot* d
    cdef TTSlot* e
    cdef TTSlot* leaf
    t.stores += 1
    cls = tt_class(msk, sh)
    sub = tt_sub(sp.tops, cls)
    if (t.used + 3) * (TT_GROW_AT if t.nslots * 4 < t.maxslots else TT_GROW_LATE) > t.nslots \
            and t.nslots < t.maxslots and not shared:
        tt_grow(t, t.nslots * 2)
    if (t.used + 3) * 2 > t.nslots or t.pages_used + 2 > t.npages:
        if shared:
            t.evict = 1
            return
        tt_fill(t)
    d = tt_find(t, sp, TT_DIR, &found)
    if not found:
        tt_claim(t, d, sp, TT_DIR, -1)
    if not (d.classes >> cls) & 1:
        # (written only when it changes: every probe of the shape reads
        # this slot, in a shared table from the other core's cache too)
        d.classes |= <uint16_t> (1 << cls)
    tt_note_list(d, sub)
    e = tt_find(t, sp, sub, &found)
    if not found:
        tt_claim(t, e, sp, sub, tt_new_page(t))
    elif tt_tighten(t, e, o0, o1, msk, lower, upper, shared):
        return
    cls2 = tt_class2(msk, sh) if e.classes or e.count >= TT_SPLIT else 0
    if cls2:
        # a long list: patterns that cover second cards go to the lists
        # split by the owners of those cards
        if not (e.classes >> cls2) & 1:
            e.classes |= <uint16_t> (1 << cls2)
        sub = tt_leaf(own, sub, cls2, sh)
        tt_note_list(e, sub)
        leaf = tt_find(t, sp, sub, &found)
        if not found:
            tt_claim(t, leaf, sp, sub, tt_new_page(t))
        elif tt_tighten(t, leaf, o0, o1, msk, lower, upper, shared):
            return
        e = leaf
    elif e.count < TT_SPLIT:
        e.count += 1
    pg = e.last
    if t.pages[pg].count >= PAGE:
        npg = tt_new_page(t)
        if npg < 0:
            if shared:
                t.evict = 1
                return
            tt_fill(t)
            tt_store_in(t, sp, own, sh, msk, lower, upper, 0)
            return
        tt_st32(&t.pages[pg].next, npg)
        e.last = npg
        pg = npg
    p = &t.pages[pg].pat[t.pages[pg].count]
    tt_put(p, o0, o1, msk, lower, upper)
    tt_widen(e, p)
    tt_st32(&t.pages[pg].count, t.pages[pg].count + 1)


cdef inline void tt_store(TTable* t, TTShape* sp, uint64_t* own, int* sh, uint64_t* msk,
                          int lower, int upper) noexcept nogil:
    """Record lower <= N-S tricks from here <= upper for the pattern (sh:
    as for tt_probe).  In a table other cores may join, under its lock:
    a core joins (Core.share_from) between two stores, and from then on
    the stores are the shared kind.  While shared, a store that finds
    fewer than TT_POP_AHEAD pages in memory past the ones handed out
    asks for the next TT_POP_AHEAD after the lock is released (the
    system fills them while the other core goes on; their contents are
    not touched, so a core that reaches them first is not disturbed)."""
    cdef int32_t pre = -1
    cdef int32_t end = 0
    if t.shareable:
        tt_lock(&t.lock)
        tt_store_in(t, sp, own, sh, msk, lower, upper, t.guests != 0)
        if t.guests and t.pages_used + TT_POP_AHEAD > t.populated and t.populated < t.npages:
            # the next pages asked in now, outside the lock (below)
            pre = t.populated if t.populated > t.pages_used else t.pages_used
            end = pre + TT_POP_AHEAD
            if end > t.npages:
                end = t.npages
            t.populated = end
        tt_unlock(&t.lock)
        if pre >= 0:
            tt_populate(&t.pages[pre], (<size_t> (end - pre)) * sizeof(TTPage))
    else:
        tt_store_in(t, sp, own, sh, msk, lower, upper, 0)
