# Move generation and ordering: one card of every run of equivalent
# legal cards, best first.  Following suit, the order comes from the ranks
# (follow_mode); leading, each suit's cards come in groups ranked by the
# suit's lead_class (gen_lead); void, the ruffs, a joker, the bottom cards
# and the rest, in that order (gen_void).  The cards are emitted in their
# final order: no scores, no sort.
from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from _types cimport Ctx, Move, TrickState, JOKERS, NSUITS
from _bits cimport (popc, lowbit, highbit, lowbit64, highbit64, present, pext32, pdep32,
                    pdep64, four_suits, lane_lows, lane_run_starts)

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


cdef inline int follow_order(Ctx* c, int h, int k, uint32_t x, uint32_t* groups) noexcept nogil:
    """The order of seat h's cards when it follows suit (x, its run
    starts: run_starts), as three groups of run starts tried one group
    after the other: groups[0], the cheapest card that beats all the next
    hand's cards (or none); groups[1], the cards that beat the card
    winning so far; groups[2], the rest.  Within a group the lowest card
    comes first, except in groups[1] when the function returns 1 (from
    the top down: the next hand holds higher cards)."""
    cdef TrickState* st = &c.st
    cdef int s0 = st.led, mode
    cdef uint32_t win = 0, lhx, sure = 0
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
    cdef int down = follow_order(c, h, k, run_starts(c, h, c.st.led, k), groups)
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


cdef inline uint32_t top_five(uint32_t x, uint32_t rest, int n) noexcept nogil:
    """The cards of x (a hand's cards of a suit) among the top five of the
    suit's n cards still held (rest), as bits 4 (the highest) down to 0."""
    return (pext32(x, rest) << 5) >> n


cdef inline int lead_class(Ctx* c, int h, int s) noexcept nogil:
    """How promising ace lead from suit s is for seat h (higher is better)."""
    cdef int t = c.trump
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef uint32_t my = c.hand[h][s], pd = c.hand[p][s]
    cdef uint32_t lh = c.hand[lho][s], rh = c.hand[rho][s]
    cdef uint32_t rest
    cdef int n
    # the top five cards of the suit still held, as the bits of top_five
    # (in place of their masks, found one after the other: 0.4% fewer
    # instructions on deal 41 of seed 1211)
    cdef uint32_t ace = 16, king = 8, queen = 4, jack = 2, ten = 1
    cdef uint32_t tmy, tpd, tlh, trh, tours   # each hand's cards among them, and the side's
    if s == JOKERS:
        return -90
    if t >= 0:
        if s == t:
            return 0
        if (c.hand[lho][t] and not lh) or (c.hand[rho][t] and not rh):
            return -60             # an opponent ruffs
    rest = my | pd | lh | rh
    n = popc(rest)
    tmy = top_five(my, rest, n)
    tpd = top_five(pd, rest, n)
    tlh = top_five(lh, rest, n)
    trh = top_five(rh, rest, n)
    tours = tmy | tpd
    if popc(pd) >= 2 and popc(lh) >= 2:
        if (((tpd & king) and (tlh & ace))
                or ((tpd & ace) and (tlh & king) and ((tpd & queen) or ((tours & queen) and (tours & jack))))
                or ((tpd & king) and (tlh & queen) and ((tpd & jack) or ((tours & jack) and (tours & ten))))):
            return 65              # partner's tenace over LHO
    if popc(my) >= 2 and popc(rh) >= 2:
        # (at no-trump too: 0.6% fewer nodes over four sets of deals)
        if ((tmy & ace) and (trh & king)) or ((tmy & king) and (trh & ace) and not (tours & queen)):
            return -20             # a free finesse for RHO
    if (tpd & ace) and lh and rh:
        return 62                  # partner holds the top card
    if lh and rh and popc(tours & (ace | king | queen)) >= 2:
        return 60                  # a strong suit
    if (t >= 0 and not pd and lh and rh and c.hand[p][t]
            and popc(c.hand[p][t]) <= popc(c.hand[h][t]) and not (tmy & ace and popc(my) == 1)):
        # above partner's top card and the strong suits, below the tenace
        # (from 45, below the strong suits: nodes of full tables, with the
        # bottom card of every class led first, bridge-solver's 1k_deals
        # 601-640 50.61M -> 50.42M, 801-840 45.52M -> 45.53M, deal 41 of
        # seed 1211 14.85M -> 14.48M; 61, below partner's top card, and
        # 66, above the tenace, did less)
        return 63                  # partner ruffs
    if not pd or not lh or not rh:
        return 30
    return 40


cdef inline bint top_first(int cls) noexcept nogil:
    """Whether gen_lead leads a suit of class cls (lead_class) from the
    top before the bottom: the two classes where the opponents profit
    from the lead (cls < 0), a strong suit (60), partner's tenace (65)
    and a suit someone is void in (30).  Measured, nodes of full tables
    against the bottom card first in those three (the top card being the
    lowest of the suit's top run in both): bridge-solver's 1k_deals
    601-640 49.16M -> 48.33M, 801-840 44.72M -> 41.00M, 0-199 216.9M ->
    218.1M; seven seeded sets of 60 deals 456.0M -> 450.7M (deal 41 of
    seed 1211 14.13M -> 10.99M); seeds 1261, 1271, 1281 (not tuned on)
    71.13M -> 68.04M, 64.08M -> 64.01M, 59.98M -> 62.16M; the freak deals
    79.17M -> 52.38M, bridge-solver's 19 hard deals 182.7M -> 157.4M; but
    the downtown set 25.50M -> 28.21M (its deal 9: 6.45M -> 9.00M) and the
    hard set 52.44M -> 59.23M.  The top first in a suit of no class above
    (40) as well: 801-840 42.30M, the seven sets 459.0M; in the strong
    suits and the void ones only: deal 41 13.52M, 1k_deals 0-199 215.2M;
    in partner's top card's suits (62), the trump suit (0) or the
    ruffing suits (63) each alone: more on both 1k_deals parts."""
    return cls < 0 or cls == 30 or cls == 60 or cls == 65


cdef inline void put_move(Move* m, int s, int b) noexcept nogil:
    m.suit = s
    m.bit = b


cdef inline int push_up(Move* mv, int n, int s, uint32_t x) noexcept nogil:
    """Append the cards of x in suit s to mv[n:], lowest first."""
    while x:
        put_move(mv + n, s, lowbit(x))
        x &= x - 1
        n += 1
    return n


cdef inline int push_down(Move* mv, int n, int s, uint32_t x) noexcept nogil:
    """Append the cards of x in suit s to mv[n:], highest first."""
    cdef int b
    while x:
        b = highbit(x)
        put_move(mv + n, s, b)
        x ^= 1u << b
        n += 1
    return n


cdef inline int gen_follow(Ctx* c, Move* mv, int h, int k, uint32_t x) noexcept nogil:
    """gen_moves for a seat that follows suit with more than one run (x,
    its run starts), in follow_order's groups."""
    cdef uint32_t groups[3]
    cdef int s = c.st.led
    cdef int n
    if follow_order(c, h, k, x, groups):
        n = push_down(mv, push_up(mv, 0, s, groups[0]), s, groups[1])
    else:
        n = push_up(mv, push_up(mv, 0, s, groups[0]), s, groups[1])
    return push_up(mv, n, s, groups[2])


cdef inline int gen_void(Ctx* c, Move* mv, int h, int k) noexcept nogil:
    """gen_moves for a seat void in the led suit, likely cut-offs first:
      - the ruffs (unless partner wins the trick, or, second hand, partner
        last beats the led suit and the next hand: then with the rest):
        overruffing, the cheapest trump that beats the winning one
        first; LHO may overruff: from the highest trump down; else from
        the lowest up;
      - a joker at no-trump (the perfect discard);
      - the bottom card of each other suit, the longest suit first, and
        of two the same length one partner is void in (a little sooner);
        of two still tied the lower suit;
      - the rest (and the trumps not played to ruff) from the lowest rank
        up, of two the same rank the lower suit first."""
    cdef TrickState* st = &c.st
    cdef int t = c.trump, led = st.led, n = 0, i, s, key, rule
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3
    cdef int wsuit = st.tsuit[st.winpos], wbit = st.tbit[st.winpos]
    cdef uint64_t pres = four_suits(&c.pres[0])
    cdef uint64_t mine = four_suits(&c.hand[h][0])
    cdef uint64_t runs, lows, order
    cdef uint32_t tr = 0, lh, pd, ms, jk
    for i in range(k):
        if st.tsuit[i] < JOKERS:
            pres |= 1ULL << (16 * st.tsuit[i] + st.tbit[i])
    runs = lane_run_starts(mine, pres)
    lows = lane_lows(mine)
    if t >= 0:
        tr = <uint32_t> (runs >> (16 * t)) & 0xFFFF
        lows &= ~(0xFFFFULL << (16 * t))
        runs &= ~(0xFFFFULL << (16 * t))
    if tr:
        lh = c.hand[lho][led]
        pd = c.hand[p][led]
        if ((st.leader + st.winpos) & 3) == p and (k == 3 or (lh and wsuit == led and wbit > highbit(lh))):
            rule = 0                         # partner wins: no need to ruff
        elif (k == 1 and wsuit == led and pd and lh
                and highbit(pd) > wbit and highbit(pd) > highbit(lh)):
            rule = 0                         # second hand: partner, last, beats the led suit
        elif wsuit == t:
            rule = 1                         # overruff cheaply
        elif k == 3 or lh or not c.hand[lho][t]:
            rule = 2                         # the lowest trump wins
        else:
            rule = 3                         # LHO may overruff: ruff high
        if rule == 1:
            n = push_up(mv, n, t, tr & ~((2u << wbit) - 1))
            tr &= (2u << wbit) - 1
        elif rule == 2:
            n = push_up(mv, n, t, tr)
            tr = 0
        elif rule == 3:
            n = push_down(mv, n, t, tr)
            tr = 0
        runs |= (<uint64_t> tr) << (16 * t)
    jk = c.hand[h][JOKERS]
    if jk:
        put_move(mv + n, JOKERS, lowbit(jk))
        n += 1
    if lows:
        order = 0
        for s in range(4):
            ms = <uint32_t> (lows >> (16 * s)) & 0xFFFF
            if ms:
                key = popc(c.hand[h][s]) + (0 if c.hand[p][s] else 2)
                order |= 1ULL << (4 * key + 3 - s)
        while order:
            i = highbit64(order)
            order ^= 1ULL << i
            s = 3 - (i & 3)
            put_move(mv + n, s, lowbit64(lows >> (16 * s)))    # (lows: not the hand read again)
            n += 1
        runs &= ~lows
    if runs:
        order = (pdep64(runs & 0xFFFF, 0x1111111111111111ULL)
                 | pdep64((runs >> 16) & 0xFFFF, 0x2222222222222222ULL)
                 | pdep64((runs >> 32) & 0xFFFF, 0x4444444444444444ULL)
                 | pdep64(runs >> 48, 0x8888888888888888ULL))
        while order:
            i = lowbit64(order)
            order &= order - 1
            put_move(mv + n, i & 3, i >> 2)
            n += 1
    return n


cdef inline uint32_t move_code(int s, int b) noexcept nogil:
    """The card of suit s and power b as the two bytes of a Move (suit,
    then bit) read as one little-endian 16-bit word (put_code)."""
    return (<uint32_t> b << 8) | <uint32_t> s


cdef inline void put_code(Move* m, uint32_t code) noexcept nogil:
    """Write the move of code (move_code, the low 16 bits of code) to m:
    one 16-bit store in place of two byte stores (the search core already
    reads the hands little-endian: four_suits)."""
    cdef uint16_t v = <uint16_t> code
    memcpy(m, &v, 2)


cdef inline uint32_t lead_key(int score, int s, int b) noexcept nogil:
    """A card (s, b) of gen_lead as one sortable key: its group's score
    (higher first; -256 < score < 768), then the suit (the lower first),
    then the rank (the lower first: only the middle cards of a suit share
    a group), then the card as a move code (move_code) in the low 16
    bits."""
    return ((<uint32_t> (score + 256) << 22) | (<uint32_t> (3 - s) << 20)
            | (<uint32_t> (15 - b) << 16) | move_code(s, b))


cdef inline int add_key(uint32_t* keys, int n, uint32_t k) noexcept nogil:
    """Insert the key k (lead_key) into keys[:n], kept best first (the
    greatest key first; no two cards share a key).  Returns the new count.
    (In place of a sort of the whole list after it was made: 0.9% fewer
    instructions on deal 41 of seed 1211.)"""
    cdef int j = n
    while j > 0 and keys[j - 1] < k:
        keys[j] = keys[j - 1]
        j -= 1
    keys[j] = k
    return n + 1


cdef inline int gen_lead(Ctx* c, Move* mv, int h) noexcept nogil:
    """gen_moves for the leader (or after a joker lead at no-trump).  A
    suit's cards come in groups, each with a score from the suit's class
    cls (lead_class), tried from the best score down (a tie: the lower suit
    first); the middle cards of a suit from the lowest up:
      - a sure winner unless ruffed (cls > -60): cash it first within its
        class, and before the low-class suits: max(cls, 1) * 4 + 3;
      - the bottom card and the top one (the lowest card of the top run
        left), in the order top_first says: cls * 4 + 2 for the first of
        them, + 1 for the other;
      - the middle cards: cls * 4;
      - at no-trump, one joker (they are interchangeable) last.
    Each card goes into its place as it is made, as one key (lead_key)
    that carries the move: no list of groups to read back."""
    cdef uint64_t pres = four_suits(&c.pres[0])
    cdef uint64_t runs = lane_run_starts(four_suits(&c.hand[h][0]), pres)
    cdef uint32_t keys[16]     # the cards, best first
    cdef int n = 0, s, cls, top, b, i
    cdef bint up
    cdef uint32_t r, my, others
    for s in range(4):
        r = <uint32_t> (runs >> (16 * s)) & 0xFFFF
        if not r:
            continue
        my = c.hand[h][s]
        cls = lead_class(c, h, s)
        if cls > -60:
            top = highbit(r)
            others = c.pres[s] & ~my
            if (others >> top) == 0:
                n = add_key(keys, n, lead_key((cls if cls > 1 else 1) * 4 + 3, s, top))
                r ^= 1u << top
                if not r:
                    continue
        up = top_first(cls)
        b = lowbit(my)
        if (r >> b) & 1:
            n = add_key(keys, n, lead_key(cls * 4 + (1 if up else 2), s, b))
            r ^= 1u << b
        if r:
            # (the top run's lowest card: before, the top card itself, so
            # that a top run of two or more cards, or one cashed above,
            # left the suit without a top card: a lead of hearts from
            # T9764 at clubs came low, and deal 39 of seed 1251 searched
            # 5.98M nodes against 4.17M)
            b = highbit(r)
            n = add_key(keys, n, lead_key(cls * 4 + (2 if up else 1), s, b))
            r ^= 1u << b
        while r:
            n = add_key(keys, n, lead_key(cls * 4, s, lowbit(r)))
            r &= r - 1
    for i in range(n):
        put_code(mv + i, keys[i])
    my = c.hand[h][JOKERS]
    if my:
        # at no-trump the jokers are interchangeable: one will do (last)
        put_move(mv + n, JOKERS, lowbit(my))
        n += 1
    return n


cdef inline int gen_suit(Ctx* c, Move* mv, int h, int k, uint32_t x) noexcept nogil:
    """gen_moves for seat h following suit with more than one run (x, its
    run starts: run_starts): the order comes straight from the ranks."""
    cdef TrickState* st = &c.st
    cdef int s = st.led
    if st.tsuit[st.winpos] != s or highbit(c.hand[h][s]) <= st.tbit[st.winpos]:
        return push_up(mv, 0, s, x)      # cannot win the trick: lowest first
    return gen_follow(c, mv, h, k, x)


cdef inline int gen_moves(Ctx* c, int ply) noexcept nogil:
    """Fill c.moves[ply] with one card of every run of equivalent legal
    cards, best first.  Returns how many."""
    cdef TrickState* st = &c.st
    cdef int k = st.nplayed
    cdef int h = (st.leader + k) & 3
    cdef Move* mv = c.moves[ply]
    cdef int s = st.led
    cdef uint32_t x
    if k > 0 and s >= 0:
        if not c.hand[h][s]:
            return gen_void(c, mv, h, k)
        x = run_starts(c, h, s, k)
        if x & (x - 1) == 0:
            put_move(mv, s, lowbit(x))
            return 1
        return gen_suit(c, mv, h, k, x)
    return gen_lead(c, mv, h)
