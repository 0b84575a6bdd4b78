# Making and unmaking a card: the only code that changes the position
# during a search.  play() records the trick state before the card, so
# unplay() restores it whole; both keep the table's length and joker keys
# (Ctx.lenkey, Ctx.jokkey) and the cards present (Ctx.pres) up to date.
from libc.stdint cimport uint64_t

from _types cimport Ctx, TrickState, JOKERS

cdef inline uint64_t play(Ctx* c, int s, int b, int ply) noexcept nogil:
    """Play card (s, b) for the seat on turn.  Returns the winning card as a
    W bit when this card completes a trick won by rank, else 0."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef int i, win_suit, wp, winner, byrank
    c.saved[ply] = st[0]
    c.hand[h][s] &= ~(1 << b)
    c.pres[s] &= ~(1 << b)
    c.lenkey -= c.lenstep[h][s]
    c.jokkey -= c.jokstep[h][s]
    st.tsuit[k] = s
    st.tbit[k] = b
    if k == 0:
        if s == JOKERS:
            st.led = -1
            st.winpos = -1
            st.ledcards = 0
        else:
            st.led = s
            st.winpos = 0
            st.ledcards = 1 << b
    elif st.winpos < 0:
        if s != JOKERS:
            st.winpos = k
            st.led = s
            st.ledcards = 1 << b
    else:
        if s == st.led:
            st.ledcards |= 1 << b
        win_suit = st.tsuit[st.winpos]
        if s == win_suit:
            if b > st.tbit[st.winpos]:
                st.winpos = k
        elif s == c.trump:
            st.winpos = k
    if k < 3:
        st.nplayed = k + 1
        return 0
    wp = st.winpos
    win_suit = st.tsuit[wp]
    byrank = 0
    for i in range(4):
        if i != wp and st.tsuit[i] == win_suit:
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
        return (<uint64_t> 1) << (16 * win_suit + st.tbit[wp])
    return 0


cdef inline void unplay(Ctx* c, int s, int b, int ply) noexcept nogil:
    cdef int h
    c.st = c.saved[ply]
    h = (c.st.leader + c.st.nplayed) & 3
    c.hand[h][s] |= (1 << b)
    c.pres[s] |= (1 << b)
    c.lenkey += c.lenstep[h][s]
    c.jokkey += c.jokstep[h][s]

