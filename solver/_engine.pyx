# cython: language_level=3
"""The double-dummy search core.

A null-window alpha-beta search answers "can N-S take at least `target`
tricks?"; a driver moves the target until it meets the exact value.  The
search plays one card per node, keeps the position in bit masks, tries one
card of every run of equivalent cards, cuts with sure tricks at the start of
each trick, and stores bounds in the transposition table (_tt.pxd) keyed on
suit lengths with only the top cards that decided each bound.

Why a stored bound may serve another position: the search records, at every
node, the set W of cards whose rank decided the result (the winner of a trick
won by rank, the cards counted as sure tricks, the cards of a matched table
entry).  Below the lowest card of W in a suit, the smaller cards never beat
one another in the proof, so any position with the same suit lengths and the
same owners of the cards from the top of each suit down to that card has the
same answer.  Because the search plays only one card of a run of equivalent
cards, W is widened at each trick boundary down through the run of its
lowest card, so that the runs the proof relied on stay runs in every
position the entry serves.

This file is the search driver (search, exact, the lead probes, the table
keys and the widening of W) and the Python face, Core.  Each other idea of
the search has its own file, compiled into this one module through
cimport (their functions are `cdef inline`):

    _types.pxd   the shared structs: the trick state, a move, the search context
    _bits.pxd    bit helpers: popcount, lowest/highest card, bit extract/deposit
    _play.pxd    making and unmaking a card
    _bounds.pxd  sure-trick bounds for both sides, at the lead and second hand
    _moves.pxd   move generation and ordering
    _cutoff.pxd  the cut-off cache (the card that last cut off, tried first)
    _tt.pxd      the transposition table and its structs
    _split.pxd   several cores on one search: moves in progress put off, the first answer stops the rest
    _keeps.pxd   the keeps of a bid whist exchange, made and ordered (exchange_keeps)
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from cpython cimport array
from cpython.ref cimport PyObject
import array as _array
import threading as _threading

cdef extern from "Python.h":
    # (declared here without Cython's `except -1`: the search, which cannot
    # raise, keeps the exception and the caller raises it)
    int _check_signals "PyErr_CheckSignals"()
    void _fetch_error "PyErr_Fetch"(PyObject** t, PyObject** v, PyObject** tb)
    void _restore_error "PyErr_Restore"(PyObject* t, PyObject* v, PyObject* tb)

from _types cimport Ctx, CutEntry, Move, TrickState, JOKERS, MAXMOVES, MAXPLY, CUTBITS
from _bits cimport __builtin_prefetch, popc, lowbit, highbit, present, pext32, pdep32, spread_even
from _play cimport TrickView, play, unplay, take_card, return_card, trick_view, lead_card, follower_card
from _bounds cimport bounds_at_lead, second_hand_bound
from _moves cimport follow_first, gen_lead, gen_moves, gen_suit, gen_void, move_to_front, playable_suits, put_move, run_starts
from _cutoff cimport cut_clear, cut_key, follow_key, cut_first, cut_first_runs, cut_pick, cut_prefetch, cut_store
from _tt cimport TTable, TTPage, TTSlot, TTShape, tt_init, tt_free, tt_empty, tt_fill, tt_grow, tt_populate, tt_root, tt_shape, tt_prefetch, tt_tops, tt_likely_list, tt_probe, tt_store, tt_join, tt_leave, tt_lock, tt_unlock, tt_ld32, tt_st32, tt_pause, tt_yield
from _keeps cimport Keep, KeepMaker, keeps_make, KEEP_CARDS, KEEP_SUITS
from _split cimport Split, SPLIT_LEFT, split_init, split_next_job, split_busy, split_mark, split_unmark, split_stopped, split_done_upto

cdef enum:
    # Leads' tricks are probed before searching with at least this many
    # tricks left: 10 in a deal of 13 tricks, 11 in shorter ones.
    # Measured: on 13-card tables 10 searches 3% more nodes than 9 but runs
    # 4.6% fewer instructions (and 12, timed against 10 in alternating runs
    # on 100 deals: within 1%).  In shorter deals 9 searched fewer nodes
    # than 10 or 11 (the 40 seeded bid whist exchanges: 375M against 422M
    # at 11) for about the same instructions, but a probe's table lookups
    # are cache misses that instruction counts do not show: timed, the
    # 100 bid samples of examples/simulate.pbn took 136.0 s of CPU at 9
    # against 123.1 s at 13 and 119.6 s at 11 (118.5 s at 13 beside it),
    # the 40 exchanges a mean 1.27 s against 1.35 s at 9 (two threads: 0.77
    # against 0.83 s), and the tables of 100 bridge deals cut to 12, 11
    # and 10 cards a hand the same at 9 and 11, 2-4% slower at 13.
    PROBE_LEFT_FULL = 10
    PROBE_LEFT = 11
    # With at least this many tricks left the table is asked before the
    # sure-trick bounds; nearer the end the bounds answer most lead nodes
    # and cost less than a table probe.  (Measured with the bounds of
    # guarded_trump and the cashing-then-trumps count: 6 against 4 on the
    # random set 54.6M against 55.6M nodes over three passes and 3% less
    # time in three alternating runs; 8 and 13 within the noise of 6 there
    # but more nodes on the two-suited freak deal's spade row (52.5M at 13,
    # 48.0M at 6, 55.0M at 4) and the four-void deal's no-trump row
    # (148.7M, 144.3M, 150.3M); the 40 seeded exchanges 386.9M nodes
    # against 396.3M at 4.  Before those bounds, cachegrind had put 3-5
    # within 1.5% of one another and bounds first everywhere 7-8% above.)
    TT_FIRST = 6
    # A follower's cards are looked up in the table one trick ahead
    # (promote_table_cut) with at least this many tricks left, the current
    # one included: the fourth hand's from 10, the second and third hand's
    # (a trick played out greedily) from 11; in searches from 13 tricks
    # only (Ctx.cut_probe_left): the exchanges' searches of 12-card keeps
    # took 71.99M nodes against 74.02M but 7.29 s and 6.87 s against 6.44 s
    # and 6.19 s (`bench --set exchange`, two rounds).  Measured against no such
    # look-up (nodes of full tables; times of profile-guided builds,
    # alternating): bridge-solver's 1k_deals 801-900 136.0M -> 124.0M nodes,
    # 12.47 s -> 11.80 s (medians of three); eight sets of random deals
    # 511.7M -> 465.4M; the 20 downtown deals 27.4M -> 25.3M; the 19 hard
    # deals 216.0M -> 186.6M; the two freak deals 123.6M -> 83.5M.  The
    # fourth hand alone from 10: 801-900 131.2M nodes, 12.00 s.  The fourth
    # hand from 8 with the sure-trick bounds as well (every card looked up):
    # 6% fewer nodes than none, but 11% more time.
    CUT_PROBE_LAST = 10


# ---------------------------------------------------------------------------
# Table keys and the widening of W

cdef inline void top_fields(Ctx* c, int* sh) noexcept nogil:
    """The offsets of the suits' top cards in the owner strings (the sh
    of tt_probe and tt_store), from the cards present: the field of a
    suit's top card is its last one."""
    cdef int s, n
    for s in range(4):
        n = popc(present(c, s))
        sh[s] = (32 * (s & 1) + 2 * (n - 1)) if n else -1


cdef inline void trick_key(Ctx* c, TTShape* sp, uint64_t* own, int* sh) noexcept nogil:
    """Shape (suit lengths, leader: tt_shape), owner strings and top-card
    offsets (top_fields) of the position at a trick boundary.  The owner
    string of a suit has two bits per card still in play, lowest card
    first: the seat that holds it.  Every caller probes the table next, so
    the shape's directory slot is asked for as soon as the key is known:
    its load overlaps the owner strings."""
    cdef int s
    cdef uint32_t pres, lo, hi
    tt_shape(sp, c.lenkey, 0x8000 | c.st.leader | c.jokkey)
    tt_prefetch(c.tt, sp)
    own[0] = 0
    own[1] = 0
    for s in range(4):
        pres = present(c, s)
        lo = pext32(c.hand[1][s] | c.hand[3][s], pres)
        hi = pext32(c.hand[2][s] | c.hand[3][s], pres)
        own[s >> 1] |= (<uint64_t> (spread_even(lo) | (spread_even(hi) << 1))) << (32 * (s & 1))
    top_fields(c, sh)
    sp.tops = tt_tops(own, sh)
    __builtin_prefetch(tt_likely_list(c.tt, sp, sh))


cdef inline uint64_t pattern_cards(Ctx* c, uint64_t* msk) noexcept nogil:
    """The cards a table pattern covers in the current position: the top
    popcount(mask)/2 cards of each suit."""
    cdef uint64_t w = 0
    cdef int s, n, below
    cdef uint32_t pres
    for s in range(4):
        n = popc(<uint32_t> ((msk[s >> 1] >> (32 * (s & 1))) & 0xFFFFFFFFu)) >> 1
        if n == 0:
            continue
        pres = present(c, s)
        below = popc(pres) - n
        if below > 0:
            # the top n cards: all but the lowest `below` of them
            pres &= ~pdep32((1u << below) - 1, pres)
        w |= (<uint64_t> pres) << (16 * s)
    return w


# A shared table that fills up takes no more bounds (_tt.pxd's
# tt_store_in) until every core searching it has stopped where it is, at
# its next store (park): the last of them then makes room while the others
# wait, and each goes on with its search.  The cores searching a table are
# its guests and its owner while that searches (owner_in: search_enter and
# search_exit around Core's searches).
#
# Before, a guest on a job left the full table at its next store and
# stopped, to join again from the start once the owner, alone, had made
# room.  A join then cost the guest its whole search at every fill, and
# on two threads an idle thread joined the owner's test only while the
# owner's table was less than half full (engine.py's JOIN_ROOM): hard
# deal 2 of bridge-solver's set, whose no-trump row fills the table six
# times and holds half its nodes in one test, took 0.64-0.69 of its
# one-thread time on two threads; with parking and joins whatever the
# fill once first cards are tried, 0.61 (engine.py's JOIN_ALONE).

cdef void park(Ctx* c) noexcept nogil:
    """The table this core searches, shared, has filled up: wait, outside
    any probe or store, until every core searching it waits too (the last
    of them then makes room), or until this core's job is done."""
    cdef TTable* t = c.tt
    cdef int spin
    cdef int rounds = 0
    tt_lock(&t.lock)
    t.parked += 1
    while t.evict:
        # (an owner parks only on a job, searched between search_enter and
        # search_exit: owner_in counts it)
        if t.parked >= t.guests + t.owner_in:
            tt_fill(t)        # (which empties the table, or keeps a part: evict is cleared)
            break
        if c.job != 0 and split_stopped(c.sp, c.job):
            break
        tt_unlock(&t.lock)
        for spin in range(64):
            tt_pause()
        rounds += 1
        if rounds >= 16:
            tt_yield()        # (the core waited for may need this processor)
        tt_lock(&t.lock)
    t.parked -= 1
    tt_unlock(&t.lock)


cdef void leave_if_evicted(Ctx* c) noexcept nogil:
    """The table this core searches has filled up while shared (see
    _tt.pxd's tt_store_in).  Its owner or a guest, on a job (_split.pxd),
    waits for room (park).  A guest with no job (a thread helping with the
    keeps of another's exchange option) goes on in its own table, emptied,
    unless other cores search that one: the stored bounds are only a
    speed-up."""
    cdef TTable* t = c.tt
    if not t.evict:
        return
    if t == &c.own_tt:
        # (an owner with no job goes on, its stores dropped, until its
        # guests leave: an exchange's helper may wait for it while still
        # in its table)
        if c.job != 0 and tt_ld32(&t.guests):
            park(c)
        return
    if c.job != 0:
        park(c)
        return
    if c.own_tt.guests:
        return
    tt_leave(t)
    tt_empty(&c.own_tt)
    c.tt = &c.own_tt


cdef void set_owner_in(TTable* t, int on) noexcept nogil:
    """Count the table's owner among the cores searching it, or not (see
    park): in a shareable table under the lock, so after a fill that
    parked guests may be making."""
    if tt_ld32(&t.shareable):
        tt_lock(&t.lock)
        t.owner_in = on
        tt_unlock(&t.lock)
    else:
        tt_st32(&t.owner_in, on)


cdef void search_enter(Ctx* c) noexcept nogil:
    """A search of this core starts: in its own table, it counts among the
    cores searching it (owner_in; see park)."""
    if c.tt == &c.own_tt:
        set_owner_in(c.tt, 1)


cdef void search_exit(Ctx* c) noexcept nogil:
    """A search of this core ends (see search_enter)."""
    set_owner_in(&c.own_tt, 0)


cdef uint64_t close_and_store(Ctx* c, uint64_t w, TTShape* sp, uint64_t* own, int* sh,
                              int result, int need) noexcept nogil:
    """At a trick boundary: widen W to whole top segments (down through the
    run of its lowest card in each suit), store the bound (the position as
    trick_key made it: sp, own, sh), return the widened W.

    The run is read from the suit's owner string (own: two bits a card
    still in play, lowest card first): the fields below the lowest decided
    card's that hold its owner, up to the first that does not.  (Before,
    the owner was looked for hand by hand and the run walked card by card:
    close_and_store took 261M instructions on seed 1211's deal 41.)"""
    cdef uint64_t msk[2]
    cdef uint64_t wout = 0
    cdef int s, i, n, start
    cdef uint32_t pres, decided, x, below
    msk[0] = 0
    msk[1] = 0
    for s in range(4):
        pres = present(c, s)
        decided = <uint32_t> ((w >> (16 * s)) & 0xFFFF) & pres
        if not decided:
            continue
        x = <uint32_t> (own[s >> 1] >> (32 * (s & 1)))
        n = popc(pres)
        # i: the field of the lowest decided card; below: the fields under
        # it, those of its owner cleared
        i = popc(pres & (decided - 1) & ~decided)
        below = (x ^ (((x >> (2 * i)) & 3) * 0x55555555u)) & ((1u << (2 * i)) - 1)
        # the segment starts above the highest field of another owner
        start = (highbit(below) >> 1) + 1 if below else 0
        wout |= (<uint64_t> pdep32(0xFFFFFFFFu << start, pres)) << (16 * s)
        msk[s >> 1] |= (((<uint64_t> 1) << (2 * n)) - ((<uint64_t> 1) << (2 * start))) << (32 * (s & 1))
    if c.tt.evict:
        leave_if_evicted(c)
    if result:
        tt_store(c.tt, sp, own, sh, msk, need, c.st.left)
    else:
        tt_store(c.tt, sp, own, sh, msk, 0, need - 1)
    return wout


# ---------------------------------------------------------------------------
# The search

cdef int probe_trick(Ctx* c, int target, int ply, int want, int bounds) noexcept nogil:
    """Play out the current trick with each follower's first card in move
    order and look at the next trick boundary without searching: `want` if
    the table (and, with `bounds`, the sure-trick bounds first) or the
    tricks already won answer so there, else 1 - want or -1."""
    cdef int s, b, n, r, h, need
    cdef uint32_t runs
    cdef uint64_t w, key
    cdef uint64_t own[2]
    cdef uint64_t msk[2]
    cdef TTShape shape
    cdef int sh[4]
    if c.st.nplayed == 0:
        need = target - c.st.ns_won
        if bounds:
            r = bounds_at_lead(c, target, &w, want)
            if r >= 0:
                return r
        elif need <= 0:
            return 1
        elif need > c.st.left:
            return 0
        trick_key(c, &shape, own, sh)
        return tt_probe(c.tt, &shape, own, sh, need, msk)
    key = cut_key(c, target)
    cut_prefetch(c, key)
    h = (c.st.leader + c.st.nplayed) & 3
    if c.st.led >= 0 and c.hand[h][c.st.led]:
        # following suit: the first card without making the whole list
        s = c.st.led
        b = follow_first(c, h, c.st.nplayed, &runs)
        b = cut_pick(c, key, s, runs, b)
    else:
        n = gen_moves(c, ply)
        if n > 1:
            cut_first(c, ply, n, key)
        s = c.moves[ply][0].suit
        b = c.moves[ply][0].bit
    play(c, s, b, ply)
    r = probe_trick(c, target, ply + 1, want, bounds)
    unplay(c, s, b, ply)
    return r


cdef inline int probe_move(Ctx* c, int target, int ply, int i, int want, int bounds) noexcept nogil:
    """probe_trick after move i of the list at ply (played, then taken back)."""
    cdef int s = c.moves[ply][i].suit
    cdef int b = c.moves[ply][i].bit
    cdef int r
    play(c, s, b, ply)
    r = probe_trick(c, target, ply + 1, want, bounds)
    unplay(c, s, b, ply)
    return r


cdef void promote_probed_leads(Ctx* c, int target, int ply, int n) noexcept nogil:
    """Try first the leads whose trick, played out greedily, reaches a
    position the bounds or the table already decide for the leader."""
    cdef Move* mv = c.moves[ply]
    cdef Move hits[MAXMOVES]
    cdef Move rest[MAXMOVES]
    cdef int i, nh = 0, nr = 0
    cdef int want = (c.st.leader & 1) == 0
    for i in range(n):
        if probe_move(c, target, ply, i, want, 1) == want:
            hits[nh] = mv[i]
            nh += 1
        else:
            rest[nr] = mv[i]
            nr += 1
    if nh == 0:
        return
    for i in range(nh):
        mv[i] = hits[i]
    for i in range(nr):
        mv[nh + i] = rest[i]


cdef void promote_table_cut(Ctx* c, int target, int ply, int n) noexcept nogil:
    """A follower's cards: bring to the front the first one whose trick,
    played out with the next followers' first cards, reaches a position
    the table already decides for the side on turn (an enhanced
    transposition cut-off: a card that would refute at once is not left
    behind one whose refutation costs a search).  The table alone: the
    sure-trick bounds there cost more than they find."""
    cdef int i
    cdef int want = ((c.st.leader + c.st.nplayed) & 1) == 0
    for i in range(n):
        if probe_move(c, target, ply, i, want, 0) == want:
            move_to_front(c.moves[ply], i)
            return


cdef inline int table_answer(Ctx* c, int need, int ply, TTShape* sp, uint64_t* own,
                             int* sh) noexcept nogil:
    """At a trick boundary: the table's answer to "N-S take `need` more
    tricks?" (1, 0, or -1 unknown), with the cards of the deciding pattern
    in c.w[ply]; the position's shape, owner strings and top-card offsets
    are left in sp, own and sh for a store."""
    cdef uint64_t msk[2]
    cdef int r
    trick_key(c, sp, own, sh)
    r = tt_probe(c.tt, sp, own, sh, need, msk)
    if r >= 0:
        c.w[ply] = pattern_cards(c, msk)
    return r


cdef inline uint64_t split_node_key(Ctx* c, int target) noexcept nogil:
    """A hash of the position and the question (for _split.pxd's map of
    moves in progress): the cards held, the current trick's cards, its
    leader, the tricks N-S have won and the target."""
    cdef uint64_t x[5]
    cdef uint64_t h
    cdef int i
    memcpy(x, c.hand, sizeof(x))
    h = (<uint64_t> target) | (<uint64_t> c.st.ns_won << 8) | (<uint64_t> c.st.leader << 16) \
        | (<uint64_t> c.st.nplayed << 20)
    for i in range(c.st.nplayed):
        h |= (<uint64_t> (c.st.tsuit[i] * 16 + c.st.tbit[i])) << (24 + 8 * i)
    h *= 0x9E3779B97F4A7C15ULL
    for i in range(5):
        h = (h ^ x[i]) * 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef inline uint64_t split_child_key(uint64_t node_key, int s, int b) noexcept nogil:
    """The key of the position after card (s, b) at the node node_key (never 0)."""
    cdef uint64_t h = (node_key + <uint64_t> (s * 16 + b + 1) * 0x94D049BB133111EBULL)
    h ^= h >> 29
    return h if h else 1


cdef void grant_share(Ctx* c) noexcept nogil:
    """Another core asked for this core's own table (Core.ask_shareable):
    make it shareable now, in the middle of a search (a table grows to all
    its slots before it is shared, and only its owner may grow it)."""
    cdef TTable* t = &c.own_tt
    tt_st32(&t.want_share, 0)
    if not t.shareable and c.tt == t:
        tt_grow(t, t.maxslots)
        tt_st32(&t.shareable, 1)


cdef inline void narrow_ranks(int* minrel, int s, int b, uint64_t wc) noexcept nogil:
    """After card (s, b) failed with the cards wc deciding it: if the
    result did not depend on this card's rank, every card of the suit
    below the lowest card that mattered gives the same result (the
    positions agree on all cards that decided it), and is not tried."""
    cdef uint32_t decided
    if s == JOKERS:
        return
    decided = <uint32_t> ((wc >> (16 * s)) & 0xFFFF)
    if not decided:
        minrel[s] = 16
    elif b < lowbit(decided) and lowbit(decided) > minrel[s]:
        minrel[s] = lowbit(decided)


cdef inline int node_result(Ctx* c, int ply, int k, uint64_t w, TTShape* sp, uint64_t* own,
                            int* sh, int r, int need) noexcept nogil:
    """A node's result r with the cards w that decided it: at a trick
    boundary (k 0) widened and stored in the table (close_and_store).
    Leaves the W in c.w[ply]; returns r."""
    if k == 0:
        c.w[ply] = close_and_store(c, w, sp, own, sh, r, need)
    else:
        c.w[ply] = w
    return r


cdef int _search_split(Ctx* c, int target, int ply, int n, uint64_t ckey, int need,
                       TTShape* sp, uint64_t* own, int* sh) noexcept nogil:
    """search's loop over the n moves at ply when other cores may share the
    search (c.job != 0); (ckey, need, sp, own, sh: what search worked out
    before it)."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int ns_turn = ((st.leader + k) & 1) == 0
    cdef int i, m, r, s, b, total, nd, split, first
    cdef int minrel[5]
    cdef int deferred[MAXMOVES]
    cdef uint64_t wacc = 0, wc, node_key, child_key
    cdef Move* mv = c.moves[ply]
    minrel[0] = 0
    minrel[1] = 0
    minrel[2] = 0
    minrel[3] = 0
    minrel[4] = 0
    # With other cores on the same search (a job: _split.pxd), a move
    # after the first whose position one of them searches now is put off
    # to the end of the list (deferred[]); at a job's root expected to be
    # an ALL node (root_all), the first move too, and the moves there are
    # marked even while this core searches alone, for a core that joins.
    first = ply == 0 and c.root_all
    split = st.left >= SPLIT_LEFT and (c.tt.guests != 0 or first)
    node_key = 0
    nd = 0
    total = n
    i = 0
    while i < total:
        m = i if i < n else deferred[i - n]
        i += 1
        s = mv[m].suit
        b = mv[m].bit
        if b < minrel[s]:
            continue  # a tried card of this suit showed this one's rank is irrelevant
        child_key = 0
        if split and (m > 0 or first) and i <= n:
            if node_key == 0:
                node_key = split_node_key(c, target)
            child_key = split_child_key(node_key, s, b)
            if split_busy(c.sp, child_key):
                deferred[nd] = m
                nd += 1
                total += 1
                continue
            if not split_mark(c.sp, child_key):
                child_key = 0
        wc = play(c, s, b, ply)
        r = search_node(c, target, ply + 1)
        wc |= c.w[ply + 1]
        unplay(c, s, b, ply)
        if child_key:
            split_unmark(c.sp, child_key)
        if split_stopped(c.sp, c.job):
            return 0  # another core answered: leave without storing anything
        if r == ns_turn:
            if m > 0:
                cut_store(c, ckey, s, b)
            return node_result(c, ply, k, wc, sp, own, sh, r, need)
        wacc |= wc
        narrow_ranks(minrel, s, b, wc)
    return node_result(c, ply, k, wacc, sp, own, sh, 1 - ns_turn, need)


# (called through a pointer: kept out of search's body, whose every node
# would otherwise carry its frame)
cdef int (*search_split)(Ctx* c, int target, int ply, int n, uint64_t ckey, int need,
                         TTShape* sp, uint64_t* own, int* sh) noexcept nogil
search_split = _search_split


cdef int search_node(Ctx* c, int target, int ply) noexcept nogil:
    """1 if N-S can take `target` tricks in all (counting st.ns_won) from
    here, else 0.  Leaves in c.w[ply] the cards whose ranks decided it."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int ns_turn = (h & 1) == 0
    cdef uint64_t wq, wacc, wc, ckey = 0
    cdef uint64_t own[2]
    cdef int sh[4]
    cdef TTShape shape
    cdef int n, m, r, s, b, need
    cdef int minrel[5]
    cdef uint32_t runs
    cdef TrickState st0
    cdef TrickView v
    cdef Move* mv
    c.nodes += 1
    if k == 0:
        if c.watch:
            # (at the leading nodes only, a quarter of them: the first
            # few of every SIGNAL_NODES nodes)
            if (c.nodes & (SIGNAL_NODES - 1)) < 8:
                poll_signals(c)
            if c.halt:
                return 0    # (unwinding: what is stored meanwhile is emptied after)
        if c.own_tt.want_share:
            grant_share(c)
        need = target - st.ns_won
        # the table first with many tricks left (where need is out of
        # range the bounds answer at once), else the bounds first
        if st.left >= TT_FIRST and need > 0 and need <= st.left:
            r = table_answer(c, need, ply, &shape, own, sh)
            if r >= 0:
                return r
        r = bounds_at_lead(c, target, &wq, -1)
        if r >= 0:
            c.w[ply] = wq
            return r
        if st.left < TT_FIRST:
            r = table_answer(c, need, ply, &shape, own, sh)
            if r >= 0:
                return r
    elif k == 1:
        r = second_hand_bound(c, target, &wq)
        if r >= 0:
            c.w[ply] = wq
            return r
    # the cut-off cache's entry is asked for before the moves are made, so
    # that its load overlaps their making; not for a follower whose cards
    # of the led suit are one run of equivalent cards (one move: the cache
    # is not looked at, nor written: a card is stored only when it is not
    # the first).  Following suit, gen_moves' work is done here, without
    # its call: half the nodes (four in five of the followers'), and the
    # runs decide whether the key is needed.  (mv: the move list, not
    # needed by the one-move follower)
    if k > 0 and st.led >= 0 and c.hand[h][st.led]:
        runs = run_starts(c, h, st.led, k)
        if runs & (runs - 1) == 0 and (c.job == 0 or st.left < SPLIT_LEFT):
            # One move (a third of the followers), searched here when alone:
            # without the move list, the loop and its minrel and W
            # accumulated, its result the node's (1.2% fewer instructions
            # on deal 41 of seed 1211; 0.2% of them lost again when this
            # was an inner branch of the run test).  The card is read back
            # from the trick after the search (its place k: the search
            # below leaves the trick as it found it).
            s = st.led
            b = lowbit(runs)
            st0 = st[0]
            trick_view(c, &v)
            wc = follower_card(c, st, &v, h, k, s, b)
            r = search_node(c, target, ply + 1)
            c.w[ply] = wc | c.w[ply + 1]
            s = st.tsuit[k]
            b = st.tbit[k]
            st[0] = st0
            return_card(c, h, s, b)
            return r
        mv = c.moves[ply]
        if runs & (runs - 1) == 0:
            put_move(mv, st.led, lowbit(runs))
            n = 1
        else:
            ckey = follow_key(c, h)
            cut_prefetch(c, ckey)
            n = gen_suit(c, mv, h, k, runs)
            cut_first_runs(c, mv, ckey, st.led, runs)
    else:
        mv = c.moves[ply]
        ckey = cut_key(c, target)
        cut_prefetch(c, ckey)
        # (gen_moves' two other cases called directly: each out of line on
        # its own, with a smaller frame than gen_moves' whole; 0.6% fewer
        # instructions on deal 41 of seed 1211)
        if k > 0 and st.led >= 0:
            n = gen_void(c, mv, h, k)
        else:
            n = gen_lead(c, mv, h)
        if n > 1:
            cut_first(c, ply, n, ckey)
    if n > 1:
        if k == 0 and st.left >= c.probe_left:
            promote_probed_leads(c, target, ply, n)
        elif k > 0 and st.left >= c.cut_probe_left + (k != 3):
            promote_table_cut(c, target, ply, n)
    if c.job != 0 and st.left >= SPLIT_LEFT:
        # other cores on the same search (_split.pxd): search_split, where
        # moves are shared out and a core leaves once another answered.
        # Below SPLIT_LEFT tricks no move is shared out: the loops below,
        # without split_stopped after every card (a core stopped leaves at
        # the first node above with SPLIT_LEFT tricks; what it stores on
        # the way, searched in full, is true).  Every node of a job took
        # search_split before: the threaded table's searches, on one
        # solver, took 1.00-1.05 s against 0.94-0.97 s for the same nodes
        # without jobs (deal 41 of seed 1211).
        return search_split(c, target, ply, n, ckey, need, &shape, own, sh)
    # A search of its own (no other core on it): every card of the list
    # in order.  The trick state before the cards is kept here once for
    # all of them (c.saved[ply] is not written), and what the card winning
    # so far is, once (trick_view).  A leader's cards and a follower's have
    # a loop each, the same but for playing the card and the result's
    # store: with the kind of node fixed in each loop GCC keeps more of it
    # in registers (0.8% fewer instructions on deal 41 of seed 1211 than
    # one loop that asks k at every card; a third loop of its own for the
    # fourth hand gained 0.01% more).
    st0 = st[0]
    wacc = 0
    minrel[0] = 0
    minrel[1] = 0
    minrel[2] = 0
    minrel[3] = 0
    minrel[4] = 0
    if k == 0:
        for m in range(n):
            s = mv[m].suit
            b = mv[m].bit
            if b < minrel[s]:
                continue  # a tried card of this suit showed this one's rank is irrelevant
            take_card(c, h, s, b)
            lead_card(st, s, b)
            r = search_node(c, target, ply + 1)
            # (the card read again rather than kept across the call: fewer
            # values saved and restored around it)
            s = mv[m].suit
            b = mv[m].bit
            wc = c.w[ply + 1]
            st[0] = st0
            return_card(c, h, s, b)
            if r == ns_turn:
                if m > 0:
                    cut_store(c, ckey, s, b)
                return node_result(c, ply, 0, wc, &shape, own, sh, r, need)
            wacc |= wc
            if m + 1 < n:
                narrow_ranks(minrel, s, b, wc)   # (for the cards still to come)
        return node_result(c, ply, 0, wacc, &shape, own, sh, 1 - ns_turn, need)
    trick_view(c, &v)
    for m in range(n):
        s = mv[m].suit
        b = mv[m].bit
        if b < minrel[s]:
            continue
        wc = follower_card(c, st, &v, h, k, s, b)
        r = search_node(c, target, ply + 1)
        s = mv[m].suit
        b = mv[m].bit
        wc |= c.w[ply + 1]
        st[0] = st0
        return_card(c, h, s, b)
        if r == ns_turn:
            if m > 0:
                cut_store(c, ckey, s, b)
            c.w[ply] = wc       # (node_result at a follower)
            return r
        wacc |= wc
        if m + 1 < n:
            narrow_ranks(minrel, s, b, wc)
    c.w[ply] = wacc
    return 1 - ns_turn


# search's callers reach search_node through a pointer: GCC would otherwise
# make copies of the whole search for their constant plies (and with them
# over its limit of inlining, leave the cut-off key out of line).
cdef int (*search_entry)(Ctx* c, int target, int ply) noexcept nogil
search_entry = search_node


cdef inline int search(Ctx* c, int target, int ply) noexcept nogil:
    """1 if N-S can take `target` tricks in all (counting st.ns_won) from
    here, else 0 (search_node).  Leaves in c.w[ply] the cards whose ranks
    decided it."""
    return search_entry(c, target, ply)


# How often a search alone in the main thread looks for signals (Ctrl-C,
# SIGTERM): every 2^18 nodes, some 30 ms; each look takes the GIL for a
# microsecond.  Without it a long search ignored Ctrl-C to its end (the
# four-void deal's no-trump row: 10 s).
cdef enum:
    SIGNAL_NODES = 1 << 18


cdef void _poll_signals(Ctx* c) noexcept nogil:
    """Run Python's signal handlers; if one raises (KeyboardInterrupt,
    the command line's Terminated), keep its exception and halt the search."""
    cdef PyObject* t = NULL
    cdef PyObject* v = NULL
    cdef PyObject* tb = NULL
    with gil:
        if _check_signals() != 0:
            _fetch_error(&t, &v, &tb)
            c.halted[0] = <void*> t
            c.halted[1] = <void*> v
            c.halted[2] = <void*> tb
            c.halt = 1


# (called through a pointer, which the compiler cannot inline: written out
# in search, the GIL's code made search too big for its own inlining, 1.5%
# more instructions on a table)
cdef void (*poll_signals)(Ctx* c) noexcept nogil
poll_signals = _poll_signals


cdef int exact(Ctx* c, int ply, int guess) noexcept nogil:
    """Exact N-S total (st.ns_won included) by null-window searches."""
    cdef int lo = c.st.ns_won
    cdef int hi = c.st.ns_won + c.st.left
    cdef int t
    while lo < hi:
        t = guess
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        if search(c, t, ply):
            lo = t
            guess = t + 1
        else:
            hi = t - 1
            guess = t - 1
    return lo


cdef int legal_cards(Ctx* c, int* suits, int* bits) noexcept nogil:
    """Every legal card of the seat on turn (no equivalence pruning)."""
    cdef TrickState* st = &c.st
    cdef int h = (st.leader + st.nplayed) & 3
    cdef int n = 0, s, s0, s1
    cdef uint32_t x
    playable_suits(c, h, &s0, &s1)
    for s in range(s0, s1):
        x = c.hand[h][s]
        while x:
            suits[n] = s
            bits[n] = lowbit(x)
            x &= x - 1
            n += 1
    return n


cdef int child_value(Ctx* c, int s, int b, int guess) noexcept nogil:
    """Exact N-S total after the seat on turn plays (s, b)."""
    cdef int v
    play(c, s, b, 0)
    v = exact(c, 1, guess)
    unplay(c, s, b, 0)
    return v


# ---------------------------------------------------------------------------
# Python interface: plain data in, plain data out

cdef void start_trick(Ctx* c, int leader) noexcept nogil:
    """A root at the start of a trick led by ``leader``, from the hands as
    they are: the trick state and what is derived from the hands (the
    table's keys, the cards present)."""
    cdef int h, s
    memset(&c.st, 0, sizeof(TrickState))
    c.st.leader = leader
    c.st.led = -1
    c.st.winpos = -1
    c.st.left = popc(c.hand[leader][0]) + popc(c.hand[leader][1]) + popc(c.hand[leader][2]) \
        + popc(c.hand[leader][3]) + popc(c.hand[leader][4])
    c.probe_left = PROBE_LEFT_FULL if c.st.left >= 13 else PROBE_LEFT
    c.cut_probe_left = CUT_PROBE_LAST if c.st.left >= 13 else MAXPLY
    if c.tt == &c.own_tt:
        if c.tt.evict and not tt_ld32(&c.tt.guests):
            # full while shared, the guests gone: make room before a core
            # joins again (tt_join waits on the lock)
            tt_lock(&c.tt.lock)
            if not c.tt.guests:
                tt_fill(c.tt)
            tt_unlock(&c.tt.lock)
        tt_root(c.tt)
    elif c.tt.evict:
        leave_if_evicted(c)
    c.lenkey = 0
    c.jokkey = 0
    for s in range(5):
        c.pres[s] = c.hand[0][s] | c.hand[1][s] | c.hand[2][s] | c.hand[3][s]
    for h in range(4):
        for s in range(5):
            c.lenkey += popc(c.hand[h][s]) * c.lenstep[h][s]
            c.jokkey += popc(c.hand[h][s]) * c.jokstep[h][s]


_MAIN_THREAD = _threading.main_thread().ident

# Cards in one hand at most (a search plays them all: MAXPLY plies hold four
# such hands with room to spare)
MAX_HAND = 13


cdef int _held(Ctx* c, int h):
    cdef int s, n = 0
    for s in range(5):
        n += popc(c.hand[h][s])
    return n


def _check_card(int s, int b):
    """A card in engine coordinates that the hands' masks can hold."""
    if not (0 <= s <= 4 and 0 <= b <= 15):
        raise ValueError(f"bad card ({s}, {b}) (suit 0-4, power 0-15)")


cdef class Core:
    """One search context with its transposition table.

    Positions are given in engine coordinates: cards as (suit, power) with
    suit 0..3 (or 4 for a joker at no-trump) and power 0..14, trump 0..3 or
    -1 for no-trump, seats 0..3 = N E S W."""
    cdef Ctx* c
    cdef object host    # the core whose table this one searches in (share_from), or None

    def __cinit__(self, size_t tt_bytes=64 * 1024 * 1024):
        self.c = <Ctx*> calloc(1, sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        self.c.cut = <CutEntry*> calloc(1 << CUTBITS, sizeof(CutEntry))
        self.c.cut_gen = 1          # (the zeroed entries are of generation 0: empty)
        self.c.probe_left = PROBE_LEFT
        self.c.cut_probe_left = MAXPLY
        self.c.tt = &self.c.own_tt
        self.c.sp = &self.c.own_split
        split_init(self.c.sp)
        if tt_init(self.c.tt, tt_bytes) != 0 or self.c.cut == NULL:
            tt_free(self.c.tt)
            free(self.c.cut)
            free(self.c)
            self.c = NULL
            raise MemoryError("cannot allocate the transposition table")
        cdef int h, s
        for h in range(4):
            for s in range(5):
                if s < 4:
                    self.c.lenstep[h][s] = (<uint64_t> 1) << (16 * h + 4 * s)
                else:
                    self.c.jokstep[h][s] = 1 << (2 + 2 * h)

    def __dealloc__(self):
        if self.c != NULL:
            if self.host is not None:
                self.unshare()
            tt_free(&self.c.own_tt)
            free(self.c.cut)
            free(self.c)

    @property
    def tt_bytes(self):
        """The size of this core's own table."""
        cdef TTable* t = &self.c.own_tt
        return t.maxslots * sizeof(TTSlot) + t.npages * sizeof(TTPage)

    @property
    def tt_usage(self):
        """(slots in use, slots it uses now (see _tt.pxd's tt_grow), pages in
        use, pages, times the table filled up): what the table searched
        holds, for benchmarks and tests."""
        cdef TTable* t = self.c.tt
        return (t.used, t.nslots, t.pages_used, t.npages, t.fills)

    @property
    def tt_ahead(self):
        """Pages of this core's own table brought into memory ahead of use
        while other cores shared it (see _tt.pxd's tt_store): for tests."""
        return self.c.own_tt.populated

    @property
    def nodes(self):
        return self.c.nodes

    def fill_up(self):
        """Do now what the table does when it fills up (see _tt.pxd's
        tt_fill): for tests."""
        self._own_table("fill_up")
        tt_fill(self.c.tt)

    def clear(self):
        """Forget every stored bound and remembered cut-off."""
        self._own_table("clear")
        tt_empty(self.c.tt)
        cut_clear(self.c)

    def _own_table(self, what):
        """Only a core searching its own table, with no other core in it,
        may empty it or fill it up."""
        if self.c.tt != &self.c.own_tt:
            raise RuntimeError(f"{what}: this core searches another core's table (unshare first)")
        if self.c.tt.guests:
            raise RuntimeError(f"{what}: other cores search this core's table")

    @property
    def sharing(self):
        """True from share_from to unshare (the core may have gone back to
        its own table meanwhile: see unshare)."""
        return self.host is not None

    @property
    def shareable(self):
        """Whether other cores may join this core's own table (share_from):
        its stores then take the table's lock.  Set it while no search
        runs on this core."""
        return bool(self.c.own_tt.shareable)

    @shareable.setter
    def shareable(self, bint on):
        cdef TTable* t = &self.c.own_tt
        if not on and t.guests:
            raise RuntimeError("other cores search this core's table")
        if on and not t.shareable:
            # all its slots now: a table is not grown while shared
            with nogil:
                tt_grow(t, t.maxslots)
        if not on:
            t.want_share = 0
        t.shareable = on

    def bring_in_table(self, Core other not None):
        """Have the system bring all the slots of ``other``'s own table into
        memory now, those not in use yet too (a table made shareable takes
        them all, and a long search touches every part of them: they are
        placed at random).  Their contents do not change, so ``other``
        may be searching meanwhile: for a thread about to join it."""
        cdef TTable* t = &other.c.own_tt
        with nogil:
            tt_populate(t.slots, t.maxslots * sizeof(TTSlot))

    def share_from(self, Core other not None):
        """Search from now on in ``other``'s own table (with its cut-off
        cache copied as a start), until unshare(): the two cores
        then search at once, each finding what the other stores.  For a
        thread that takes over part of another's work on one deal and one
        trump (the keeps of an exchange).
        That table must be shareable; ``other`` may be searching.  Neither
        core may empty the table until this one unshares (clear and
        fill_up refuse).  While shared, the table takes no more bounds
        once full: on a job (search_job) this core then waits for the
        other cores in it, and room is made (park); else it goes on in its
        own table, emptied (leave_if_evicted).  Returns True; False (and
        this core stays in its own table) while that table, full, is
        making room."""
        cdef TTable* t
        cdef int joined
        self.unshare()
        if other is self:
            return True
        t = &other.c.own_tt
        if not t.shareable:
            raise RuntimeError("share_from: that table is not shareable")
        with nogil:
            joined = tt_join(t)
            if joined:
                memcpy(self.c.cut, other.c.cut, (1 << CUTBITS) * sizeof(CutEntry))
                self.c.cut_gen = other.c.cut_gen
        if not joined:
            return False
        self.c.tt = t
        self.c.sp = &other.c.own_split
        self.host = other
        return True

    def unshare(self):
        """Back to this core's own table.  True if it is as share_from
        found it; False if the shared table filled up meanwhile and this
        core went on in its own, emptied (it then holds positions of the
        shared table's trump; see leave_if_evicted); None if this core
        was not sharing."""
        cdef TTable* t = self.c.tt
        if self.host is None:
            return None
        self.host = None
        self.c.sp = &self.c.own_split
        if t == &self.c.own_tt:
            return False
        with nogil:
            tt_leave(t)
        self.c.tt = &self.c.own_tt
        return True

    @property
    def guests(self):
        """Cores searching in this core's own table now."""
        return tt_ld32(&self.c.own_tt.guests)

    def next_job(self):
        """A number for a new job of this core (search_job), after every
        one it has handed out: a core that finds a job number done stops,
        so the numbers of one table never repeat."""
        return split_next_job(&self.c.own_split)

    def stop_jobs(self):
        """Count every job this core has handed out as done: its search
        and the guests' on them stop at once (for an interrupt)."""
        split_done_upto(&self.c.own_split.done, self.c.own_split.issued)

    @property
    def job_done(self):
        """The last job (search_job) finished in this core's own table."""
        return tt_ld32(&self.c.own_split.done)

    def ask_shareable(self):
        """Ask this core to make its own table shareable at the next
        trick one of its searches starts (see grant_share), the one it
        runs now or the next; watch ``shareable``.  For a thread that wants
        to join the searches this core runs."""
        tt_st32(&self.c.own_tt.want_share, 1)

    def finish_job(self, int job):
        """Count job ``job`` of this core's own table (and every earlier
        one) as done: the cores searching it stop at their next move, as
        when one of them finishes it (search_job)."""
        split_done_upto(&self.c.own_split.done, job)

    def search_job(self, int target, int job, bint publish=True, bint root_all=False):
        """can_take(target) as job number ``job`` (from the table owner's
        next_job) of the cores searching this table: cores that search one
        position for one target at once, each with its own search (see
        _split.pxd).  Returns 1 or 0, or -1 when another core finished the
        job first (its answer is the answer: this search stopped without
        storing what it saw).  A shared table that fills up meanwhile
        makes room once every core on it has stopped where it is, and each
        goes on (park).  The position must be set, and a guest must share
        the table before it sets it.  Without ``publish`` a search that finishes does not count
        its job done (the caller does, with the owner's finish_job, when
        that is right: a search ahead of the owner's, whose later number
        would stop the owner's own job).  With ``root_all`` (the position's
        moves expected to fail all, engine._root_fails_all) the cores share
        out its first moves too (_split.pxd)."""
        cdef Ctx* c = self.c
        cdef int r
        if job == 0:
            raise ValueError("search_job: job 0 is no job")
        c.job = job
        c.root_all = root_all
        with nogil:
            search_enter(c)
            r = search(c, target, 0)
            search_exit(c)
        c.job = 0
        c.root_all = 0
        if split_stopped(c.sp, job):
            return -1
        if publish:
            split_done_upto(&c.sp.done, job)
        return r

    def set_position(self, hands, int trump, int leader, trick=()):
        """hands: four lists of (suit, power), N E S W, the cards still
        held; trick: the (suit, power) cards already played to the current
        trick, from the leader on."""
        cdef Ctx* c = self.c
        cdef int h, s, b, i, k
        # (the boundary of the engine: what would index outside its arrays
        # is refused here, since the search checks nothing)
        if len(hands) != 4:
            raise ValueError(f"four hands (N, E, S, W), not {len(hands)}")
        if not -1 <= trump <= 3 or not 0 <= leader <= 3 or len(trick) > 3:
            raise ValueError(f"bad position: trump {trump}, leader {leader}, "
                             f"{len(trick)} cards in the trick")
        for h in range(4):
            for s, b in hands[h]:
                _check_card(s, b)
        for s, b in trick:
            _check_card(s, b)
        memset(c.hand, 0, sizeof(c.hand))
        for h in range(4):
            for s, b in hands[h]:
                c.hand[h][s] |= 1 << b
        for h in range(4):
            k = _held(c, h) + sum(1 for i in range(len(trick)) if (leader + i) & 3 == h)
            if k > MAX_HAND:
                # (a search plays every card: more than MAXPLY plies would
                # write past its arrays)
                raise ValueError(f"{k} cards in one hand (at most {MAX_HAND})")
        c.trump = trump
        k = len(trick)
        # replay the current trick's cards through play() so the trick state
        # (led suit, winner) is derived by the same code as in the search;
        # the cards are first given back to their players.
        for i in range(k):
            s, b = trick[i]
            c.hand[(leader + i) & 3][s] |= 1 << b
        start_trick(c, leader)
        for i in range(k):
            s, b = trick[i]
            play(c, s, b, 0)

    def set_hand(self, int seat, masks, int leader):
        """Replace seat's cards by the bit masks ``masks`` (one per engine
        suit, 0..4, bit = power) and start a trick led by ``leader``; the
        other hands and the trump stay as the last set_position left them.
        For callers that put many positions differing in one hand (the
        keeps of an exchange) without giving all the cards each time."""
        cdef Ctx* c = self.c
        cdef int s, n
        if not 0 <= seat <= 3 or not 0 <= leader <= 3 or len(masks) != 5:
            raise ValueError(f"bad hand: seat {seat}, leader {leader}, {len(masks)} suit masks")
        for s in range(5):
            if not 0 <= masks[s] < (1 << 16):
                raise ValueError(f"bad hand: suit mask {masks[s]!r}")
        for s in range(5):
            c.hand[seat][s] = masks[s]
        n = _held(c, seat)
        if n > MAX_HAND:
            for s in range(5):
                c.hand[seat][s] = 0
            raise ValueError(f"{n} cards in one hand (at most {MAX_HAND})")
        start_trick(c, leader)

    cdef void _arm(self):
        """Look for signals during the next searches when this core
        searches alone in the main thread (its own table, no other core
        able to join it): only there do Python's handlers run, and only
        there can the table be emptied after a halt."""
        cdef Ctx* c = self.c
        c.watch = (_threading.get_ident() == _MAIN_THREAD and c.tt == &c.own_tt
                   and not c.own_tt.shareable)

    cdef int _check_halt(self) except -1:
        """After a search: if a signal's handler raised meanwhile, empty
        the table (the bounds stored while the search unwound are no
        facts) and raise its exception."""
        cdef Ctx* c = self.c
        cdef PyObject* t
        cdef PyObject* v
        cdef PyObject* tb
        if not c.halt:
            return 0
        c.halt = 0
        c.watch = 0
        t = <PyObject*> c.halted[0]
        v = <PyObject*> c.halted[1]
        tb = <PyObject*> c.halted[2]
        c.halted[0] = c.halted[1] = c.halted[2] = NULL
        tt_empty(c.tt)
        cut_clear(c)
        _restore_error(t, v, tb)
        return -1

    def value(self, int guess=-1):
        """Exact tricks N-S take from the position on (current trick
        included)."""
        cdef int v, g = guess
        if g < 0:
            g = (self.c.st.left + 1) // 2
        self._arm()
        with nogil:
            search_enter(self.c)
            v = exact(self.c, 0, g)
            search_exit(self.c)
        self._check_halt()
        return v

    def can_take(self, int target):
        """Null-window question: do N-S take at least `target` tricks?"""
        cdef int r
        self._arm()
        with nogil:
            search_enter(self.c)
            r = search(self.c, target, 0)
            search_exit(self.c)
        self._check_halt()
        return bool(r)

    def keeps_until(self, int seat, int leader, const uint16_t[::1] masks,
                    const uint8_t[::1] caps, Py_ssize_t start, Py_ssize_t end,
                    int target, bint ns_side, int n, uint64_t node_budget):
        """The keeps of an exchange, one null-window question each, without
        a return to Python between two keeps: keep i gives ``seat`` the
        cards masks[5 * i] .. masks[5 * i + 4] (its engine suits 0..4, as
        set_hand takes them) and a trick led by ``leader`` (the other hands
        as set_position left them); "does the bidding side (N-S if
        ``ns_side``, else E-W, of ``n`` tricks) take ``target`` tricks?"  A keep whose ``caps[i]`` is below the
        target is passed over without a search.  Stops after the first
        keep that does, or once ``node_budget`` nodes have been searched
        (so that the caller sees its stop requests and helpers often
        enough), or at ``end``.  Returns (the next keep to look at, the
        keep that takes the target or -1, keeps passed over, questions
        asked, nodes)."""
        cdef Ctx* c = self.c
        cdef Py_ssize_t i = start, hit = -1
        cdef int s, r
        cdef long bounded = 0, asked = 0
        cdef uint64_t n0 = c.nodes
        if start < 0 or 5 * end > masks.shape[0] or end > caps.shape[0]:
            raise ValueError("keeps_until: five masks and a cap for every keep")
        self._arm()
        with nogil:
            search_enter(c)
            while i < end:
                if caps[i] < target:
                    bounded += 1
                    i += 1
                    continue
                for s in range(5):
                    c.hand[seat][s] = masks[5 * i + s]
                start_trick(c, leader)
                if ns_side:
                    r = search(c, target, 0)
                else:
                    r = 1 - search(c, n - target + 1, 0)
                asked += 1
                i += 1
                if r:
                    hit = i - 1
                    break
                if c.nodes - n0 >= node_budget or c.halt:
                    break
            search_exit(c)
        self._check_halt()
        return i, hit, bounded, asked, c.nodes - n0

    def card_values(self, int guess=-1):
        """N-S totals after each legal card of the seat on turn: a list of
        ((suit, power), value).  Cards of one run of equivalent cards share
        one search."""
        cdef Ctx* c = self.c
        cdef int suits[16]
        cdef int bits[16]
        cdef int n = legal_cards(c, suits, bits)
        cdef int h = (c.st.leader + c.st.nplayed) & 3
        cdef int i, s, b, v, g = guess
        cdef uint32_t pres, mine, below
        if g < 0:
            g = (c.st.left + 1) // 2
        out = []
        rep_value = {}
        self._arm()
        for i in range(n):
            s = suits[i]
            b = bits[i]
            # the run representative: walk down while the next lower card
            # still in play (held, or played to this trick) is ours
            if s == JOKERS:
                rep = (s, 0)
            else:
                mine = c.hand[h][s]
                pres = present(c, s)
                for j in range(c.st.nplayed):
                    if c.st.tsuit[j] == s:
                        pres |= 1u << c.st.tbit[j]
                below = pres & ((1u << b) - 1)
                rb = b
                while below and (mine >> highbit(below)) & 1:
                    rb = highbit(below)
                    below &= ~(1u << rb)
                rep = (s, rb)
            if rep not in rep_value:
                with nogil:
                    search_enter(c)
                    v = child_value(c, s, b, g)
                    search_exit(c)
                self._check_halt()
                rep_value[rep] = v
                g = v
            out.append(((s, b), rep_value[rep]))
        return out

    def line(self, int value):
        """One optimal line to the end from the current root, given its
        exact N-S value.  The root advances to the end of the deal."""
        cdef Ctx* c = self.c
        cdef int suits[16]
        cdef int bits[16]
        cdef int n, i, h, ok, s, b, r
        out = []
        self._arm()
        while c.st.left > 0:
            n = legal_cards(c, suits, bits)
            h = (c.st.leader + c.st.nplayed) & 3
            chosen = -1
            # try the cards in the engine's own move order first
            order = list(range(n))
            gen = gen_moves(c, 0)
            pref = [(c.moves[0][j].suit, c.moves[0][j].bit) for j in range(gen)]
            order.sort(key=lambda j: pref.index((suits[j], bits[j])) if (suits[j], bits[j]) in pref else 99)
            for i in order:
                s = suits[i]
                b = bits[i]
                with nogil:
                    search_enter(c)
                    play(c, s, b, 0)
                    if (h & 1) == 0:
                        r = search(c, value, 1)
                        ok = r
                    else:
                        r = search(c, value + 1, 1)
                        ok = 1 - r
                    unplay(c, s, b, 0)
                    search_exit(c)
                self._check_halt()
                if ok:
                    chosen = i
                    break
            if chosen < 0:
                raise RuntimeError("no card keeps the value: inconsistent search")
            s = suits[chosen]
            b = bits[chosen]
            play(c, s, b, 0)
            out.append((s, b))
        return out


# The most cards of a keep, and the masks of one (see exchange_keeps).
KEEP_LIMITS = (KEEP_CARDS, KEEP_SUITS)


def exchange_keeps(int n, const uint16_t[::1] first, const uint8_t[::1] size,
                   const double[::1] worth, const uint8_t[::1] key, const uint16_t[::1] masks,
                   const uint8_t[::1] cap):
    """Every keep of ``n`` cards from the choices of each suit (see
    _keeps.pxd: the choices of suit s are ``first[s]`` .. ``first[s + 1]``
    - 1; each has a size, a worth, KEEP_CARDS card codes, KEEP_SUITS engine
    masks and a cap), in search order.  Returns three arrays: the keeps'
    masks (five a keep, as Core.keeps_until takes them), their caps, and
    their choices (one a suit)."""
    cdef KeepMaker m
    cdef Py_ssize_t nch = size.shape[0], i
    cdef int s, r
    cdef array.array rows, caps, picks
    cdef Keep* k
    m.nsuits = first.shape[0] - 1
    if not 0 < m.nsuits <= KEEP_SUITS or not 0 <= n <= KEEP_CARDS:
        raise ValueError("exchange_keeps: 1 to 5 suits, at most 16 cards")
    if (first[m.nsuits] != nch or worth.shape[0] != nch or cap.shape[0] != nch
            or key.shape[0] != KEEP_CARDS * nch or masks.shape[0] != KEEP_SUITS * nch):
        raise ValueError("exchange_keeps: every choice needs a size, worth, key, masks and cap")
    for s in range(m.nsuits):
        if first[s] > first[s + 1]:
            raise ValueError("exchange_keeps: the suits' choices out of order")
    for i in range(nch):
        if size[i] > KEEP_CARDS:
            raise ValueError("exchange_keeps: a choice of more than 16 cards")
    m.n = n
    m.first = &first[0]
    m.size = &size[0] if nch else NULL
    m.worth = &worth[0] if nch else NULL
    m.key = &key[0] if nch else NULL
    m.masks = &masks[0] if nch else NULL
    m.cap = &cap[0] if nch else NULL
    with nogil:
        r = keeps_make(&m)
    if r < 0:
        raise MemoryError("exchange_keeps: no memory for the keeps")
    try:
        rows = array.clone(_array.array("H"), KEEP_SUITS * m.count, False)
        caps = array.clone(_array.array("B"), m.count, False)
        picks = array.clone(_array.array("H"), m.nsuits * m.count, False)
        for i in range(m.count):
            k = &m.keeps[i]
            for s in range(KEEP_SUITS):
                rows.data.as_ushorts[KEEP_SUITS * i + s] = k.masks[s]
            caps.data.as_uchars[i] = k.cap
            for s in range(m.nsuits):
                picks.data.as_ushorts[m.nsuits * i + s] = k.pick[s]
    finally:
        free(m.keeps)
    return rows, caps, picks


def moves_in_progress_kept(int others, int live):
    """A check of _split.pxd's map of moves in progress, for the tests:
    mark one key, then mark and take back ``others`` other keys while
    ``live`` more stay marked (the marks of a search's path below a move
    near the root); returns (the first key still marked, the first key
    marked after it is taken back)."""
    cdef Split* sp = <Split*> calloc(1, sizeof(Split))
    cdef uint64_t x = 0x9E3779B97F4A7C15ULL, first = 0x1234567
    cdef int i
    if sp == NULL:
        raise MemoryError()
    split_init(sp)
    split_mark(sp, first)
    for i in range(live):
        x = x * 6364136223846793005ULL + 1442695040888963407ULL
        split_mark(sp, x | 1)
    for i in range(others):
        x = x * 6364136223846793005ULL + 1442695040888963407ULL
        if split_mark(sp, x | 1):
            split_unmark(sp, x | 1)
    kept = bool(split_busy(sp, first))
    split_unmark(sp, first)
    after = bool(split_busy(sp, first))
    free(sp)
    return kept, after
