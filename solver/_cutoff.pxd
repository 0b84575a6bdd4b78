# The cut-off cache: for each kind of position (a hashed key of what the
# choice of card mostly depends on), the last card that caused a cut-off
# there, tried first the next time.  A small array of 1 << CUTBITS entries
# of 4 bytes, two to a slot: the key's high bits pick the slot, its low 16
# bits tell the two entries' positions apart, and a store puts its card
# first in the slot, moving the other kind of position's card (if any)
# second and forgetting the one that was second.  A wrong guess only costs
# move order.
#
# Measured against the cache before, a direct-mapped array of 1 << 16
# entries of 8 bytes (the same 512 KB; nodes of full tables):
# - seed 1211's deal 41 (of `whist-solve deal --count 60 --seed 1211`)
#   15.57M -> 14.85M, 1.544 s -> 1.442 s (six alternating runs each);
# - the seven seeded sets 1211-1251 (420 deals) 468.3M -> 467.1M; seeds
#   1261, 1271, 1281 (never used in tuning): +0.15%, -0.21%, -0.06%;
# - bridge-solver's 1k_deals 601-640 and 801-840 -0.06% and -0.12%; its
#   19 hard deals 186.6M -> 187.0M; the two freak deals 83.47M -> 82.53M.
# Twice the entries direct-mapped (4 bytes each, the same memory): deal 41
# 15.06M, but the hard deals 188.8M; four to a slot: the same nodes as two
# (deal 41 14.849M); 1 << 18 entries of 8 bytes direct-mapped (2 MB): deal
# 41 15.08M and no faster (1.499 s against 1.499 s, seven alternating runs).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from _types cimport Ctx, CutEntry, Move, TrickState, JOKERS, CUTBITS
from _bits cimport __builtin_prefetch, popc, highbit, present
from _moves cimport move_to_front

cdef inline uint64_t mix_key(uint64_t a, uint64_t b) noexcept nogil:
    """The key of cut_key's two words."""
    a ^= b * 0x9E3779B97F4A7C15ULL
    a *= 0xD6E8FEB86659FD93ULL
    return a ^ (a >> 29)


cdef inline uint64_t follow_key(Ctx* c, int h) noexcept nogil:
    """cut_key for seat h following suit (the seat on turn): every card of
    the led suit still in play, the card winning so far and the leader."""
    cdef TrickState* st = &c.st
    cdef uint64_t a = (present(c, st.led) | st.ledcards) | (<uint64_t> st.led << 16) \
        | (<uint64_t> st.tsuit[st.winpos] << 20) | (<uint64_t> st.tbit[st.winpos] << 24) \
        | (<uint64_t> st.leader << 30) | (<uint64_t> h << 32)
    return mix_key(a, 2ULL << 30)


cdef inline uint64_t cut_key(Ctx* c, int target) noexcept nogil:
    """Key of the cut-off cache: what the choice of a card mostly depends
    on, so that one remembered card serves many similar positions.
    Leading: the hand on lead, partner's suit-length parities and the
    tricks still needed.  Following suit: every card of the led suit still
    in play, the card winning so far and the leader.  Void: the hand, the
    winner so far and the tricks needed."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int p = (h + 2) & 3, s
    cdef uint64_t a, b, need = 0
    if c.trump >= 0:
        need = <uint64_t> (target - st.ns_won)
    if k == 0:
        a = (<uint64_t> c.hand[h][0]) | (<uint64_t> c.hand[h][1] << 16) \
            | (<uint64_t> c.hand[h][2] << 32) | (<uint64_t> c.hand[h][3] << 48)
        b = c.hand[h][JOKERS] | (need << 8) | (<uint64_t> h << 16)
        for s in range(4):
            b |= (<uint64_t> (popc(c.hand[p][s]) & 1)) << (20 + s)
        b |= 1ULL << 30
    elif st.led >= 0 and c.hand[h][st.led]:
        return follow_key(c, h)
    else:
        a = (<uint64_t> c.hand[h][0]) | (<uint64_t> c.hand[h][1] << 16) \
            | (<uint64_t> c.hand[h][2] << 32) | (<uint64_t> c.hand[h][3] << 48)
        b = c.hand[h][JOKERS] | (need << 8) | (<uint64_t> h << 16) | (3ULL << 30)
        if st.winpos >= 0:
            b |= (<uint64_t> ((st.leader + st.winpos) & 3)) << 20
            if c.trump >= 0:
                b |= (<uint64_t> (st.tsuit[st.winpos] * 16 + st.tbit[st.winpos] + 1)) << 32
    return mix_key(a, b)


cdef inline CutEntry* cut_slot(Ctx* c, uint64_t key) noexcept nogil:
    """The slot of `key`: its two entries (8 bytes, on one cache line)."""
    return c.cut + ((key >> (64 - CUTBITS)) & ~(<uint64_t> 1))


cdef inline CutEntry* cut_find(Ctx* c, uint64_t key) noexcept nogil:
    """The entry of `key` in this generation, or NULL."""
    cdef CutEntry* e = cut_slot(c, key)
    if e[0].check == <uint16_t> key and e[0].gen == c.cut_gen:
        return e
    if e[1].check == <uint16_t> key and e[1].gen == c.cut_gen:
        return e + 1
    return NULL


cdef inline void cut_prefetch(Ctx* c, uint64_t key) noexcept nogil:
    """Ask for the entry of `key` ahead of cut_first: the cache is bigger
    than the processor's nearest caches, and its entry was the most costly
    load of a node (perf: 28% of the samples of `search`) when read right
    after the moves were made."""
    __builtin_prefetch(cut_slot(c, key))


cdef inline void cut_first(Ctx* c, int ply, int n, uint64_t key) noexcept nogil:
    """Bring the move remembered for this kind of position to the front
    (the run of equivalent cards that holds the remembered card)."""
    cdef CutEntry* e = cut_find(c, key)
    cdef int i, best = -1
    cdef int s, b
    cdef Move* mv = c.moves[ply]
    if e == NULL:
        return
    s = e.card >> 4
    b = e.card & 15
    for i in range(n):
        if mv[i].suit == s and mv[i].bit <= b:
            if best < 0 or mv[i].bit > mv[best].bit:
                best = i
    if best <= 0:
        return
    move_to_front(mv, best)


cdef inline int cut_pick(Ctx* c, uint64_t key, int s, uint32_t runs, int b) noexcept nogil:
    """The card cut_first would bring to the front when the moves are the
    run starts `runs` of suit s (the remembered card's run), else b."""
    cdef CutEntry* e = cut_find(c, key)
    cdef uint32_t m
    if e == NULL or (e.card >> 4) != s:
        return b
    m = runs & ((2u << (e.card & 15)) - 1)
    return highbit(m) if m else b


cdef inline void cut_first_runs(Ctx* c, Move* mv, uint64_t key, int s, uint32_t runs) noexcept nogil:
    """cut_first when the moves mv are the run starts `runs` of suit s (a
    follower's): the card to bring to the front found from the runs
    (cut_pick), then looked for in the list."""
    cdef int b = cut_pick(c, key, s, runs, -1)
    cdef int i = 0
    if b < 0:
        return
    while mv[i].bit != b:
        i += 1
    if i > 0:
        move_to_front(mv, i)


cdef inline void cut_store(Ctx* c, uint64_t key, int s, int b) noexcept nogil:
    """Remember card (s, b) for `key`: first in its slot, the other
    entry's card (if of another key) kept second."""
    cdef CutEntry* e = cut_slot(c, key)
    if e[0].check != <uint16_t> key or e[0].gen != c.cut_gen:
        e[1] = e[0]
    e[0].check = <uint16_t> key
    e[0].gen = <uint8_t> c.cut_gen
    e[0].card = <uint8_t> (s * 16 + b)


cdef inline void cut_clear(Ctx* c) noexcept nogil:
    """Forget every remembered card: move to a new generation (entries of
    older ones count as empty), wiping the cache only when the counter
    wraps, as the table does (_tt.pxd's tt_empty).  A solver empties both
    before each board of `solve` and each row of a table: `solve --json` on
    10,000 one-card boards took 1.75-1.78 s wiping the cache's 512 KB each
    time, 1.57-1.62 s with generations (the same output, nodes included);
    the same nodes everywhere, and the tables' and exchanges' times within
    the 1% that two builds of the same code differ by."""
    c.cut_gen = (c.cut_gen + 1) & 0xFF      # (CutEntry.gen: one byte)
    if c.cut_gen == 0:
        memset(c.cut, 0, (1 << CUTBITS) * sizeof(CutEntry))
        c.cut_gen = 1

