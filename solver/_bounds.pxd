# Sure-trick bounds: at the start of a trick (and for the second hand),
# answer "can N-S take the target?" from tricks one side surely takes,
# without searching.
#
# For the side on lead: quick_tricks (the best of a hand cashing its own
# top cards, crossing to partner's winners, trump length and top
# trumps, side-suit winners then trumps, partner_ruff, guarded_trump).  For
# the side not on lead: other_tricks (top trumps, trump length,
# every_lead_loses, guarded_trump; at no-trump win_and_cash for each lead,
# with cash_nt).
# Each bound also reports W, the cards whose ranks it relied on, so a
# stored table entry stays valid for every position that agrees on them
# (see _engine.pyx).
#
# Names: h is the seat whose side is counted for (the leader, unless said
# otherwise), p its partner, lho and rho its left- and right-hand
# opponents; s is a suit and b a card's power in it; a parameter w
# receives the W of the count returned.
from libc.stdint cimport uint32_t, uint64_t

from _types cimport Ctx, TrickState, JOKERS
from _bits cimport (popc, popc64, lowbit, highbit, present, owner, pdep32, pext64,
                   four_suits, suit_lanes, lane_suits, LANE_TOPS, LANE_LOWS)

cdef inline uint32_t top_k(uint32_t x, int k) noexcept nogil:
    """The k highest cards of x (all of x when it has no more than k)."""
    cdef int n = popc(x) - k
    if n <= 0:
        return x
    return pdep32(0xFFFFFFFFu << n, x)


cdef inline uint32_t top_suits(uint64_t mine, uint64_t pres) noexcept nogil:
    """The suits (bit per suit) where the cards `mine` (a four_suits word) hold
    the top card of those left (`pres`)."""
    cdef uint64_t above = (mine | LANE_TOPS) - (pres ^ mine)   # bit 15 of a suit: mine >= the others' cards
    return <uint32_t> pext64(above & (mine + LANE_LOWS) & LANE_TOPS,
                                LANE_TOPS)


cdef inline int cards_held(Ctx* c, int h) noexcept nogil:
    """Cards of seat h, the no-trump jokers included."""
    return popc64(four_suits(&c.hand[h][0])) + popc(c.hand[h][JOKERS])

cdef inline int nontrumps(Ctx* c, int h) noexcept nogil:
    """Cards of seat h outside the trump suit."""
    return cards_held(c, h) - popc(c.hand[h][c.trump])


cdef inline int cash_nt(Ctx* c, int h, int* suit_tricks, uint32_t* suit_ranked) noexcept nogil:
    """At no-trump: tricks seat h can cash one after another with its own
    top cards (cards higher than every card of the suit in the other three
    hands; the smaller cards too once the top ones outlast every other
    hand).  suit_tricks[s] and suit_ranked[s] receive the tricks counted in
    each suit and the cards among them whose rank matters (the top winners,
    as many as the longest other hand holds cards of the suit)."""
    cdef uint64_t pres4 = four_suits(&c.pres[0])
    cdef uint32_t tops = top_suits(four_suits(&c.hand[h][0]), pres4)
    cdef uint32_t mine, others
    cdef int s, count, cnt0, longest, length, total = 0
    for s in range(4):
        suit_tricks[s] = 0
        suit_ranked[s] = 0
    while tops:
        s = lowbit(tops)
        tops &= tops - 1
        mine = c.hand[h][s]
        others = c.pres[s] ^ mine
        longest = popc(c.hand[(h + 1) & 3][s])
        length = popc(c.hand[(h + 2) & 3][s])
        if length > longest:
            longest = length
        length = popc(c.hand[(h + 3) & 3][s])
        if length > longest:
            longest = length
        count = popc(mine)
        if others:
            cnt0 = popc(mine & ~((2u << highbit(others)) - 1))
            # only the top `longest` winners win by rank
            suit_ranked[s] = top_k(mine, cnt0 if cnt0 < longest else longest)
            if cnt0 < longest:
                count = cnt0
        suit_tricks[s] = count
        total += count
    return total


cdef inline int trump_length(Ctx* c, int h) noexcept nogil:
    """Sure trump tricks of seat h's side by length: every trump of the
    longer trump hand wins unless an opponent's trump is in its trick.
    Depends on suit lengths only."""
    cdef int trump = c.trump
    cdef int longer = popc(c.hand[h][trump]), partner_length = popc(c.hand[(h + 2) & 3][trump])
    if partner_length > longer:
        longer = partner_length
    return longer - popc(c.hand[(h + 1) & 3][trump]) - popc(c.hand[(h + 3) & 3][trump])


cdef inline int top_trumps(Ctx* c, int h, uint64_t* w) noexcept nogil:
    """Sure tricks of the side of seat h with the top trumps: the run of
    top trumps the side holds, in either hand.  Each of them wins the trick
    it falls in, and two fall in one trick only when both hands must play
    one: the side takes at least as many as its longer trump hand holds
    trumps, up to the length of the run."""
    cdef int trump = c.trump
    cdef uint32_t pres = present(c, trump)
    cdef uint32_t mine = c.hand[h][trump], partners = c.hand[h ^ 2][trump]
    cdef uint32_t ours = mine | partners
    cdef uint32_t theirs = pres ^ ours
    cdef uint32_t run
    cdef int tricks, longer
    w[0] = 0
    if not (ours > theirs):
        return 0                    # (no trumps left, or the top one is theirs)
    longer = popc(mine)
    tricks = popc(partners)
    if longer < tricks:
        longer = tricks
    if not theirs:
        tricks = popc(pres)
        return tricks if tricks < longer else longer
    # the run: our trumps above their top one
    run = pres & ~((2u << highbit(theirs)) - 1)
    tricks = popc(run)
    if tricks > longer:
        tricks = longer
    # the top `tricks` trumps of the run are all the count needs
    w[0] = (<uint64_t> top_k(run, tricks)) << (16 * trump)
    return tricks


cdef inline uint64_t fewest_cards(int* suit_tricks, uint32_t* suit_ranked, int* want) noexcept nogil:
    """The cards whose ranks matter for `want` of the counted tricks, taken
    first from suits where no rank matters, then from the top of the rest
    (fewer cards fixed make a more general table entry).  Lowers want by
    the tricks taken."""
    cdef uint64_t w = 0
    cdef int s, taken, n
    cdef uint32_t ranked, top
    for s in range(4):
        if want[0] <= 0:
            return w
        if suit_tricks[s] and not suit_ranked[s]:
            want[0] -= suit_tricks[s]
    for s in range(4):
        if want[0] <= 0:
            return w
        if suit_tricks[s] and suit_ranked[s]:
            taken = suit_tricks[s] if suit_tricks[s] < want[0] else want[0]
            want[0] -= taken
            ranked = suit_ranked[s]
            if taken >= popc(ranked):
                top = ranked
            else:
                # the top `taken` cards
                top = 0
                n = taken
                while n > 0:
                    top |= 1u << highbit(ranked)
                    ranked &= ~(1u << highbit(ranked))
                    n -= 1
            w |= (<uint64_t> top) << (16 * s)
    return w


cdef enum:
    # Which count quick_tricks found best, and so which cards its W needs
    BEST_TRIMMED = 0   # a count with some counted cards dropped: W keeps every card counted
    BEST_OWN = 1       # h cashing its own top cards
    BEST_PARTNER = 2   # partner cashing, h leading a small card to it
    BEST_BOTH = 3      # h cashing first, then crossing to partner


cdef inline uint64_t ranked_cards(uint32_t* cards, int* ranked, uint32_t suits) noexcept nogil:
    """The W of a cashing count of quick_tricks over the suits `suits`: the
    top ranked[s] cards of cards[s] in each."""
    cdef uint64_t w = 0
    cdef int s
    while suits:
        s = lowbit(suits)
        suits &= suits - 1
        w |= (<uint64_t> top_k(cards[s], ranked[s])) << (16 * s)
    return w


cdef inline uint64_t fewest_counted(int* tricks, uint32_t* cards, int* ranked, uint32_t suits,
                                    uint32_t unranked, int* want) noexcept nogil:
    """fewest_cards for the suits `suits` of quick_tricks' cashing counts
    (`unranked`: the suits where no rank matters)."""
    cdef uint64_t w = 0
    cdef int s, taken
    cdef uint32_t m = suits & unranked
    while m:
        s = lowbit(m)
        m &= m - 1
        want[0] -= tricks[s]
    m = suits & ~unranked
    while m and want[0] > 0:
        s = lowbit(m)
        m &= m - 1
        taken = tricks[s] if tricks[s] < want[0] else want[0]
        want[0] -= taken
        w |= (<uint64_t> top_k(cards[s], taken if taken < ranked[s] else ranked[s])) << (16 * s)
    return w


cdef enum:
    # Where quick_tricks' count (and so its W) came from
    FROM_CASH = 0      # the best of the cashing counts (best_count says which)
    FROM_TRUMPS = 1    # the trump tricks alone
    FROM_OWN_TRUMPS = 2  # h's side-suit winners, then the trump tricks
    FROM_SET = 3       # partner_ruff or guarded_trump (W set by them)
    # Whose cashing the best count uses
    SRC_OWN = 0
    SRC_PARTNER = 1
    SRC_BOTH = 2


cdef inline int quick_tricks(Ctx* c, int h, uint64_t* w, int need) noexcept nogil:
    """Sure tricks for the side of h, on lead: the best of h cashing its
    own top cards; h leading to partner's top cards in a suit where h has a
    card, partner then cashing its own (after h's, when partner has enough
    other cards to play to them); trump length; top trumps.

    In a trump contract a hand whose partner cashes side-suit winners must
    never be forced to ruff one (it would take the lead): the count of such
    winners is limited by that hand's cards outside the trump suit.

    A hand cashes one after another its cards higher than every card of
    the suit in the other three hands (the smaller cards too once the top
    ones outlast every other hand), counting a side suit only as long as no
    opponent with trumps is void in it, unless the hand has the top trumps
    to draw the opponents' trumps first (`must`: those trumps join W).  h
    and partner are counted in one pass over the suits where one of them
    holds the top card (only that hand cashes there).  Per suit the count,
    the hand's cards and how many of its top cards count by rank are kept,
    and w is made from them only when the count reaches `need` (the caller
    reads it only then; below it w is left 0 or as set).  Only whether the
    count reaches `need` matters to the caller: below it, the count may
    stop early (0, returned as soon as no count can reach need)."""
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef int s, trump = c.trump, x, draw_seat = -1
    cdef uint32_t mine, others, bit, tmine, tothers, own_top, partner_top, cashing, ruffed
    cdef uint64_t hand_h, hand_p, pres4
    cdef int count, cnt0, longest, ll, lr, unruffed, ruff_after, k
    cdef int lho_ruffs = 0, rho_ruffs = 0, lt_len = 0, rt_len = 0
    cdef uint32_t own_suits = 0, partner_suits = 0, unranked = 0, entries_partner = 0, h_suits = 0
    cdef uint32_t cards[4]
    cdef int tricks_s[4]
    cdef int ranked[4]
    cdef int own = 0, partner = 0, side_own = 0, side_partner = 0
    cdef uint64_t must_own = 0, must_partner = 0, must_w = 0, w_trumps = 0
    cdef int room, partner_alone, both, spare, best, best_count = BEST_OWN, src = SRC_OWN
    cdef int entry = -1, want, tricks, by_trumps = 0, by_length, most, final = FROM_CASH
    hand_h = four_suits(&c.hand[h][0])
    hand_p = four_suits(&c.hand[p][0])
    pres4 = four_suits(&c.pres[0])
    h_suits = lane_suits(hand_h)
    own_top = top_suits(hand_h, pres4)
    partner_top = top_suits(hand_p, pres4)
    if trump >= 0:
        lho_ruffs = c.hand[lho][trump] != 0
        rho_ruffs = c.hand[rho][trump] != 0
        lt_len = popc(c.hand[lho][trump])
        rt_len = popc(c.hand[rho][trump])
        # can the hand (h or partner) with the top trump draw the
        # opponents' trumps with its top trumps?
        if (own_top | partner_top) >> trump & 1:
            x = (partner_top >> trump) & 1
            tmine = c.hand[h + 2 * x & 3][trump]
            tothers = c.pres[trump] ^ tmine
            if tothers:
                tmine &= ~((2u << highbit(tothers)) - 1)
                count = popc(tmine)
            else:
                count = popc(tmine)
                tmine = 0
            if count >= lt_len and count >= rt_len:
                draw_seat = x
                must_w = (<uint64_t> tmine) << (16 * trump)
        # side suits where an opponent with trumps is void: nothing cashes
        # there (unless the hand draws trumps first)
        ruffed = 0
        if lho_ruffs:
            ruffed = ~lane_suits(four_suits(&c.hand[lho][0]))
        if rho_ruffs:
            ruffed |= ~lane_suits(four_suits(&c.hand[rho][0]))
        ruffed &= ~(1u << trump)
        if draw_seat != 0:
            own_top &= ~ruffed
        if draw_seat != 1:
            partner_top &= ~ruffed
        # the side's sure trump tricks (see below)
        by_length = trump_length(c, h)
        by_trumps = top_trumps(c, h, &w_trumps)
        if by_length >= by_trumps:
            by_trumps = by_length
            w_trumps = 0
    # Partner's top cards count only through an entry (below: a suit of
    # them where h has a card to lead), so without one they are left out
    # (the bounds at need past 1 below are the closer for it)
    if not (partner_top & h_suits):
        partner_top = 0
    # Past need 1 (a count of 1 may come from partner_ruff or
    # guarded_trump) no count below passes: each hand cashing every card of
    # the suits where it holds the top card (one hand after the other), or
    # h its side-suit ones and then the trump tricks.  When that falls
    # short of need, nothing needs counting.
    if need > 1:
        most = popc64(hand_h & suit_lanes(own_top)) + popc64(hand_p & suit_lanes(partner_top))
        if trump >= 0:
            k = popc64(hand_h & suit_lanes(own_top & ~(1u << trump))) + by_trumps
            if k > most:
                most = k
        if most < need:
            return 0
    cashing = own_top | partner_top
    while cashing:
        s = lowbit(cashing)
        bit = 1u << s
        cashing &= cashing - 1
        x = (partner_top >> s) & 1
        if x:
            mine = c.hand[p][s]
            longest = popc(c.hand[h][s])
        else:
            mine = c.hand[h][s]
            longest = popc(c.hand[p][s])
        others = c.pres[s] ^ mine
        ll = popc(c.hand[lho][s])
        lr = popc(c.hand[rho][s])
        if ll > longest:
            longest = ll
        if lr > longest:
            longest = lr
        if others:
            cnt0 = popc(mine & ~((2u << highbit(others)) - 1))
        else:
            cnt0 = popc(mine)
        count = cnt0
        if cnt0 >= longest:
            count = popc(mine)
        unruffed = count
        if trump >= 0 and s != trump:
            ruff_after = 99
            if lho_ruffs:
                ruff_after = ll
            if rho_ruffs and lr < ruff_after:
                ruff_after = lr
            if unruffed > ruff_after:
                unruffed = ruff_after
            if count > ruff_after:
                if x == draw_seat:
                    if x == 0:
                        must_own = must_w
                    else:
                        must_partner = must_w
                else:
                    count = ruff_after
            if count == 0:
                own_top &= ~bit
                partner_top &= ~bit
                continue
            if x == 0:
                side_own += count
            else:
                side_partner += count
        cards[s] = mine
        tricks_s[s] = count
        if others:
            k = cnt0
            if count < k:
                k = count
            if longest < k:
                k = longest
            ranked[s] = k
        else:
            unranked |= bit
        if x == 0:
            own += count
        else:
            partner += count
            if unruffed > 0:
                entries_partner |= bit
    own_suits = own_top
    partner_suits = partner_top
    if trump < 0:
        side_own = own
        side_partner = partner
    if trump >= 0 and c.hand[p][trump]:
        room = nontrumps(c, p)
        if side_own > room:
            own -= side_own - room
            side_own = room
            best_count = BEST_TRIMMED
    # (the same bound from the counts made: every count below is at most
    # these; partner_ruff and guarded_trump only count 1)
    if need > 1 and own + partner < need and side_own + by_trumps < need:
        return 0
    best = own
    if h_suits & entries_partner:
        # the entry: partner's top card of a suit where h has a card
        entry = lowbit(h_suits & entries_partner)
        # partner alone, h leading a small card to it
        partner_alone = partner
        if trump >= 0 and c.hand[h][trump]:
            room = nontrumps(c, h) - 1
            if room < 0:
                room = 0
            if side_partner > room:
                partner_alone = partner - (side_partner - room)
        if partner_alone > best:
            best = partner_alone
            src = SRC_PARTNER
            best_count = BEST_PARTNER if partner_alone == partner else BEST_TRIMMED
        # h cashes first, then crosses to partner: partner needs a card to
        # play to each of h's tricks besides its own winners
        spare = cards_held(c, p) - partner
        if spare >= own:
            both = partner
            if trump >= 0 and popc(c.hand[h][trump]) > own - side_own:
                room = nontrumps(c, h) - side_own - 1
                if room < 0:
                    room = 0
                if side_partner > room:
                    both = partner - (side_partner - room)
            both += own
            if both > best:
                best = both
                src = SRC_BOTH
                best_count = BEST_BOTH if (both - own) == partner and best_count != BEST_TRIMMED \
                    else BEST_TRIMMED
    tricks = best
    if trump >= 0:
        # the side's sure trump tricks, alone or after h has cashed its
        # side-suit winners (when those need no trumps drawn, the opponents
        # follow suit to them and partner discards no trump: the trumps
        # are as they were)
        if by_trumps > tricks:
            tricks = by_trumps
            final = FROM_TRUMPS
        if must_own == 0 and side_own > 0 and by_trumps > 0 and side_own + by_trumps > tricks:
            tricks = side_own + by_trumps
            final = FROM_OWN_TRUMPS
        if tricks == 0:
            final = FROM_SET
            tricks = partner_ruff(c, h, w)
            if tricks == 0:
                tricks = guarded_trump(c, h, 1, w)
    if tricks >= need:
        if final == FROM_CASH:
            if need > 0 and best_count != BEST_TRIMMED:
                want = need
                if best_count == BEST_OWN:
                    w[0] = fewest_counted(tricks_s, cards, ranked, own_suits, unranked, &want) | must_own
                else:
                    w[0] = (<uint64_t> (1u << highbit(c.hand[p][entry]))) << (16 * entry)
                    if best_count == BEST_BOTH:
                        w[0] |= fewest_counted(tricks_s, cards, ranked, own_suits, unranked, &want) | must_own
                    w[0] |= fewest_counted(tricks_s, cards, ranked, partner_suits, unranked, &want) | must_partner
            elif src == SRC_OWN:
                w[0] = ranked_cards(cards, ranked, own_suits & ~unranked)
            elif src == SRC_PARTNER:
                w[0] = ranked_cards(cards, ranked, partner_suits & ~unranked)
            else:
                w[0] = ranked_cards(cards, ranked, (own_suits | partner_suits) & ~unranked)
        elif final == FROM_TRUMPS:
            w[0] = w_trumps
        elif final == FROM_OWN_TRUMPS:
            w[0] = ranked_cards(cards, ranked, own_suits & ~unranked) | w_trumps
    elif final != FROM_SET:
        w[0] = 0
    if tricks > c.st.left:
        tricks = c.st.left
    return tricks


cdef inline int partner_ruff(Ctx* c, int h, uint64_t* w) noexcept nogil:
    """1 when h can lead a side suit that partner ruffs for a sure trick:
    partner is void in it and has trumps, left-hand opponent must follow
    suit or has no trumps, and right-hand opponent must follow suit or
    cannot overruff partner's top trump; else 0."""
    cdef int trump = c.trump, s
    cdef int p = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3
    cdef uint32_t partner_trumps = c.hand[p][trump]
    if not partner_trumps:
        return 0
    for s in range(4):
        if s == trump or not c.hand[h][s] or c.hand[p][s]:
            continue
        if not c.hand[lho][s] and c.hand[lho][trump]:
            continue
        if c.hand[rho][s] or not c.hand[rho][trump]:
            w[0] = 0
            return 1
        if highbit(partner_trumps) > highbit(c.hand[rho][trump]):
            w[0] = (<uint64_t> (1u << highbit(partner_trumps))) << (16 * trump)
            return 1
    return 0


cdef inline int guarded_trump(Ctx* c, int h, int on_lead, uint64_t* w) noexcept nogil:
    """1 when the side of h surely takes a trick with a trump honour the
    top trumps cannot catch, else 0:
    - KQ: one hand holds the second and third trumps, an opponent the top
      one: the top trump takes one of them, the other is then the top;
    - Kx behind A: a hand holds the second trump and another trump, and
      the top trump is with the opponent who plays just before it (its
      right-hand opponent): whenever the top trump is played the hand plays
      its small one, keeping the king, now the top;
    - Qxx behind AK: the same with the third trump, two small ones, and
      the two top trumps with that opponent.
    The last two need the hand to follow its right-hand opponent, so a
    hand on lead now needs a card to lead first and still keep the honour
    guarded (3 tricks left for Kx, 4 for Qxx: with Kx and two tricks left
    it may have to lead into the top trump).  w: the top trumps relied on
    (the shape gives the lengths)."""
    cdef int trump = c.trump, y, r, i
    cdef uint32_t pres = present(c, trump), mine
    cdef uint32_t a, k, q
    if popc(pres) < 3:
        return 0
    a = 1u << highbit(pres)
    k = 1u << highbit(pres & ~a)
    q = 1u << highbit(pres & ~(a | k))
    for i in range(2):
        y = h if i == 0 else (h + 2) & 3
        r = (y + 3) & 3
        mine = c.hand[y][trump]
        if (mine & k) and (mine & q) and not ((mine | c.hand[y ^ 2][trump]) & a):
            w[0] = (<uint64_t> (a | k | q)) << (16 * trump)
            return 1
        if ((mine & k) and popc(mine) >= 2 and (c.hand[r][trump] & a)
                and not (on_lead and y == h and c.st.left < 3)):
            w[0] = (<uint64_t> (a | k)) << (16 * trump)
            return 1
        if ((mine & q) and popc(mine) >= 3 and (c.hand[r][trump] & (a | k)) == (a | k)
                and not (on_lead and y == h and c.st.left < 4)):
            w[0] = (<uint64_t> (a | k | q)) << (16 * trump)
            return 1
    return 0


cdef inline int win_and_cash(Ctx* c, int s, int h, int p, uint64_t* w, int enough) noexcept nogil:
    """At no-trump, with h's side on lead: if the top card of suit s is an
    opponent's, the tricks the opponents surely take when suit s is led:
    that trick, then the top cards the winner cashes; 0 if h's side holds
    the top card.  w receives the cards whose ranks `enough` of those
    tricks use (fewest_cards: only the cashed tricks the caller needs)."""
    cdef uint32_t pres = present(c, s)
    cdef int top, winner, tricks, want
    cdef int suit_tricks[4]
    cdef uint32_t suit_ranked[4]
    w[0] = 0
    if not pres:
        return 0
    top = highbit(pres)
    winner = owner(c, s, top)
    if winner == h or winner == p:
        return 0
    # the winner leads next without the card it won with
    c.hand[winner][s] &= ~(1u << top)
    c.pres[s] &= ~(1u << top)
    tricks = cash_nt(c, winner, suit_tricks, suit_ranked)
    c.hand[winner][s] |= 1u << top
    c.pres[s] |= 1u << top
    want = enough - 1
    w[0] = (<uint64_t> 1) << (16 * s + top)
    if want > 0:
        w[0] |= fewest_cards(suit_tricks, suit_ranked, &want)
    tricks += 1
    if tricks > c.st.left:
        tricks = c.st.left
    return tricks


cdef inline int every_lead_loses(Ctx* c, int h, uint64_t* w) noexcept nogil:
    """With a trump suit: 1 when whatever h leads, the opponents win the
    trick with the top card of the suit (a trump lead: the top trump; a
    side suit: its top card, partner unable to ruff), else 0."""
    cdef int trump = c.trump, s, p = (h + 2) & 3
    cdef uint32_t pres, ours
    cdef uint64_t tops = 0
    for s in range(4):
        if not c.hand[h][s]:
            continue
        pres = present(c, s)
        ours = c.hand[h][s] | c.hand[p][s]
        if ours > (pres ^ ours):
            return 0                # the side holds the top card
        if s != trump and not c.hand[p][s] and c.hand[p][trump]:
            return 0
        tops |= (<uint64_t> (1u << highbit(pres))) << (16 * s)
    w[0] = tops
    return 1


cdef inline int other_tricks(Ctx* c, int h, uint64_t* w, int enough) noexcept nogil:
    """Sure tricks for the side not on lead (h leads).  Only whether the
    count reaches `enough` matters to the caller: below it, the count may
    stop early (0, or too high but still below `enough`)."""
    cdef int tricks, by_length, longer, s, joker_lead, least, lho = (h + 1) & 3, p = (h + 2) & 3
    cdef uint64_t w_lead, w_joker = 0, hand_h
    w[0] = 0
    if c.trump >= 0:
        # past 1 only the trump tricks can reach `enough` (every_lead_loses
        # and guarded_trump count 1), and neither top_trumps nor
        # trump_length passes the longer trump hand's length
        if enough > 1:
            longer = popc(c.hand[lho][c.trump])
            by_length = popc(c.hand[(h + 3) & 3][c.trump])
            if by_length > longer:
                longer = by_length
            if longer < enough:
                return 0
        tricks = top_trumps(c, lho, w)
        by_length = trump_length(c, lho)
        if by_length > tricks:
            tricks = by_length
            w[0] = 0
        if tricks == 0 and enough <= 1:
            tricks = every_lead_loses(c, h, w)
            if tricks == 0:
                tricks = guarded_trump(c, lho, 0, w)
        return tricks
    # No-trump: whatever h leads, an opponent holds the top card of that
    # suit and wins the trick, then cashes its own top cards.  The count is
    # the least over h's choices of lead.
    hand_h = four_suits(&c.hand[h][0])
    if lane_suits(hand_h) & top_suits(hand_h | four_suits(&c.hand[p][0]), four_suits(&c.pres[0])):
        return 0    # (h can lead a suit whose top card its side holds: that lead counts 0)
    least = 99
    for s in range(4):
        if not c.hand[h][s]:
            continue
        tricks = win_and_cash(c, s, h, p, &w_lead, enough)
        if tricks < least:
            least = tricks
        if least == 0 or least < enough:
            w[0] = 0
            return least
        w[0] |= w_lead
    if c.hand[h][JOKERS]:
        # a joker led: left-hand opponent names the suit with its card, so
        # the opponents choose a suit whose top card they hold, if left-hand
        # opponent has a card of it
        joker_lead = 0
        for s in range(4):
            if c.hand[lho][s]:
                tricks = win_and_cash(c, s, h, p, &w_lead, enough)
                if tricks > joker_lead:
                    joker_lead = tricks
                    w_joker = w_lead
        if joker_lead == 0:
            w[0] = 0
            return 0
        if joker_lead < least:
            least = joker_lead
        w[0] |= w_joker
    if least == 99:
        least = 0
        w[0] = 0
    return least


cdef inline int bounds_at_lead(Ctx* c, int target, uint64_t* w, int want) noexcept nogil:
    """At a trick boundary, answer from the score and the sure tricks of
    both sides when they suffice: 1 or 0, with the deciding cards in w;
    -1 when they don't.  With want 0 or 1, only that answer is looked for
    (the sure tricks of the other side are not counted)."""
    cdef TrickState* st = &c.st
    cdef int h = st.leader
    cdef int ns_turn = (h & 1) == 0
    cdef int sure
    w[0] = 0
    if st.ns_won >= target:
        return 1
    if st.ns_won + st.left < target:
        return 0
    # the side on lead's sure tricks can only answer in its favour, the
    # other side's in theirs
    if want < 0 or want == ns_turn:
        if ns_turn:
            sure = quick_tricks(c, h, w, target - st.ns_won)
            if st.ns_won + sure >= target:
                return 1
        else:
            sure = quick_tricks(c, h, w, st.left - (target - st.ns_won) + 1)
            if st.ns_won + st.left - sure < target:
                return 0
        if want >= 0:
            w[0] = 0
            return -1
    if ns_turn:
        sure = other_tricks(c, h, w, st.ns_won + st.left - target + 1)
    else:
        sure = other_tricks(c, h, w, target - st.ns_won)
    if sure > 0:
        if ns_turn:
            if st.ns_won + st.left - sure < target:
                return 0
        elif st.ns_won + sure >= target:
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
    cdef int led = st.led, trump = c.trump
    cdef int h = (st.leader + 1) & 3, third = (st.leader + 2) & 3, p = (st.leader + 3) & 3
    cdef int ns_turn = (h & 1) == 0
    cdef uint32_t ours, third_cards
    cdef int top, winner, tricks, need, want
    cdef int suit_tricks[4]
    cdef uint32_t suit_ranked[4]
    w[0] = 0
    if led < 0:
        return -1
    # tricks the side on turn needs from here for its goal
    need = (target - st.ns_won) if ns_turn else (st.ns_won + st.left - target + 1)
    if trump >= 0 and need > 1:
        return -1
    third_cards = c.hand[third][led]
    if trump >= 0 and led != trump and not third_cards and c.hand[third][trump]:
        return -1                          # the third hand may ruff
    ours = c.hand[h][led] | c.hand[p][led]
    if ours and highbit(ours) > st.tbit[0] and (not third_cards or highbit(ours) > highbit(third_cards)):
        top = highbit(ours)
        w[0] = (<uint64_t> 1) << (16 * led + top)
        tricks = 1
        if tricks < need:
            # no-trump: the winner leads next and cashes its top cards (the
            # other cards that fall to this trick only help it)
            winner = h if (c.hand[h][led] >> top) & 1 else p
            c.hand[winner][led] &= ~(1u << top)
            c.pres[led] &= ~(1u << top)
            tricks += cash_nt(c, winner, suit_tricks, suit_ranked)
            c.hand[winner][led] |= 1u << top
            c.pres[led] |= 1u << top
            if tricks < need:
                w[0] = 0
                return -1
            want = need - 1
            w[0] |= fewest_cards(suit_tricks, suit_ranked, &want)
    elif not (trump >= 0 and led != trump and ((not c.hand[h][led] and c.hand[h][trump])
                                               or (not c.hand[p][led] and c.hand[p][trump]))):
        return -1
    return 1 if ns_turn else 0
