# Move generation and ordering: one card of every run of equivalent
# legal cards, best first.  Following suit, the order comes from the ranks
# (follow_mode); leading or void, each card gets a score (lead_class for a
# lead's suit, score_moves for the card) and the list is sorted.
from libc.stdint cimport uint32_t

from _types cimport Ctx, Move, TrickState, JOKERS, NSUITS
from _bits cimport popc, lowbit, highbit, present, pext32, pdep32

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


cdef inline int follow_mode(Ctx* c, int h, int k) noexcept nogil:
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
    if s == c.st.led:
        pres |= c.st.ledcards
    else:
        for i in range(k):
            if c.st.tsuit[i] == s:
                pres |= 1u << c.st.tbit[i]
    x = pext32(c.hand[h][s], pres)
    return pdep32(x & ~(x << 1), pres)


cdef inline int follow_order(Ctx* c, int h, int k, uint32_t* groups) noexcept nogil:
    """The order of seat h's cards when it follows suit, as three groups of
    run starts tried one group after the other: groups[0], the cheapest
    card that beats all the next hand's cards (or none); groups[1], the
    cards that beat the card winning so far; groups[2], the rest.  Within
    a group the lowest card comes first, except in groups[1] when the
    function returns 1 (from the top down: the next hand holds higher
    cards)."""
    cdef TrickState* st = &c.st
    cdef int s0 = st.led, mode
    cdef uint32_t x, win = 0, lhx, sure = 0
    x = run_starts(c, h, s0, k)
    mode = follow_mode(c, h, k)
    if mode != 0:
        win = x & ~((2u << st.tbit[st.winpos]) - 1)
        if mode == 2:
            lhx = c.hand[(h + 1) & 3][s0]
            sure = win & ~((2u << highbit(lhx)) - 1) if lhx else win
            sure &= 0u - sure
            win &= ~sure
    groups[0] = sure
    groups[1] = win
    groups[2] = x & ~(sure | win)
    return mode == 2


cdef inline int follow_first(Ctx* c, int h, int k, uint32_t* runs) noexcept nogil:
    """The card gen_moves puts first when seat h follows suit (before the
    cut-off cache has its say), for a caller that plays only the first
    card (probe_trick); runs receives the run starts gen_moves makes its
    moves of."""
    cdef uint32_t groups[3]
    cdef int down = follow_order(c, h, k, groups)
    runs[0] = groups[0] | groups[1] | groups[2]
    if groups[0]:
        return lowbit(groups[0])
    if groups[1]:
        return highbit(groups[1]) if down else lowbit(groups[1])
    return lowbit(groups[2])


cdef inline void move_to_front(Move* mv, int i) noexcept nogil:
    """Move mv[i] to the front of the list, the moves before it one place
    down (their order kept)."""
    cdef Move tmp = mv[i]
    while i > 0:
        mv[i] = mv[i - 1]
        i -= 1
    mv[0] = tmp


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


cdef inline int gen_moves(Ctx* c, int ply) noexcept nogil:
    """Fill c.moves[ply] with one card of every run of equivalent legal
    cards, best first.  Returns how many."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef Move* mv = c.moves[ply]
    cdef int n = 0, s, s0, s1, i, j, down
    cdef uint32_t mine
    cdef uint32_t groups[3]
    cdef Move tmp
    playable_suits(c, h, &s0, &s1)
    if k > 0 and s1 == s0 + 1:
        # following suit: the order comes straight from the ranks
        down = follow_order(c, h, k, groups)
        n = push_cards(mv, n, s0, groups[0], 0)
        n = push_cards(mv, n, s0, groups[1], down)
        return push_cards(mv, n, s0, groups[2], 0)
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
    cdef uint32_t others = present(c, s) & ~c.hand[h][s]
    return others == 0 or b > highbit(others)


cdef inline uint32_t top_card(uint32_t x) noexcept nogil:
    """The highest card of x as a mask, 0 if none."""
    return (1u << highbit(x)) if x else 0


cdef inline int lead_class(Ctx* c, int h, int s) noexcept nogil:
    """How promising ace lead from suit s is for seat h (higher is better)."""
    cdef int t = c.trump
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef uint32_t my = c.hand[h][s], pd = c.hand[p][s]
    cdef uint32_t lh = c.hand[lho][s], rh = c.hand[rho][s]
    cdef uint32_t ours = my | pd, rest
    cdef uint32_t ace, king, queen, jack, ten   # the top five cards of the suit still held
    if s == JOKERS:
        return -90
    if t >= 0:
        if s == t:
            return 0
        if (c.hand[lho][t] and not lh) or (c.hand[rho][t] and not rh):
            return -60             # an opponent ruffs
    rest = my | pd | lh | rh
    ace = top_card(rest)
    rest ^= ace
    king = top_card(rest)
    rest ^= king
    queen = top_card(rest)
    rest ^= queen
    jack = top_card(rest)
    rest ^= jack
    ten = top_card(rest)
    if popc(pd) >= 2 and popc(lh) >= 2:
        if (((pd & king) and (lh & ace))
                or ((pd & ace) and (lh & king) and ((pd & queen) or ((ours & queen) and (ours & jack))))
                or ((pd & king) and (lh & queen) and ((pd & jack) or ((ours & jack) and (ours & ten))))):
            return 65              # partner's tenace over LHO
    if popc(my) >= 2 and popc(rh) >= 2:
        # (at no-trump too: 0.6% fewer nodes over four sets of deals)
        if ((my & ace) and (rh & king)) or ((my & king) and (rh & ace) and not (ours & queen)):
            return -20             # a free finesse for RHO
    if (pd & ace) and lh and rh:
        return 62                  # partner holds the top card
    if lh and rh and popc(ours & (ace | king | queen)) >= 2:
        return 60                  # a strong suit
    if (t >= 0 and not pd and lh and rh and c.hand[p][t]
            and popc(c.hand[p][t]) <= popc(c.hand[h][t]) and not (my & ace and popc(my) == 1)):
        return 45                  # partner ruffs
    if not pd or not lh or not rh:
        return 30
    return 40


cdef inline void score_moves(Ctx* c, Move* mv, int n, int h, int k) noexcept nogil:
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

