# Making and unmaking a card: the only code that changes the position
# during a search.  play() records the trick state before the card, so
# unplay() restores it whole; both keep the table's length and joker keys
# (Ctx.lenkey, Ctx.jokkey) and the cards present (Ctx.pres) up to date.
#
# play() is made of the pieces below.  The search's own loop (_engine.pyx's
# search_node) uses them directly: the trick state before its node's cards
# is the same for every card, so it is kept once per node (not once per
# card), and the seat on turn, the card winning so far and, at the fourth
# card, who wins when the card does not, are worked out once per node
# (TrickView).
from libc.stdint cimport uint64_t

from _types cimport Ctx, TrickState, JOKERS


cdef struct TrickView:
    # What a node's cards are played against (trick_view): the card
    # winning the trick so far and, for the fourth card, the outcome when
    # that card does not win.
    int ws             # suit of the card winning so far, -1 if none (no card, or jokers only)
    int wb             # its power
    int wseat          # its seat
    uint64_t wbit      # at the fourth hand: W when the card winning so far stays the winner (0 unless another card of its suit was played)


cdef inline void take_card(Ctx* c, int h, int s, int b) noexcept nogil:
    """Seat h gives up card (s, b): its hand, the cards present and the keys."""
    c.hand[h][s] &= ~(1 << b)
    c.pres[s] &= ~(1 << b)
    c.lenkey -= c.lenstep[h][s]
    c.jokkey -= c.jokstep[h][s]


cdef inline void return_card(Ctx* c, int h, int s, int b) noexcept nogil:
    """take_card undone."""
    c.hand[h][s] |= (1 << b)
    c.pres[s] |= (1 << b)
    c.lenkey += c.lenstep[h][s]
    c.jokkey += c.jokstep[h][s]


cdef inline void trick_view(Ctx* c, TrickView* v) noexcept nogil:
    """Fill v for the cards of the seat on turn (st.nplayed > 0)."""
    cdef TrickState* st = &c.st
    cdef int wp = st.winpos
    cdef int i
    v.wbit = 0
    if wp < 0:
        v.ws = -1
        v.wb = 0
        v.wseat = 0
        return
    v.ws = st.tsuit[wp]
    v.wb = st.tbit[wp]
    v.wseat = (st.leader + wp) & 3
    if st.nplayed == 3:
        # another card of the winning card's suit among the three: in the
        # led suit, ledcards tells (a loop over the three cards was 1% of
        # the instructions of deal 41 of seed 1211)
        if v.ws == st.led:
            if st.ledcards & (st.ledcards - 1):
                v.wbit = (<uint64_t> 1) << (16 * v.ws + v.wb)
        else:
            for i in range(3):
                if i != wp and st.tsuit[i] == v.ws:
                    v.wbit = (<uint64_t> 1) << (16 * v.ws + v.wb)


cdef inline void lead_card(TrickState* st, int s, int b) noexcept nogil:
    """The trick state after the lead (s, b) (st: before it)."""
    st.tsuit[0] = s
    st.tbit[0] = b
    if s == JOKERS:
        st.led = -1
        st.winpos = -1
        st.ledcards = 0
    else:
        st.led = s
        st.winpos = 0
        st.ledcards = 1 << b
    st.nplayed = 1


cdef inline void follow_card(Ctx* c, TrickState* st, TrickView* v, int k, int s, int b) noexcept nogil:
    """The trick state after the second or third card (s, b) of a trick
    (k: 1 or 2, its place; v: trick_view before it)."""
    st.tsuit[k] = s
    st.tbit[k] = b
    if v.ws < 0:
        if s != JOKERS:
            st.winpos = k
            st.led = s
            st.ledcards = 1 << b
    else:
        if s == st.led:
            st.ledcards |= 1 << b
        if s == v.ws:
            if b > v.wb:
                st.winpos = k
        elif s == c.trump:
            st.winpos = k
    st.nplayed = k + 1


cdef inline uint64_t last_card(Ctx* c, TrickState* st, TrickView* v, int h, int s, int b) noexcept nogil:
    """The trick state after the fourth card (s, b), played by seat h (v:
    trick_view before it, never without a winner there).  Returns the
    winning card as a W bit when the trick is won by rank, else 0."""
    cdef int winner
    cdef uint64_t w
    st.tsuit[3] = s
    st.tbit[3] = b
    if s == st.led:
        st.ledcards |= 1 << b
    if s == v.ws:
        if b > v.wb:
            winner = h
            w = (<uint64_t> 1) << (16 * s + b)
        else:
            winner = v.wseat
            w = (<uint64_t> 1) << (16 * v.ws + v.wb)
    elif s == c.trump:
        winner = h
        w = 0
    else:
        winner = v.wseat
        w = v.wbit
    if (winner & 1) == 0:
        st.ns_won += 1
    st.left -= 1
    st.leader = winner
    st.nplayed = 0
    st.led = -1
    st.winpos = -1
    return w


cdef inline uint64_t follower_card(Ctx* c, TrickState* st, TrickView* v, int h, int k, int s,
                                   int b) noexcept nogil:
    """Seat h, the k-th (1-3) to play to the trick, plays card (s, b) (v:
    trick_view before it).  Returns the winning card as a W bit when this
    card completes a trick won by rank, else 0."""
    take_card(c, h, s, b)
    if k == 3:
        return last_card(c, st, v, h, s, b)
    follow_card(c, st, v, k, s, b)
    return 0


cdef inline uint64_t play(Ctx* c, int s, int b, int ply) noexcept nogil:
    """Play card (s, b) for the seat on turn, the trick state before it
    kept in c.saved[ply] for unplay.  Returns the winning card as a W bit
    when this card completes a trick won by rank, else 0."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef TrickView v
    c.saved[ply] = st[0]
    if k == 0:
        take_card(c, st.leader, s, b)
        lead_card(st, s, b)
        return 0
    trick_view(c, &v)
    return follower_card(c, st, &v, (st.leader + k) & 3, k, s, b)


cdef inline void unplay(Ctx* c, int s, int b, int ply) noexcept nogil:
    cdef int h
    c.st = c.saved[ply]
    h = (c.st.leader + c.st.nplayed) & 3
    return_card(c, h, s, b)
