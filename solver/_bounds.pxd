# Sure-trick bounds: at the start of a trick (and for the second hand),
# answer "can N-S take the target?" from tricks one side surely takes,
# without searching.
#
# For the side on lead: cash (a hand's own top cards), quick_tricks (the
# best of cashing, crossing to partner's winners, trump length and top
# trumps, partner_ruff).  For the side not on lead: other_tricks (top
# trumps, trump length, every_lead_loses; at no-trump win_and_cash for each
# lead).  Each bound also reports W, the cards whose ranks it relied on,
# so a stored table entry stays valid for every position that agrees on
# them (see _engine.pyx).
from libc.stdint cimport uint32_t, uint64_t

from _types cimport Ctx, TrickState, JOKERS, NSUITS
from _bits cimport popc, lowbit, highbit, present, owner

cdef inline int nontrumps(Ctx* c, int h) noexcept nogil:
    """Cards of seat h outside the trump suit."""
    cdef int s, n = 0
    for s in range(NSUITS):
        if s != c.trump:
            n += popc(c.hand[h][s])
    return n


cdef inline int cash(Ctx* c, int h, uint64_t* wq, uint32_t* entries, int* side,
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


cdef inline int top_trumps(Ctx* c, int o, uint64_t* wq) noexcept nogil:
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


cdef inline uint64_t fewest_cards(int* sk, uint32_t* sw, int* want) noexcept nogil:
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


cdef inline int quick_tricks(Ctx* c, int h, uint64_t* wq, int need) noexcept nogil:
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


cdef inline int partner_ruff(Ctx* c, int h, uint64_t* wq) noexcept nogil:
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


cdef inline int win_and_cash(Ctx* c, int s, int h, int p, uint64_t* w) noexcept nogil:
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


cdef inline int every_lead_loses(Ctx* c, int h, uint64_t* wq) noexcept nogil:
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


cdef inline int other_tricks(Ctx* c, int h, uint64_t* wq, int enough) noexcept nogil:
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



cdef inline int bounds_at_lead(Ctx* c, int target, uint64_t* w, int want) noexcept nogil:
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


cdef inline int second_hand_bound(Ctx* c, int target, uint64_t* w) noexcept nogil:
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
