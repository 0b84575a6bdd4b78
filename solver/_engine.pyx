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
"""
from libc.stdint cimport int8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from _types cimport (Ctx, CutEntry, Move, TrickState, TTable, TTPage, TTSlot, JOKERS, MAXPLY,
                     MAXMOVES, NSUITS, CUTBITS)

cdef enum:
    # Leads' tricks are probed before searching with at least this many
    # tricks left: 10 in a deal of 13 tricks, 9 in shorter ones (measured:
    # on 13-card tables 10 searches 3% more nodes than 9 but runs 4.6%
    # fewer instructions; on 12-card bid whist deals 9 searches 7% fewer
    # nodes than 10 for about the same instructions).
    PROBE_LEFT_FULL = 10
    PROBE_LEFT = 9
    # With at least this many tricks left the table is asked before the
    # sure-trick bounds (cachegrind: bounds first everywhere costs 7-8%
    # more instructions; 3, 4 and 5 are within 1.5% of one another, 3
    # searching 2-3% more nodes than 5; nearer the end the bounds answer
    # most lead nodes and cost less than a table probe).
    TT_FIRST = 4
from _tt cimport tt_init, tt_free, tt_clear, tt_probe, tt_store

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

cdef extern from *:
    """
    /* Gather the bits of x selected by m into the low bits (bit extract). */
    /* Scatter the low bits of x to the bits set in m (bit deposit). */
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline unsigned int ws_pext(unsigned int x, unsigned int m) { return _pext_u32(x, m); }
    static inline unsigned int ws_pdep(unsigned int x, unsigned int m) { return _pdep_u32(x, m); }
    #else
    static inline unsigned int ws_pext(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) { if (x & m & (0u - m)) r |= bit; m &= m - 1; bit <<= 1; }
        return r;
    }
    static inline unsigned int ws_pdep(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) { if (x & bit) r |= m & (0u - m); m &= m - 1; bit <<= 1; }
        return r;
    }
    #endif
    /* Spread the 16 low bits of x to the even bits of a 32-bit word. */
    static inline unsigned int ws_spread(unsigned int x) {
        x &= 0xFFFFu;
        x = (x | (x << 8)) & 0x00FF00FFu;
        x = (x | (x << 4)) & 0x0F0F0F0Fu;
        x = (x | (x << 2)) & 0x33333333u;
        x = (x | (x << 1)) & 0x55555555u;
        return x;
    }
    """
    unsigned int ws_pext(unsigned int x, unsigned int m) nogil
    unsigned int ws_pdep(unsigned int x, unsigned int m) nogil
    unsigned int ws_spread(unsigned int x) nogil


cdef inline int popc(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)


cdef inline int lowbit(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)


cdef inline int highbit(uint32_t x) noexcept nogil:
    return 31 - __builtin_clz(x)


cdef inline uint32_t present(Ctx* c, int s) noexcept nogil:
    """Cards of suit s still held by anyone."""
    return c.hand[0][s] | c.hand[1][s] | c.hand[2][s] | c.hand[3][s]


cdef inline int owner(Ctx* c, int s, int b) noexcept nogil:
    cdef int h
    for h in range(4):
        if (c.hand[h][s] >> b) & 1:
            return h
    return -1


# ---------------------------------------------------------------------------
# Making and unmaking a card

cdef inline uint64_t play(Ctx* c, int s, int b, int ply) noexcept nogil:
    """Play card (s, b) for the seat on turn.  Returns the winning card as a
    W bit when this card completes a trick won by rank, else 0."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int i, ws, wp, winner, byrank
    c.saved[ply] = st[0]
    c.hand[h][s] &= ~(1 << b)
    c.lenkey -= c.lenstep[h][s]
    c.jokkey -= c.jokstep[h][s]
    st.tsuit[k] = s
    st.tbit[k] = b
    if k == 0:
        if s == JOKERS:
            st.led = -1
            st.winpos = -1
        else:
            st.led = s
            st.winpos = 0
    elif st.winpos < 0:
        if s != JOKERS:
            st.winpos = k
            st.led = s
    else:
        ws = st.tsuit[st.winpos]
        if s == ws:
            if b > st.tbit[st.winpos]:
                st.winpos = k
        elif s == c.trump:
            st.winpos = k
    if k < 3:
        st.nplayed = k + 1
        return 0
    wp = st.winpos
    ws = st.tsuit[wp]
    byrank = 0
    for i in range(4):
        if i != wp and st.tsuit[i] == ws:
            byrank = 1
    winner = (st.leader + wp) & 3
    if (winner & 1) == 0:
        st.ns_won += 1
    st.left -= 1
    st.leader = winner
    st.nplayed = 0
    st.led = -1
    st.winpos = -1
    if byrank:
        return (<uint64_t> 1) << (16 * ws + st.tbit[wp])
    return 0


cdef inline void unplay(Ctx* c, int s, int b, int ply) noexcept nogil:
    cdef int h
    c.st = c.saved[ply]
    h = (c.st.leader + c.st.nplayed) & 3
    c.hand[h][s] |= (1 << b)
    c.lenkey += c.lenstep[h][s]
    c.jokkey += c.jokstep[h][s]


# ---------------------------------------------------------------------------
# Sure tricks for the side on lead

cdef inline int nontrumps(Ctx* c, int h) noexcept nogil:
    """Cards of seat h outside the trump suit."""
    cdef int s, n = 0
    for s in range(NSUITS):
        if s != c.trump:
            n += popc(c.hand[h][s])
    return n


cdef int cash(Ctx* c, int h, uint64_t* wq, uint32_t* entries, int* side,
              int* sk, uint32_t* sw, uint64_t* must) noexcept nogil:
    """Tricks seat h can cash one after another with its own top cards
    (cards higher than every card of the suit in the other three hands; the
    smaller cards too once the top ones outlast every other hand), counting
    a side suit only as long as no opponent with trumps is void in it,
    unless h has the top trumps to draw the opponents' trumps first.

    Sets wq to the cards counted where they beat other cards, `entries` to
    the suits (bit per suit) where a small card led by partner would reach a
    winner of h straight away (no ruff possible), and `side` to the tricks
    counted outside the trump suit.  sk[s] and sw[s] receive the tricks
    counted in each suit and the cards among them whose rank matters; `must`
    the top trumps that draw the opponents' trumps when some side suit's
    count relies on it."""
    cdef int s, k, kc, o, cap, n
    cdef uint32_t mine, others, cards, wtop
    cdef int t = c.trump
    cdef int q = 0
    cdef int drawn = 0
    cdef uint32_t drawers = 0
    wq[0] = 0
    entries[0] = 0
    side[0] = 0
    must[0] = 0
    for s in range(4):
        sk[s] = 0
        sw[s] = 0
    if t >= 0 and c.hand[h][t]:
        others = c.hand[(h + 1) & 3][t] | c.hand[(h + 2) & 3][t] | c.hand[(h + 3) & 3][t]
        drawers = c.hand[h][t] & ~((2u << highbit(others)) - 1) if others else 0
        k = popc(drawers) if others else popc(c.hand[h][t])
        o = popc(c.hand[(h + 1) & 3][t])
        cap = popc(c.hand[(h + 3) & 3][t])
        drawn = k >= o and k >= cap
    for s in range(4):
        mine = c.hand[h][s]
        if not mine:
            continue
        others = c.hand[(h + 1) & 3][s] | c.hand[(h + 2) & 3][s] | c.hand[(h + 3) & 3][s]
        if others:
            cards = mine & ~((2u << highbit(others)) - 1)
        else:
            cards = mine
        k = popc(cards)
        if k == 0:
            continue
        wtop = cards
        o = popc(c.hand[(h + 1) & 3][s])
        cap = popc(c.hand[(h + 2) & 3][s])
        if cap > o:
            o = cap
        cap = popc(c.hand[(h + 3) & 3][s])
        if cap > o:
            o = cap
        if k >= o:
            # the top cards outlast every other hand's cards of the suit:
            # the small ones win too, by length
            cards = mine
            k = popc(mine)
        kc = k
        if t >= 0 and s != t:
            cap = 99
            o = (h + 1) & 3
            if c.hand[o][t] and popc(c.hand[o][s]) < cap:
                cap = popc(c.hand[o][s])
            o = (h + 3) & 3
            if c.hand[o][t] and popc(c.hand[o][s]) < cap:
                cap = popc(c.hand[o][s])
            if kc > cap:
                kc = cap
            if k > cap:
                if drawn:
                    must[0] = (<uint64_t> drawers) << (16 * t)
                else:
                    # the top `cap` of them still win
                    n = k - cap
                    while n > 0:
                        cards &= cards - 1
                        n -= 1
                    k = cap
        if k == 0:
            continue
        sk[s] = k
        if others:
            sw[s] = cards & wtop
            wq[0] |= (<uint64_t> (cards & wtop)) << (16 * s)
        if kc > 0:
            entries[0] |= 1u << s
        if s != t:
            side[0] += k
        q += k
    return q


cdef inline int trump_length(Ctx* c, int h) noexcept nogil:
    """Sure trump tricks of seat h's side by length: every trump of the
    longer trump hand wins unless an opponent's trump is in its trick.
    Depends on suit lengths only."""
    cdef int t = c.trump
    cdef int a = popc(c.hand[h][t]), b = popc(c.hand[(h + 2) & 3][t])
    if b > a:
        a = b
    return a - popc(c.hand[(h + 1) & 3][t]) - popc(c.hand[(h + 3) & 3][t])


cdef int top_trumps(Ctx* c, int o, uint64_t* wq) noexcept nogil:
    """Sure tricks of the side of seat o with the top trumps: the run of
    top trumps the side holds, in either hand.  Each of them wins the trick
    it falls in, and two fall in one trick only when both hands must play
    one: the side takes at least as many as its longer trump hand holds
    trumps, up to the length of the run."""
    cdef int t = c.trump
    cdef uint32_t all_t = present(c, t)
    cdef uint32_t mine, seg
    cdef int top, holder, k = 0, b, lx, ly
    wq[0] = 0
    if not all_t:
        return 0
    top = highbit(all_t)
    holder = owner(c, t, top)
    if (holder & 1) != (o & 1):
        return 0
    mine = c.hand[holder][t] | c.hand[holder ^ 2][t]
    seg = 0
    while all_t:
        b = highbit(all_t)
        if not ((mine >> b) & 1):
            break
        seg |= 1u << b
        all_t &= ~(1u << b)
        k += 1
    lx = popc(c.hand[holder][t])
    ly = popc(c.hand[holder ^ 2][t])
    if lx < ly:
        lx = ly
    if k > lx:
        k = lx
    if all_t:
        wq[0] = (<uint64_t> seg) << (16 * t)
    return k


cdef uint64_t fewest_cards(int* sk, uint32_t* sw, int* want) noexcept nogil:
    """The cards whose ranks matter for `want` of the counted tricks, taken
    first from suits where no rank matters, then from the top of the rest
    (fewer cards fixed make a more general table entry).  Lowers want by
    the tricks taken."""
    cdef uint64_t w = 0
    cdef int s, r, n
    cdef uint32_t x, top
    for s in range(4):
        if want[0] <= 0:
            return w
        if sk[s] and not sw[s]:
            want[0] -= sk[s]
    for s in range(4):
        if want[0] <= 0:
            return w
        if sk[s] and sw[s]:
            r = sk[s] if sk[s] < want[0] else want[0]
            want[0] -= r
            x = sw[s]
            if r >= popc(x):
                top = x
            else:
                top = 0
                n = r
                while n > 0:
                    top |= 1u << highbit(x)
                    x &= ~(1u << highbit(x))
                    n -= 1
            w |= (<uint64_t> top) << (16 * s)
    return w


cdef int quick_tricks(Ctx* c, int h, uint64_t* wq, int need) noexcept nogil:
    """Sure tricks for the side of h, on lead: the best of h cashing its
    own top cards; h leading to partner's top cards in a suit where h has a
    card, partner then cashing its own (after h's, when partner has enough
    other cards to play to them); trump length; top trumps.

    In a trump contract a hand whose partner cashes side-suit winners must
    never be forced to ruff one (it would take the lead): the count of such
    winners is limited by that hand's cards outside the trump suit."""
    cdef uint64_t w1, w2
    cdef uint32_t ent1, ent2, entry
    cdef int p = (h + 2) & 3, s, t = c.trump
    cdef int side1, side2, room, q2a, qc, spare
    cdef int sk1[4]
    cdef int sk2[4]
    cdef uint32_t sw1[4]
    cdef uint32_t sw2[4]
    cdef uint64_t must1, must2, wentry = 0
    cdef int q = cash(c, h, wq, &ent1, &side1, sk1, sw1, &must1)
    cdef int q2 = cash(c, p, &w2, &ent2, &side2, sk2, sw2, &must2)
    cdef int best, variant = 1, want
    if t >= 0 and c.hand[p][t]:
        room = nontrumps(c, p)
        if side1 > room:
            q -= side1 - room
            side1 = room
            variant = 0       # some counted cards are dropped: keep every card in W
    best = q
    w1 = wq[0]
    entry = 0
    for s in range(4):
        if c.hand[h][s]:
            entry |= 1u << s
    if entry & ent2:
        # the entry: partner's top card of a suit where h has a card
        s = lowbit(entry & ent2)
        wentry = (<uint64_t> (1u << highbit(c.hand[p][s]))) << (16 * s)
        # partner alone, h leading a small card to it
        q2a = q2
        if t >= 0 and c.hand[h][t]:
            room = nontrumps(c, h) - 1
            if room < 0:
                room = 0
            if side2 > room:
                q2a = q2 - (side2 - room)
        if q2a > best:
            best = q2a
            wq[0] = w2
            variant = 2 if q2a == q2 else 0
        # h cashes first, then crosses to partner
        spare = -q2
        for s in range(NSUITS):
            spare += popc(c.hand[p][s])
        if spare >= q:
            qc = q2
            if t >= 0 and popc(c.hand[h][t]) > q - side1:
                room = nontrumps(c, h) - side1 - 1
                if room < 0:
                    room = 0
                if side2 > room:
                    qc = q2 - (side2 - room)
            qc += q
            if qc > best:
                best = qc
                wq[0] = w1 | w2
                variant = 3 if (qc - q) == q2 and variant != 0 else 0
    q = best
    if q >= need and need > 0:
        want = need
        if variant == 1:
            wq[0] = fewest_cards(sk1, sw1, &want) | must1
        elif variant == 2:
            wq[0] = fewest_cards(sk2, sw2, &want) | must2 | wentry
        elif variant == 3:
            wq[0] = fewest_cards(sk1, sw1, &want) | must1
            wq[0] |= fewest_cards(sk2, sw2, &want) | must2 | wentry
    if c.trump >= 0:
        q2 = trump_length(c, h)
        if q2 > q:
            q = q2
            wq[0] = 0
        q2 = top_trumps(c, h, &w2)
        if q2 > q:
            q = q2
            wq[0] = w2
        if q == 0:
            q = partner_ruff(c, h, wq)
    if q > c.st.left:
        q = c.st.left
    return q


cdef int partner_ruff(Ctx* c, int h, uint64_t* wq) noexcept nogil:
    """1 when h can lead a side suit that partner ruffs for a sure trick:
    partner is void in it and has trumps, left-hand opponent must follow
    suit or has no trumps, and right-hand opponent must follow suit or
    cannot overruff partner's top trump; else 0."""
    cdef int t = c.trump, s
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef uint32_t pt = c.hand[p][t]
    if not pt:
        return 0
    for s in range(4):
        if s == t or not c.hand[h][s] or c.hand[p][s]:
            continue
        if not c.hand[lho][s] and c.hand[lho][t]:
            continue
        if c.hand[rho][s] or not c.hand[rho][t]:
            wq[0] = 0
            return 1
        if highbit(pt) > highbit(c.hand[rho][t]):
            wq[0] = (<uint64_t> (1u << highbit(pt))) << (16 * t)
            return 1
    return 0


cdef int win_and_cash(Ctx* c, int s, int h, int p, uint64_t* w) noexcept nogil:
    """At no-trump, with h's side on lead: if the top card of suit s is an
    opponent's, the tricks the opponents surely take when suit s is led:
    that trick, then the top cards the winner cashes; 0 if h's side holds
    the top card.  w receives the cards whose ranks this uses."""
    cdef uint32_t pres = present(c, s)
    cdef int top, o, q
    cdef uint64_t wc
    cdef uint32_t ent
    cdef int side
    cdef int sk[4]
    cdef uint32_t sw[4]
    cdef uint64_t must
    w[0] = 0
    if not pres:
        return 0
    top = highbit(pres)
    o = owner(c, s, top)
    if o == h or o == p:
        return 0
    # the winner leads next without the card it won with
    c.hand[o][s] &= ~(1u << top)
    q = cash(c, o, &wc, &ent, &side, sk, sw, &must)
    c.hand[o][s] |= 1u << top
    w[0] = wc | ((<uint64_t> 1) << (16 * s + top))
    q += 1
    if q > c.st.left:
        q = c.st.left
    return q


cdef int every_lead_loses(Ctx* c, int h, uint64_t* wq) noexcept nogil:
    """With a trump suit: 1 when whatever h leads, the opponents win the
    trick with the top card of the suit (a trump lead: the top trump; a
    side suit: its top card, partner unable to ruff), else 0."""
    cdef int t = c.trump, s, o, p = (h + 2) & 3
    cdef uint32_t pres
    cdef uint64_t w = 0
    for s in range(4):
        if not c.hand[h][s]:
            continue
        pres = present(c, s)
        o = owner(c, s, highbit(pres))
        if (o & 1) == (h & 1):
            return 0
        if s != t and not c.hand[p][s] and c.hand[p][t]:
            return 0
        w |= (<uint64_t> (1u << highbit(pres))) << (16 * s)
    wq[0] = w
    return 1


cdef int other_tricks(Ctx* c, int h, uint64_t* wq, int enough) noexcept nogil:
    """Sure tricks for the side not on lead (h leads).  Only whether the
    count reaches `enough` matters to the caller: below it, the count may
    stop early (too high, but still below `enough`)."""
    cdef int q, q2, s, r, best, lho = (h + 1) & 3, p = (h + 2) & 3
    cdef uint64_t w, w2 = 0
    wq[0] = 0
    if c.trump >= 0:
        q = top_trumps(c, lho, wq)
        q2 = trump_length(c, lho)
        if q2 > q:
            q = q2
            wq[0] = 0
        if q == 0:
            q = every_lead_loses(c, h, wq)
        return q
    # No-trump: whatever h leads, an opponent holds the top card of that
    # suit and wins the trick, then cashes its own top cards.  The count is
    # the least over h's choices of lead.
    best = 99
    for s in range(4):
        if not c.hand[h][s]:
            continue
        r = win_and_cash(c, s, h, p, &w)
        if r < best:
            best = r
        if best == 0 or best < enough:
            wq[0] = 0
            return best
        wq[0] |= w
    if c.hand[h][JOKERS]:
        # a joker led: left-hand opponent names the suit with its card, so
        # the opponents choose a suit whose top card they hold, if left-hand
        # opponent has a card of it
        r = 0
        for s in range(4):
            if c.hand[lho][s]:
                q = win_and_cash(c, s, h, p, &w)
                if q > r:
                    r = q
                    w2 = w
        if r == 0:
            wq[0] = 0
            return 0
        if r < best:
            best = r
        wq[0] |= w2
    if best == 99:
        best = 0
        wq[0] = 0
    return best


# ---------------------------------------------------------------------------
# Move generation and ordering

cdef inline int beats(Ctx* c, int s, int b) noexcept nogil:
    """Would card (s, b) beat the card winning the current trick?"""
    cdef TrickState* st = &c.st
    if st.winpos < 0:
        return s != JOKERS
    cdef int ws = st.tsuit[st.winpos]
    if s == ws:
        return b > st.tbit[st.winpos]
    return s == c.trump


cdef inline void playable_suits(Ctx* c, int h, int* s0, int* s1) noexcept nogil:
    """The suits seat h may play from, as the range s0 <= suit < s1: the led
    suit when h holds it, else any (the jokers' suit included)."""
    cdef TrickState* st = &c.st
    if st.nplayed > 0 and st.led >= 0 and c.hand[h][st.led]:
        s0[0] = st.led
        s1[0] = st.led + 1
    else:
        s0[0] = 0
        s1[0] = NSUITS


cdef int follow_mode(Ctx* c, int h, int k) noexcept nogil:
    """How seat h, holding the led suit, orders its cards: 0 lowest first;
    1 the cheapest card that wins first; 2 the winners from the top down
    (after the cheapest one that beats all the next hand's cards, if any)."""
    cdef TrickState* st = &c.st
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3
    cdef int wseat = (st.leader + st.winpos) & 3
    cdef int wsuit = st.tsuit[st.winpos]
    cdef int wbit = st.tbit[st.winpos]
    cdef int last = k == 3
    cdef uint32_t lh = c.hand[lho][st.led]
    cdef uint32_t pd = c.hand[p][st.led]
    cdef uint32_t my = c.hand[h][st.led]
    cdef uint32_t higher
    if wsuit != st.led or highbit(my) <= wbit:
        return 0                   # cannot win the trick
    if wseat == p and (last or not lh or wbit > highbit(lh)
                       or (lh & ~((2u << wbit) - 1)) == (lh & ~((2u << highbit(my)) - 1))):
        return 0                   # partner wins it anyway
    if k == 1 and pd and highbit(pd) > wbit and (
            not lh or highbit(pd) > highbit(lh)
            or (highbit(lh) > highbit(pd | my)
                and (lh & ~((2u << highbit(pd)) - 1)) == (lh & ~((2u << highbit(my)) - 1)))):
        return 0                   # second hand low: partner covers
    higher = my & ~((2u << wbit) - 1)
    if last or not lh or lowbit(higher) > highbit(lh):
        return 1
    return 2


cdef inline uint32_t run_starts(Ctx* c, int h, int s, int k) noexcept nogil:
    """The lowest card of every run of seat h's cards in suit s, among the
    cards in play (held, or played to the current trick's first k cards):
    in relative ranks a card starts a run when the card below is not h's."""
    cdef uint32_t pres = present(c, s)
    cdef uint32_t x
    cdef int i
    for i in range(k):
        if c.st.tsuit[i] == s:
            pres |= 1u << c.st.tbit[i]
    x = ws_pext(c.hand[h][s], pres)
    return ws_pdep(x & ~(x << 1), pres)


cdef inline int push_cards(Move* mv, int n, int s, uint32_t x, int down) noexcept nogil:
    """Append the cards of x in suit s to mv[n:], lowest first (highest
    first with down); return the new count."""
    cdef int b
    while x:
        b = highbit(x) if down else lowbit(x)
        x &= ~(1u << b)
        mv[n].suit = s
        mv[n].bit = b
        n += 1
    return n


cdef int gen_moves(Ctx* c, int ply) noexcept nogil:
    """Fill c.moves[ply] with one card of every run of equivalent legal
    cards, best first.  Returns how many."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef Move* mv = c.moves[ply]
    cdef int n = 0, s, s0, s1, i, j, mode
    cdef uint32_t mine, x, win, lhx, sure
    cdef Move tmp
    playable_suits(c, h, &s0, &s1)
    if k > 0 and s1 == s0 + 1:
        # following suit: the order comes straight from the ranks
        x = run_starts(c, h, s0, k)
        mode = follow_mode(c, h, k)
        if mode != 0:
            # the cards that beat the card winning so far, first
            win = x & ~((2u << st.tbit[st.winpos]) - 1)
            if mode == 2:
                # the next hand holds higher cards: first the cheapest card
                # that beats all of them, if any, then from the top down
                lhx = c.hand[(h + 1) & 3][s0]
                sure = win & ~((2u << highbit(lhx)) - 1) if lhx else win
                sure &= 0u - sure
                if sure:
                    n = push_cards(mv, n, s0, sure, 0)
                    win &= ~sure
                    x &= ~sure
            n = push_cards(mv, n, s0, win, mode == 2)
            x &= ~win
        return push_cards(mv, n, s0, x, 0)
    for s in range(s0, s1):
        mine = c.hand[h][s]
        if not mine:
            continue
        if s == JOKERS:
            # at no-trump the jokers are interchangeable: one will do
            mv[n].suit = s
            mv[n].bit = lowbit(mine)
            n += 1
            continue
        n = push_cards(mv, n, s, run_starts(c, h, s, k), 0)
    score_moves(c, mv, n, h, k)
    # insertion sort, best first
    for i in range(1, n):
        tmp = mv[i]
        j = i - 1
        while j >= 0 and mv[j].score < tmp.score:
            mv[j + 1] = mv[j]
            j -= 1
        mv[j + 1] = tmp
    return n


cdef inline int is_top(Ctx* c, int h, int s, int b) noexcept nogil:
    """Is (s, b) higher than every card of suit s the other seats hold?"""
    cdef uint32_t others = c.hand[(h + 1) & 3][s] | c.hand[(h + 2) & 3][s] | c.hand[(h + 3) & 3][s]
    return others == 0 or b > highbit(others)


cdef inline uint32_t top_card(uint32_t x) noexcept nogil:
    """The highest card of x as a mask, 0 if none."""
    return (1u << highbit(x)) if x else 0


cdef int lead_class(Ctx* c, int h, int s) noexcept nogil:
    """How promising a lead from suit s is for seat h (higher is better)."""
    cdef int t = c.trump
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef uint32_t my = c.hand[h][s], pd = c.hand[p][s]
    cdef uint32_t lh = c.hand[lho][s], rh = c.hand[rho][s]
    cdef uint32_t ours = my | pd, allc, a, kk, q, j, tt
    if s == JOKERS:
        return -90
    if t >= 0:
        if s == t:
            return 0
        if (c.hand[lho][t] and not lh) or (c.hand[rho][t] and not rh):
            return -60             # an opponent ruffs
    allc = my | pd | lh | rh
    a = top_card(allc)
    allc ^= a
    kk = top_card(allc)
    allc ^= kk
    q = top_card(allc)
    allc ^= q
    j = top_card(allc)
    allc ^= j
    tt = top_card(allc)
    if popc(pd) >= 2 and popc(lh) >= 2:
        if (((pd & kk) and (lh & a))
                or ((pd & a) and (lh & kk) and ((pd & q) or ((ours & q) and (ours & j))))
                or ((pd & kk) and (lh & q) and ((pd & j) or ((ours & j) and (ours & tt))))):
            return 65              # partner's tenace over LHO
    if popc(my) >= 2 and popc(rh) >= 2:
        # (at no-trump too: 0.6% fewer nodes over four sets of deals)
        if ((my & a) and (rh & kk)) or ((my & kk) and (rh & a) and not (ours & q)):
            return -20             # a free finesse for RHO
    if (pd & a) and lh and rh:
        return 62                  # partner holds the top card
    if lh and rh and popc(ours & (a | kk | q)) >= 2:
        return 60                  # a strong suit
    if (t >= 0 and not pd and lh and rh and c.hand[p][t]
            and popc(c.hand[p][t]) <= popc(c.hand[h][t]) and not (my & a and popc(my) == 1)):
        return 45                  # partner ruffs
    if not pd or not lh or not rh:
        return 30
    return 40


cdef void score_moves(Ctx* c, Move* mv, int n, int h, int k) noexcept nogil:
    """Score the moves of a leader, or of a seat void in the led suit:
    likely cut-offs first.  (Following suit, gen_moves orders the cards
    itself, by follow_mode.)"""
    cdef int i, s, b, sc, t = c.trump
    cdef int p = (h + 2) & 3
    cdef int lho = (h + 1) & 3
    cdef int cls, wseat, wsuit, wbit, partner_win, last, s0
    cdef uint32_t my, lh, pd
    cdef TrickState* st = &c.st
    if k == 0 or st.led < 0:
        # leading (or free to choose after a joker lead at no-trump):
        # the top and the bottom card of each suit by its class
        cls = 0
        s0 = -1
        for i in range(n):
            s = mv[i].suit
            b = mv[i].bit
            if s != s0:
                cls = lead_class(c, h, s)
                s0 = s
            my = c.hand[h][s]
            if s != JOKERS and cls > -60 and is_top(c, h, s, b):
                # a sure winner unless ruffed: cash it first within its
                # class, and before the low-class suits
                sc = (cls if cls > 1 else 1) * 4 + 3
            elif s != JOKERS and b == lowbit(my):
                # then the low card (measured: better in every class but
                # the two where the opponents profit from the lead)
                sc = cls * 4 + (2 if cls >= 0 else 1)
            elif s != JOKERS and b == highbit(my):
                sc = cls * 4 + (1 if cls >= 0 else 2)
            else:
                sc = cls * 4             # a middle card: after the top and the low one
            mv[i].score = sc
        return
    wseat = (st.leader + st.winpos) & 3
    wsuit = st.tsuit[st.winpos]
    wbit = st.tbit[st.winpos]
    partner_win = wseat == p
    last = k == 3
    lh = c.hand[lho][st.led]
    pd = c.hand[p][st.led]
    # void in the led suit: ruff, or discard
    for i in range(n):
        s = mv[i].suit
        b = mv[i].bit
        my = c.hand[h][s]
        if s == t:
            if partner_win and (last or (lh and wsuit == st.led and wbit > highbit(lh))):
                sc = -b                      # partner wins: no need to ruff
            elif (k == 1 and wsuit == st.led and pd and lh
                    and highbit(pd) > wbit and highbit(pd) > highbit(lh)):
                sc = -b                      # second hand: partner, last, beats the led suit
            elif wsuit == t:
                sc = (300 - b) if b > wbit else -b   # overruff cheaply
            elif last or lh or not c.hand[lho][t]:
                sc = 300 - b                 # the lowest trump wins
            else:
                sc = 280 + b                 # LHO may overruff: ruff high
        elif s == JOKERS:
            sc = 260                         # a joker is the perfect discard at no-trump
        elif b == lowbit(my):
            # the bottom card of the longest suit first, from a suit
            # partner is void in a little sooner
            sc = 200 + popc(my) + (0 if c.hand[p][s] else 2)
        else:
            sc = -b
        mv[i].score = sc


# ---------------------------------------------------------------------------
# The search

cdef inline void trick_key(Ctx* c, uint64_t* key, uint16_t* key2, uint64_t* own) noexcept nogil:
    """Key (suit lengths, leader) and owner strings of the position at a
    trick boundary.  The owner string of a suit has two bits per card still
    in play, lowest card first: the seat that holds it."""
    cdef int s
    cdef uint32_t pres, lo, hi
    own[0] = 0
    own[1] = 0
    for s in range(4):
        pres = present(c, s)
        lo = ws_pext(c.hand[1][s] | c.hand[3][s], pres)
        hi = ws_pext(c.hand[2][s] | c.hand[3][s], pres)
        own[s >> 1] |= (<uint64_t> (ws_spread(lo) | (ws_spread(hi) << 1))) << (32 * (s & 1))
    key[0] = c.lenkey
    key2[0] = 0x8000 | c.st.leader | c.jokkey


cdef inline uint64_t pattern_cards(Ctx* c, uint64_t* msk) noexcept nogil:
    """The cards a table pattern covers in the current position: the top
    popcount(mask)/2 cards of each suit."""
    cdef uint64_t w = 0
    cdef int s, n
    cdef uint32_t pres, top
    for s in range(4):
        n = popc(<uint32_t> ((msk[s >> 1] >> (32 * (s & 1))) & 0xFFFFFFFFu)) >> 1
        if n == 0:
            continue
        pres = present(c, s)
        top = 0
        while n > 0 and pres:
            top |= 1u << highbit(pres)
            pres &= ~top
            n -= 1
        w |= (<uint64_t> top) << (16 * s)
    return w


cdef uint64_t close_and_store(Ctx* c, uint64_t w, uint64_t key, uint16_t key2,
                              uint64_t* own, int result, int need) noexcept nogil:
    """At a trick boundary: widen W to whole top segments (down through the
    run of its lowest card in each suit), store the bound, return the
    widened W."""
    cdef uint64_t msk[2]
    cdef uint64_t wout = 0
    cdef int s, b, o, nb
    cdef uint32_t pres, ws, below, seg
    msk[0] = 0
    msk[1] = 0
    for s in range(4):
        pres = present(c, s)
        ws = <uint32_t> ((w >> (16 * s)) & 0xFFFF) & pres
        if not ws:
            continue
        b = lowbit(ws)
        o = owner(c, s, b)
        below = pres & ((1u << b) - 1)
        while below:
            nb = highbit(below)
            if not ((c.hand[o][s] >> nb) & 1):
                break
            b = nb
            below &= ~(1u << nb)
        seg = pres & ~((1u << b) - 1)
        wout |= (<uint64_t> seg) << (16 * s)
        nb = popc(seg)
        # owner strings run from the lowest card: the top nb cards of the
        # suit are its last nb fields
        msk[s >> 1] |= ((((<uint64_t> 1) << (2 * nb)) - 1) << (2 * (popc(pres) - nb))) << (32 * (s & 1))
    if result:
        tt_store(&c.tt, key, key2, own, msk, need, c.st.left, c.st.left)
    else:
        tt_store(&c.tt, key, key2, own, msk, 0, need - 1, c.st.left)
    return wout


cdef uint64_t cut_key(Ctx* c, int target) noexcept nogil:
    """Key of the cut-off cache: what the choice of a card mostly depends
    on, so that one remembered card serves many similar positions.
    Leading: the hand on lead, partner's suit-length parities and the
    tricks still needed.  Following suit: every card of the led suit still
    in play, the card winning so far and the leader.  Void: the hand, the
    winner so far and the tricks needed."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int p = (h + 2) & 3, s, i
    cdef uint64_t a, b, need = 0
    cdef uint32_t pres
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
        pres = present(c, st.led)
        for i in range(k):
            if st.tsuit[i] == st.led:
                pres |= 1u << st.tbit[i]
        a = pres | (<uint64_t> st.led << 16) | (<uint64_t> st.tsuit[st.winpos] << 20) \
            | (<uint64_t> st.tbit[st.winpos] << 24) | (<uint64_t> st.leader << 30) \
            | (<uint64_t> h << 32)
        b = 2ULL << 30
    else:
        a = (<uint64_t> c.hand[h][0]) | (<uint64_t> c.hand[h][1] << 16) \
            | (<uint64_t> c.hand[h][2] << 32) | (<uint64_t> c.hand[h][3] << 48)
        b = c.hand[h][JOKERS] | (need << 8) | (<uint64_t> h << 16) | (3ULL << 30)
        if st.winpos >= 0:
            b |= (<uint64_t> ((st.leader + st.winpos) & 3)) << 20
            if c.trump >= 0:
                b |= (<uint64_t> (st.tsuit[st.winpos] * 16 + st.tbit[st.winpos] + 1)) << 32
    a ^= b * 0x9E3779B97F4A7C15ULL
    a *= 0xD6E8FEB86659FD93ULL
    return a ^ (a >> 29)


cdef inline void cut_first(Ctx* c, int ply, int n, uint64_t key) noexcept nogil:
    """Bring the move remembered for this kind of position to the front
    (the run of equivalent cards that holds the remembered card)."""
    cdef CutEntry* e = c.cut + (key >> (64 - CUTBITS))
    cdef int i, best = -1
    cdef Move tmp
    cdef Move* mv = c.moves[ply]
    if e.check != <uint32_t> key:
        return
    for i in range(n):
        if mv[i].suit == e.suit and mv[i].bit <= e.bit:
            if best < 0 or mv[i].bit > mv[best].bit:
                best = i
    if best <= 0:
        return
    i = best
    tmp = mv[i]
    while i > 0:
        mv[i] = mv[i - 1]
        i -= 1
    mv[0] = tmp


cdef inline void cut_store(Ctx* c, uint64_t key, int s, int b) noexcept nogil:
    cdef CutEntry* e = c.cut + (key >> (64 - CUTBITS))
    e.check = <uint32_t> key
    e.suit = s
    e.bit = b


cdef int bounds_at_lead(Ctx* c, int target, uint64_t* w, int want) noexcept nogil:
    """At a trick boundary, answer from the score and the sure tricks of
    both sides when they suffice: 1 or 0, with the deciding cards in w;
    -1 when they don't.  With want 0 or 1, only that answer is looked for
    (the sure tricks of the other side are not counted)."""
    cdef TrickState* st = &c.st
    cdef int h = st.leader
    cdef int ns_turn = (h & 1) == 0
    cdef int q
    w[0] = 0
    if st.ns_won >= target:
        return 1
    if st.ns_won + st.left < target:
        return 0
    # the side on lead's sure tricks can only answer in its favour, the
    # other side's in theirs
    if want < 0 or want == ns_turn:
        if ns_turn:
            q = quick_tricks(c, h, w, target - st.ns_won)
            if st.ns_won + q >= target:
                return 1
        else:
            q = quick_tricks(c, h, w, st.left - (target - st.ns_won) + 1)
            if st.ns_won + st.left - q < target:
                return 0
        if want >= 0:
            w[0] = 0
            return -1
    if ns_turn:
        q = other_tricks(c, h, w, st.ns_won + st.left - target + 1)
    else:
        q = other_tricks(c, h, w, target - st.ns_won)
    if q > 0:
        if ns_turn:
            if st.ns_won + st.left - q < target:
                return 0
        elif st.ns_won + q >= target:
            return 1
    w[0] = 0
    return -1


cdef int second_hand_bound(Ctx* c, int target, uint64_t* w) noexcept nogil:
    """Second to play: when the side on turn surely wins the current trick
    and that one trick decides the target, 1 or 0 (with the deciding card
    in w); -1 otherwise.  The side wins for sure when it holds the highest
    card of the led suit, above the card led and the third hand's cards,
    and the third hand cannot ruff; or when one of its hands can ruff and
    the third hand must follow suit."""
    cdef TrickState* st = &c.st
    cdef int L = st.led, t = c.trump
    cdef int h = (st.leader + 1) & 3, third = (st.leader + 2) & 3, p = (st.leader + 3) & 3
    cdef int ns_turn = (h & 1) == 0
    cdef uint32_t ours, th
    cdef int top, hh, q, need
    cdef uint64_t wc, must
    cdef uint32_t ent
    cdef int side
    cdef int sk[4]
    cdef uint32_t sw[4]
    w[0] = 0
    if L < 0:
        return -1
    # tricks the side on turn needs from here for its goal
    need = (target - st.ns_won) if ns_turn else (st.ns_won + st.left - target + 1)
    if t >= 0 and need > 1:
        return -1
    th = c.hand[third][L]
    if t >= 0 and L != t and not th and c.hand[third][t]:
        return -1                          # the third hand may ruff
    ours = c.hand[h][L] | c.hand[p][L]
    if ours and highbit(ours) > st.tbit[0] and (not th or highbit(ours) > highbit(th)):
        top = highbit(ours)
        w[0] = (<uint64_t> 1) << (16 * L + top)
        q = 1
        if q < need:
            # no-trump: the winner leads next and cashes its top cards (the
            # other cards that fall to this trick only help it)
            hh = h if (c.hand[h][L] >> top) & 1 else p
            c.hand[hh][L] &= ~(1u << top)
            q += cash(c, hh, &wc, &ent, &side, sk, sw, &must)
            c.hand[hh][L] |= 1u << top
            if q < need:
                w[0] = 0
                return -1
            w[0] |= wc
    elif not (t >= 0 and L != t and ((not c.hand[h][L] and c.hand[h][t])
                                     or (not c.hand[p][L] and c.hand[p][t]))):
        return -1
    return 1 if ns_turn else 0


cdef int probe_trick(Ctx* c, int target, int ply, int want) noexcept nogil:
    """Play out the current trick with each follower's first card in move
    order and look at the next trick boundary without searching: `want` if
    the bounds or the table answer so there, else 1 - want or -1."""
    cdef int s, b, n, r
    cdef uint64_t w, key
    cdef uint64_t own[2]
    cdef uint64_t msk[2]
    cdef uint16_t key2
    if c.st.nplayed == 0:
        r = bounds_at_lead(c, target, &w, want)
        if r < 0:
            trick_key(c, &key, &key2, own)
            r = tt_probe(&c.tt, key, key2, own, target - c.st.ns_won, msk)
        return r
    n = gen_moves(c, ply)
    if n > 1:
        cut_first(c, ply, n, cut_key(c, target))
    s = c.moves[ply][0].suit
    b = c.moves[ply][0].bit
    play(c, s, b, ply)
    r = probe_trick(c, target, ply + 1, want)
    unplay(c, s, b, ply)
    return r


cdef void promote_probed_leads(Ctx* c, int target, int ply, int n) noexcept nogil:
    """Try first the leads whose trick, played out greedily, reaches a
    position the bounds or the table already decide for the leader."""
    cdef Move* mv = c.moves[ply]
    cdef Move hits[MAXMOVES]
    cdef Move rest[MAXMOVES]
    cdef int i, nh = 0, nr = 0, r, s, b
    cdef int want = (c.st.leader & 1) == 0
    for i in range(n):
        s = mv[i].suit
        b = mv[i].bit
        play(c, s, b, ply)
        r = probe_trick(c, target, ply + 1, want)
        unplay(c, s, b, ply)
        if r == want:
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


cdef inline int table_answer(Ctx* c, int need, int ply, uint64_t* key, uint16_t* key2,
                             uint64_t* own) noexcept nogil:
    """At a trick boundary: the table's answer to "N-S take `need` more
    tricks?" (1, 0, or -1 unknown), with the cards of the deciding pattern
    in c.w[ply]; the position's key is left in key, key2, own for a store."""
    cdef uint64_t msk[2]
    cdef int r
    trick_key(c, key, key2, own)
    r = tt_probe(&c.tt, key[0], key2[0], own, need, msk)
    if r >= 0:
        c.w[ply] = pattern_cards(c, msk)
    return r


cdef int search(Ctx* c, int target, int ply) noexcept nogil:
    """1 if N-S can take `target` tricks in all (counting st.ns_won) from
    here, else 0.  Leaves in c.w[ply] the cards whose ranks decided it."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int ns_turn = (h & 1) == 0
    cdef uint64_t wq, wacc, wc, key = 0, ckey = 0
    cdef uint64_t own[2]
    cdef uint16_t key2 = 0
    cdef int n, i, r, q, s, b, need
    cdef int minrel[5]
    cdef uint32_t ws
    c.nodes += 1
    c.nodes_at[st.left & 15] += 1
    if k == 0:
        need = target - st.ns_won
        # the table first with many tricks left (where need is out of
        # range the bounds answer at once), else the bounds first
        if st.left >= TT_FIRST and need > 0 and need <= st.left:
            r = table_answer(c, need, ply, &key, &key2, own)
            if r >= 0:
                return r
        r = bounds_at_lead(c, target, &wq, -1)
        if r >= 0:
            c.w[ply] = wq
            return r
        if st.left < TT_FIRST:
            r = table_answer(c, need, ply, &key, &key2, own)
            if r >= 0:
                return r
    elif k == 1:
        r = second_hand_bound(c, target, &wq)
        if r >= 0:
            c.w[ply] = wq
            return r
    n = gen_moves(c, ply)
    if n > 1:
        ckey = cut_key(c, target)
        cut_first(c, ply, n, ckey)
        if k == 0 and st.left >= c.probe_left:
            promote_probed_leads(c, target, ply, n)
    wacc = 0
    minrel[0] = 0
    minrel[1] = 0
    minrel[2] = 0
    minrel[3] = 0
    minrel[4] = 0
    for i in range(n):
        s = c.moves[ply][i].suit
        b = c.moves[ply][i].bit
        if b < minrel[s]:
            continue  # a tried card of this suit showed this one's rank is irrelevant
        wc = play(c, s, b, ply)
        r = search(c, target, ply + 1)
        wc |= c.w[ply + 1]
        unplay(c, s, b, ply)
        if r == ns_turn:
            if i > 0:
                cut_store(c, ckey, s, b)
            if k == 0:
                c.w[ply] = close_and_store(c, wc, key, key2, own, r, need)
            else:
                c.w[ply] = wc
            return r
        wacc |= wc
        if s != JOKERS:
            # If the result did not depend on this card's rank, every card
            # of the suit below the lowest card that mattered gives the same
            # result (the positions agree on all cards that decided it).
            ws = <uint32_t> ((wc >> (16 * s)) & 0xFFFF)
            if not ws:
                minrel[s] = 16
            elif b < lowbit(ws) and lowbit(ws) > minrel[s]:
                minrel[s] = lowbit(ws)
    r = 1 - ns_turn
    if k == 0:
        c.w[ply] = close_and_store(c, wacc, key, key2, own, r, need)
    else:
        c.w[ply] = wacc
    return r


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

cdef class Core:
    """One search context with its transposition table.

    Positions are given in engine coordinates: cards as (suit, power) with
    suit 0..3 (or 4 for a joker at no-trump) and power 0..14, trump 0..3 or
    -1 for no-trump, seats 0..3 = N E S W."""
    cdef Ctx* c

    def __cinit__(self, size_t tt_bytes=64 * 1024 * 1024):
        self.c = <Ctx*> calloc(1, sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        self.c.cut = <CutEntry*> calloc(1 << CUTBITS, sizeof(CutEntry))
        self.c.probe_left = PROBE_LEFT
        if tt_init(&self.c.tt, tt_bytes) != 0 or self.c.cut == NULL:
            tt_free(&self.c.tt)
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
            tt_free(&self.c.tt)
            free(self.c.cut)
            free(self.c)

    @property
    def tt_bytes(self):
        return self.c.tt.nslots * sizeof(TTSlot) + self.c.tt.npages * sizeof(TTPage)

    @property
    def tt_resets(self):
        return self.c.tt.resets

    @property
    def tt_usage(self):
        """(shapes stored, slots, pattern pages used, pages)."""
        return (self.c.tt.used, self.c.tt.nslots, self.c.tt.pages_used, self.c.tt.npages)

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def tt_stores(self):
        return self.c.tt.stores

    @property
    def tt_hits(self):
        return self.c.tt.hits

    @property
    def node_profile(self):
        """Nodes searched at each number of tricks left."""
        return [self.c.nodes_at[i] for i in range(16)]

    def reset_nodes(self):
        self.c.nodes = 0
        memset(self.c.nodes_at, 0, sizeof(self.c.nodes_at))

    def clear(self):
        """Forget every stored bound and remembered cut-off."""
        tt_clear(&self.c.tt)
        memset(self.c.cut, 0, (1 << CUTBITS) * sizeof(CutEntry))

    def set_position(self, hands, int trump, int leader, trick=()):
        """hands: four lists of (suit, power), N E S W, the cards still
        held; trick: the (suit, power) cards already played to the current
        trick, from the leader on."""
        cdef Ctx* c = self.c
        cdef int h, s, b, i, k
        memset(c.hand, 0, sizeof(c.hand))
        for h in range(4):
            for s, b in hands[h]:
                c.hand[h][s] |= 1 << b
        c.trump = trump
        memset(&c.st, 0, sizeof(TrickState))
        c.st.leader = leader
        c.st.led = -1
        c.st.winpos = -1
        k = len(trick)
        # replay the current trick's cards through play() so the trick state
        # (led suit, winner) is derived by the same code as in the search;
        # the cards are first given back to their players.
        for i in range(k):
            s, b = trick[i]
            c.hand[(leader + i) & 3][s] |= 1 << b
        c.st.left = popc(c.hand[leader][0]) + popc(c.hand[leader][1]) + popc(c.hand[leader][2]) \
            + popc(c.hand[leader][3]) + popc(c.hand[leader][4])
        c.probe_left = PROBE_LEFT_FULL if c.st.left >= 13 else PROBE_LEFT
        c.lenkey = 0
        c.jokkey = 0
        for h in range(4):
            for s in range(5):
                c.lenkey += popc(c.hand[h][s]) * c.lenstep[h][s]
                c.jokkey += popc(c.hand[h][s]) * c.jokstep[h][s]
        for i in range(k):
            s, b = trick[i]
            play(c, s, b, 0)

    def value(self, int guess=-1):
        """Exact tricks N-S take from the position on (current trick
        included)."""
        cdef int v, g = guess
        if g < 0:
            g = (self.c.st.left + 1) // 2
        with nogil:
            v = exact(self.c, 0, g)
        return v

    def can_take(self, int target):
        """Null-window question: do N-S take at least `target` tricks?"""
        cdef int r
        with nogil:
            r = search(self.c, target, 0)
        return bool(r)

    def legal(self):
        cdef int suits[16]
        cdef int bits[16]
        cdef int n = legal_cards(self.c, suits, bits)
        return [(suits[i], bits[i]) for i in range(n)]

    def turn(self):
        return (self.c.st.leader + self.c.st.nplayed) & 3

    def tricks_left(self):
        return self.c.st.left

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
                    v = child_value(c, s, b, g)
                rep_value[rep] = v
                g = v
            out.append(((s, b), rep_value[rep]))
        return out

    def play_card(self, int s, int b):
        """Play a card for good (the root moves on)."""
        cdef uint64_t dummy = play(self.c, s, b, 0)

    def line(self, int value):
        """One optimal line to the end from the current root, given its
        exact N-S value.  The root advances to the end of the deal."""
        cdef Ctx* c = self.c
        cdef int suits[16]
        cdef int bits[16]
        cdef int n, i, h, ok, s, b, r
        out = []
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
                    play(c, s, b, 0)
                    if (h & 1) == 0:
                        r = search(c, value, 1)
                        ok = r
                    else:
                        r = search(c, value + 1, 1)
                        ok = 1 - r
                    unplay(c, s, b, 0)
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
