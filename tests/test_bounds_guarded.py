"""The guarded-trump bound (_bounds.pxd guarded_trump): a side holding the
second and third trumps in one hand, the second trump and a small one just
after the top trump (Kx behind A), or the third and two small ones just
after the two top trumps (Qxx behind AK) surely takes a trick.

Endings are built around each holding, for the side on lead and the side
not on lead, up- and downtown, with and without jokers as the top trumps:
the reference must give the side at least one trick (the premise of the
bound), and the engine must agree with the reference on everything.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve import Position

from support.engine_check import check
from support.reference import ref_value, strength
from support.strategies import DECK52, JOKERS, Spot, examples

SUITS = ("S", "H", "D", "C")


def dealt_out(draw, hands, n, deck, trump, ranking, leader) -> Spot:
    """The spot with ``hands`` (the cards placed so far) filled up to ``n``
    cards each from the rest of ``deck``, in a drawn order."""
    placed = {c for h in hands for c in h}
    rest = [c for c in draw(st.permutations(deck)) if c not in placed]
    for h in hands:
        while len(h) < n:
            h.append(rest.pop())
    return Spot(tuple(tuple(h) for h in hands), trump, ranking, leader, ())


@st.composite
def guarded(draw):
    """(spot, seat of the side that holds the guarded honour)."""
    shape = draw(st.sampled_from(["KQ", "Kx", "Qxx"]))
    trump = draw(st.sampled_from(SUITS))
    ranking = draw(st.sampled_from(["up", "down"]))
    use_jokers = draw(st.booleans())
    leader = draw(st.integers(0, 3))
    y = draw(st.integers(0, 3))                     # the hand holding the honour
    # a hand on lead needs a spare card to lead: 3 tricks for Kx, 4 for Qxx
    least = {"KQ": 2, "Kx": 3 if y == leader else 2, "Qxx": 4 if y == leader else 3}[shape]
    n = draw(st.integers(least, 5))
    deck = DECK52 + (JOKERS if use_jokers else [])
    trumps = sorted((c for c in deck if c[0] == trump or c in JOKERS),
                    key=lambda c: strength(c, ranking), reverse=True)
    a, k, q, small = trumps[0], trumps[1], trumps[2], trumps[3:]
    small = list(draw(st.permutations(small)))
    rho = (y + 3) % 4
    hands = [[] for _ in range(4)]
    if shape == "KQ":
        hands[y] += [k, q]
        hands[draw(st.sampled_from([(y + 1) % 4, rho]))].append(a)
    elif shape == "Kx":
        hands[y] += [k, small.pop()]
        hands[rho].append(a)
    else:
        hands[y] += [q, small.pop(), small.pop()]
        hands[rho] += [a, k]
    return dealt_out(draw, hands, n, deck, trump, ranking, leader), y


@settings(max_examples=examples(60), deadline=None)
@given(guarded())
def test_the_side_takes_a_trick(shared_solver, case):
    spot, y = case
    ns = ref_value(*spot.args())
    side = ns if y % 2 == 0 else spot.tricks_left - ns
    assert side >= 1, spot.describe()
    check(shared_solver, spot)


def test_kx_on_lead_with_two_tricks_left_is_not_sure(shared_solver):
    """Why a hand on lead needs a third trick: N (K2 of spades) must lead
    into W's AQ and takes nothing."""
    hands = (("SK", "S2"), ("HA", "HK"), ("H3", "H4"), ("SA", "SQ"))
    spot = Spot(hands, "S", "up", 0, ())
    assert ref_value(*spot.args()) == 0
    pos = Position.make(hands=[list(h) for h in hands], trump="S", ranking="up", leader=0)
    assert shared_solver.ns_value(pos) == 0
    check(shared_solver, spot)


@st.composite
def cash_then_trumps(draw):
    """The leader holds the top cards of a side suit both opponents hold,
    its side the top trumps or the longer trumps: cashing first and then
    the trump tricks (the combined count of quick_tricks).  Partner has few
    or no side cards, so whether it must ruff its side's winners matters."""
    trump, side = draw(st.permutations(SUITS))[:2]
    ranking = draw(st.sampled_from(["up", "down"]))
    leader = draw(st.integers(0, 3))
    n = draw(st.integers(2, 5))
    order = lambda suit: sorted((c for c in DECK52 if c[0] == suit),
                                key=lambda c: strength(c, ranking), reverse=True)
    side_cards, trumps = order(side), order(trump)
    p, lho, rho = (leader + 2) % 4, (leader + 1) % 4, (leader + 3) % 4
    hands = [[] for _ in range(4)]
    tops = draw(st.integers(1, min(3, n)))
    hands[leader] += side_cards[:tops]
    low = list(draw(st.permutations(side_cards[tops:])))
    hands[lho].append(low.pop())
    hands[rho].append(low.pop())
    ntr = draw(st.integers(1, n))                   # partner's trumps, from the top
    hands[p] += trumps[:ntr]
    rest_trumps = list(draw(st.permutations(trumps[ntr:])))
    for seat in (lho, rho):
        for _ in range(draw(st.integers(0, 2))):
            if len(hands[seat]) < n and rest_trumps:
                hands[seat].append(rest_trumps.pop())
    return dealt_out(draw, hands, n, DECK52, trump, ranking, leader)


@settings(max_examples=examples(80), deadline=None)
@given(cash_then_trumps())
def test_cashing_then_trump_tricks(shared_solver, spot):
    check(shared_solver, spot)


@st.composite
def split_tops(draw):
    """The leader's side holds the top cards of one or two suits between
    its two hands (cashing one hand's winners, then crossing to the
    other's; blocked suits), at no-trump or with a trump suit, partner
    sometimes short of small cards or holding only trumps."""
    trump = draw(st.sampled_from(SUITS + (None,)))
    ranking = draw(st.sampled_from(["up", "down"]))
    leader = draw(st.integers(0, 3))
    n = draw(st.integers(2, 5))
    p = (leader + 2) % 4
    order = lambda suit: sorted((c for c in DECK52 if c[0] == suit),
                                key=lambda c: strength(c, ranking), reverse=True)
    hands = [[] for _ in range(4)]
    suits = [s for s in draw(st.permutations(SUITS)) if s != trump][:draw(st.integers(1, 2))]
    for suit in suits:
        tops = order(suit)[:draw(st.integers(2, 4))]
        for c in tops:
            seat = draw(st.sampled_from([leader, p]))
            if len(hands[seat]) < n:
                hands[seat].append(c)
    if trump and draw(st.booleans()):
        for c in order(trump)[:n]:              # partner: the top trumps, to the full
            if len(hands[p]) < n:
                hands[p].append(c)
    return dealt_out(draw, hands, n, DECK52, trump, ranking, leader)


@settings(max_examples=examples(80), deadline=None)
@given(split_tops())
def test_top_cards_split_between_partners(shared_solver, spot):
    check(shared_solver, spot)
