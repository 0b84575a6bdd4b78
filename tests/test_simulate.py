"""Double-dummy simulation: the sampled distributions against exact
enumeration (every consistent deal solved by the independent reference, or
by the package's exchange for the bid question), agreement with `solve`,
`dd_table` and `analyse_bid` when every card is known, the statistics of the
aggregates, and answers that do not depend on how the samples are split."""
from __future__ import annotations

import json
import pickle
import statistics
from collections import Counter
from itertools import combinations

import pytest
from scipy.stats import chisquare

from support.reference import ref_card_values, ref_value
from support.strategies import DECK52
from whist_solve.bid import analyse_bid, bid_score
from whist_solve.cards import Position, WhistError
from whist_solve.engine import Solver, dd_table
from whist_solve.sampling import deal_spec, enumerate_deals
from whist_solve.simulate import (BidAggregate, LeadAggregate, SimulationError, bid_question,
                                  equal_card_groups, lead_question, run_samples, simulate,
                                  tricks_question, work_items)

P_MIN = 0.001


@pytest.fixture(scope="module")
def solver():
    return Solver(16)


def completions(known, pool, n, kitty=0):
    """Every way to complete ``known`` from ``pool`` (independent of the
    package): (hands, kitty)."""
    seats = [s for s in range(4) if known[s] is None]
    out = []

    def rec(i, rest, hands):
        if i == len(seats):
            for kit in combinations(rest, kitty):
                out.append(([list(h) for h in hands], list(kit)))
            return
        for ch in combinations(rest, n):
            hs = list(hands)
            hs[seats[i]] = list(ch)
            rec(i + 1, [c for c in rest if c not in ch], hs)

    rec(0, list(pool), list(known))
    return out


def assert_matches(observed_hist: dict, exact: Counter, total_exact: int):
    """Chi-square of a sampled histogram (string keys) against the exact
    distribution; values with a small expected count are pooled."""
    n = sum(observed_hist.values())
    obs = Counter({int(k): v for k, v in observed_hist.items()})
    assert set(obs) <= set(exact), (obs, exact)
    big = [v for v in exact if exact[v] / total_exact * n >= 5]
    small = [v for v in exact if v not in big]
    o = [obs[v] for v in big]
    e = [exact[v] / total_exact * n for v in big]
    if small:
        o.append(sum(obs[v] for v in small))
        e.append(sum(exact[v] for v in small) / total_exact * n)
    if len(o) < 2:
        assert o[0] == n
        return
    p = chisquare(o, e).pvalue
    assert p > P_MIN, (p, o, e)


# --------------------------------------------------------------------------
# Against exact enumeration


def test_tricks_matches_exact_enumeration(solver):
    north = ["SA", "SJ", "H5"]
    south = ["S9", "HK", "D4"]
    pool = ["SK", "ST", "S2", "HA", "HQ", "D7"]
    q = tricks_question([north, None, south, None], strains=("S", "NT"), rankings=("up", "down"),
                        unseen=pool)
    deals = completions([north, None, south, None], pool, 3)
    assert len(deals) == 20
    agg = simulate(q, 500, seed=3, solver=solver)
    out = agg.to_json()
    assert out["question"] == "tricks" and out["samples"] == 500 and out["seed"] == 3
    for strain in ("S", "NT"):
        for ranking in ("up", "down"):
            for seat, leader in zip("NESW", range(4)):
                exact = Counter(ref_value(h, None if strain == "NT" else strain, ranking, leader)
                                for h, _ in deals)
                cell = out["table"][strain][ranking][seat]
                assert_matches(cell["hist"], exact, len(deals))
                assert cell["make"]["1"] == 0.0          # 7 tricks of 3: never


def test_tricks_make_in_bid_whist_counts_the_bidder_s_books(solver):
    """Bid whist (kitty_book=1): the leader is the bidder, and make[level]
    is the share of deals its side takes level + 6 books, the discard's
    included (before: N-S tricks against level + 6, whoever led).  With
    3-card hands, level 1 needs 6 of the 3 + 1 books: never; so the check
    is made on the books themselves."""
    north = ["SA", "SJ", "H5"]
    south = ["S9", "HK", "D4"]
    pool = ["SK", "ST", "S2", "HA", "HQ", "D7"]
    q = tricks_question([north, None, south, None], strains=("S",), unseen=pool, kitty_book=1)
    deals = completions([north, None, south, None], pool, 3)
    agg = simulate(q, 300, seed=3, solver=solver)
    out = agg.to_json()
    for seat, leader in zip("NESW", range(4)):
        cell = out["table"]["S"]["up"][seat]
        exact = Counter(ref_value(h, "S", "up", leader) for h, _ in deals)
        assert_matches(cell["hist"], exact, len(deals))
        assert all(v == 0.0 for v in cell["make"].values())
        j = q.cells.index(("S", "up", leader))
        for books in range(1, 5):      # the leader's side's books: its tricks + 1
            share = sum(n for k, n in cell["hist"].items()
                        if (int(k) if leader % 2 == 0 else 3 - int(k)) + 1 >= books) / 300
            assert agg.leader_makes(j, leader, books - 6) == share


def test_lead_matches_exact_enumeration(solver):
    west = ["SK", "SQ", "H4"]
    pool = ["SA", "SJ", "S3", "HA", "HQ", "H2", "DK", "D5", "C9"]
    q = lead_question([None, None, None, west], "W", trump="H", ranking="up", need=2,
                      unseen=pool)
    assert q.declarer == 2 and q.need == 2
    deals = completions([None, None, None, west], pool, 3)
    assert len(deals) == 1680
    exact = {c: Counter() for c in west}
    for hands, _ in deals:
        vals = ref_card_values(hands, "H", "up", 3)
        for c in west:
            exact[c][vals[c]] += 1
    agg = simulate(q, 600, seed=5, solver=solver)
    out = agg.to_json()
    assert out["leader"] == "W" and out["contract"] == "1H" and out["declarer"] == "S"
    assert set(out["cards"]) == set(west)
    for c in west:
        assert_matches(out["cards"][c]["hist"], exact[c], len(deals))
        # set: the leader's side takes more than 3 - 2 = 1 trick
        share = sum(v for k, v in out["cards"][c]["hist"].items() if int(k) >= 2) / 600
        assert out["cards"][c]["set"] == round(share, 4)
    # SK and SQ are equal (SJ... no: nothing between K and Q) in every sample
    assert ["SK", "SQ"] in out["groups"]
    for row in agg.rows:
        assert row[q.cards.index("SK")] == row[q.cards.index("SQ")]
    assert out["cards"]["SK"]["equal"] == ["SQ"]


def test_bid_matches_exact_enumeration(solver):
    # a reduced deal: hands of 2, a kitty of 2, bidder S and partner N known
    north = ["SA", "D3"]
    south = ["HK", "JH"]
    pool = ["SK", "S4", "HA", "H9", "D2", "JL"]
    q = bid_question([north, None, south, None], "S", kitty=2, unseen=pool)
    deals = completions([north, None, south, None], pool, 2, kitty=2)
    assert len(deals) == 90
    bsolver = Solver(16)
    exact_rows = [tuple(ex.books for ex in analyse_bid(h, k, 2, solver=bsolver))
                  for h, k in deals]
    agg = simulate(q, 400, seed=9, solver=bsolver)
    out = agg.to_json()
    assert out["bidder"] == "S" and len(out["options"]) == 10
    for j, o in enumerate(out["options"]):
        exact = Counter(r[j] for r in exact_rows)
        assert_matches(o["hist"], exact, len(deals))
    # the aggregate fed with every deal once is the exact answer
    ex_agg = q.aggregate(0)
    ex_agg.extend(exact_rows)
    ex_out = ex_agg.to_json()
    for j, o in enumerate(ex_out["options"]):
        col = [r[j] for r in exact_rows]
        assert o["mean"] == round(statistics.mean(col), 4)
        for lv in range(1, 8):
            assert o["make"][str(lv)] == round(sum(b >= lv + 6 for b in col) / 90, 4)
            assert o["score"][str(lv)] == round(sum(bid_score(lv, b) for b in col) / 90, 4)
    best = ex_out["best"]
    scores = {(t, r, lv): sum(bid_score(lv, row[j]) for row in exact_rows)
              for j, (t, r) in enumerate(q.options) for lv in range(1, 8)}
    assert scores[best["trump"], best["ranking"], best["level"]] == max(scores.values())


def test_bid_scores_under_a_scoring_variant(solver):
    """simulate's bid question under --nt-double and --boston: each bid's
    expected score is the mean of bid_score with those rules (the deal's 3
    books with the kitty's make a Boston), on the exact set of deals."""
    from whist_solve.bid import Scoring
    north = ["SA", "D3"]
    south = ["HK", "JH"]
    pool = ["SK", "S4", "HA", "H9", "D2", "JL"]
    rules = Scoring(nt_double=True, boston=4)
    q = bid_question([north, None, south, None], "S", kitty=2, unseen=pool, scoring=rules)
    deals = completions([north, None, south, None], pool, 2, kitty=2)
    bsolver = Solver(16)
    rows = [tuple(ex.books for ex in analyse_bid(h, k, 2, solver=bsolver)) for h, k in deals]
    agg = q.aggregate(0)
    agg.extend(rows)
    out = agg.to_json()
    assert out["scoring"] == {"nt_double": True, "boston": 4, "min_bid": 1}
    scores = {}
    for j, (t, r) in enumerate(q.options):
        col = [row[j] for row in rows]
        for lv in range(1, 8):
            total = sum(bid_score(lv, b, t, rules, all_books=3) for b in col)
            scores[t, r, lv] = total
            assert out["options"][j]["score"][str(lv)] == round(total / 90, 4)
    best = out["best"]
    assert scores[best["trump"], best["ranking"], best["level"]] == max(scores.values())
    # no bid is made with 3 books at most: the no-trump scores (sets) are
    # twice the default rule's, the others the same
    plain = q.__class__(q.spec, q.bidder, q.options).aggregate(0)
    plain.extend(rows)
    assert plain.to_json()["scoring"] == {"nt_double": False, "boston": 0, "min_bid": 1}
    for j, (t, r) in enumerate(q.options):
        for lv in range(1, 8):
            assert agg.score_total(j, lv) == (2 if t == "NT" else 1) * plain.score_total(j, lv)


def test_within_the_noise_never_skips_a_better_choice():
    """The bids (and leads) shown within the noise of the best include every
    one whose expected score (mean tricks) is at least that of one shown:
    the paired test alone passed 6H and failed 3H, whose expected score
    was higher.  Checked on random sample rows."""
    import random
    north, south = ["SA", "D3"], ["HK", "JH"]
    pool = ["SK", "S4", "HA", "H9", "D2", "JL"]
    q = bid_question([north, None, south, None], "S", kitty=2, unseen=pool)
    west = ["SK", "SQ", "H4"]
    lq = lead_question([None, None, None, west], "W", trump="H", need=2,
                       unseen=["SA", "SJ", "S3", "HA", "HQ", "H2", "DK", "D5", "C9"])
    rng = random.Random(7)
    for _ in range(200):
        agg = q.aggregate(0)
        n = rng.randint(2, 30)
        agg.extend(tuple(rng.randint(0, 3) for _ in q.options) for _ in range(n))
        close = agg.close_bids()
        if close:
            floor = min(agg.score_total(j, lv) for j, lv in close)
            best = agg.best()
            assert {b for b in agg.bids() if b != best and agg.score_total(*b) >= floor} \
                == set(close)
        lagg = lq.aggregate(0)
        lagg.extend(tuple(rng.randint(0, 3) for _ in lq.cards) for _ in range(n))
        lclose = lagg.close()
        others = [j for j in lclose if j != lagg.best()]
        if others:
            floor = min(lagg.sums[j] for j in others)
            assert set(lclose) == {lagg.best()} | {j for j in range(len(lq.cards))
                                                   if lagg.sums[j] >= floor}


# --------------------------------------------------------------------------
# Everything known: the same answers as solve / dd_table / analyse_bid


def full_deal(seed, n=13):
    import random
    deck = list(DECK52)
    random.Random(seed).shuffle(deck)
    return [deck[i * n:(i + 1) * n] for i in range(4)]


def test_full_knowledge_lead_equals_solve(solver):
    hands = full_deal(1)
    q = lead_question(hands, "E", trump="D", ranking="down", level=3)
    agg = simulate(q, 3, seed=1, solver=solver)
    ref = Solver().solve(Position.make(hands, "D", "down", 1), cards=True, line=False).cards
    out = agg.to_json()
    assert set(out["cards"]) == set(ref)
    for c, v in ref.items():
        assert out["cards"][c]["hist"] == {str(v): 3}
        assert out["cards"][c]["mean"] == v and out["cards"][c]["stderr"] == 0
        assert out["cards"][c]["set"] == (1.0 if v > 13 - 9 else 0.0)
    assert ref[out["best"]] == max(ref.values())
    assert all(out["cards"][c]["close"] == (v == max(ref.values())) for c, v in ref.items())


def test_full_knowledge_tricks_equals_dd_table(solver):
    hands = full_deal(2)
    q = tricks_question(hands, rankings=("up", "down"))
    out = simulate(q, 2, seed=0, solver=solver).to_json()
    table = dd_table(hands, rankings=("up", "down"))
    for s, by_r in table.items():
        for r, by_seat in by_r.items():
            for seat, v in by_seat.items():
                assert out["table"][s][r][seat]["hist"] == {str(v): 2}


def test_full_knowledge_bid_equals_analyse_bid():
    import random
    deck = DECK52 + ["JH", "JL"]
    random.Random(4).shuffle(deck)
    n, m = 5, 3
    hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    kitty = deck[4 * n:4 * n + m]
    q = bid_question(hands, "W", kitty=m, unseen=kitty)
    out = simulate(q, 2, seed=0).to_json()
    exs = analyse_bid(hands, kitty, 3, solver=Solver(16))
    for o, ex in zip(out["options"], exs):
        assert (o["trump"], o["ranking"]) == (ex.trump, ex.ranking)
        assert o["hist"] == {str(ex.books): 2}


# --------------------------------------------------------------------------
# Repeatable whatever the split; picklable; progress and stop


def test_same_answer_whatever_the_chunks(solver):
    hands = full_deal(3, n=7)
    q = lead_question([None, None, None, hands[3]], "W", trump="NT", need=4,
                      unseen=[c for h in hands[:3] for c in h])
    assert pickle.loads(pickle.dumps(q)) == q
    whole = run_samples(solver, (q, 17, tuple(range(12))))
    for chunk in (1, 5, 12):
        items = work_items(q, 17, 12, chunk=chunk)
        items = [pickle.loads(pickle.dumps(it)) for it in items]
        parts = [r for it in items for r in run_samples(None, it)]
        assert parts == whole
    a = simulate(q, 12, seed=17, solver=solver)
    b = q.aggregate(17)
    for r in reversed(whole):        # order of arrival does not matter
        b.add(r)
    assert json.dumps(a.to_json()) == json.dumps(b.to_json())
    assert a.rows == whole


def test_work_items_are_made_as_they_are_read():
    """A big --count with a time budget (simulate -n 100000000 --time 10)
    holds no list of its items: the run used to build one item per sample
    before solving any (gigabytes, and the budget never met)."""
    import tracemalloc

    q = tricks_question([["SA"], None, None, None], strains=("NT",), unseen=["SK", "SQ", "SJ"])
    tracemalloc.start()
    try:
        items = work_items(q, 17, 10**6, chunk=1)
        first = next(iter(items))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert first == (q, 17, (0,)) and len(items) == 10**6
    assert items[-1] == (q, 17, (10**6 - 1,))
    assert list(work_items(q, 3, 12, chunk=5)) == [(q, 3, (0, 1, 2, 3, 4)), (q, 3, (5, 6, 7, 8, 9)),
                                                  (q, 3, (10, 11))]
    assert len(work_items(q, 3, 12, chunk=5, start=4)) == 3
    assert list(work_items(q, 3, 3, chunk=2, start=4)) == [(q, 3, (4, 5)), (q, 3, (6,))]
    huge = work_items(q, 3, 10**21, chunk=1)
    assert next(iter(huge)) == (q, 3, (0,))


def test_progress_stop_and_partial(solver):
    hands = full_deal(5)
    q = tricks_question([hands[0], None, hands[2], None], strains=("NT",))
    seen = []
    agg = simulate(q, 10, seed=1, solver=solver, progress=lambda a: seen.append(a.samples),
                   stop=lambda: len(seen) >= 4)
    assert seen == [1, 2, 3, 4] and agg.samples == 4 and agg.to_json()["partial"] is True
    full = simulate(q, 4, seed=1, solver=solver).to_json()
    assert "partial" not in full
    assert full["table"] == agg.to_json()["table"]
    agg2 = simulate(q, 5, seed=1, solver=solver, stop=0.0)
    assert agg2.samples == 0 and agg2.partial
    # resuming a given aggregate continues where it stopped
    agg3 = simulate(q, 6, seed=1, solver=solver, aggregate=agg)
    assert agg3.samples == 6 and agg3.rows[:4] == agg.rows[:4]


# --------------------------------------------------------------------------
# Statistics and questions


def test_means_stderr_and_noise():
    hands = full_deal(6)
    q = lead_question([None, None, None, hands[3]], "W", trump="S", level=4)
    agg = LeadAggregate(q, 0)
    k = len(q.cards)
    # card 0 always one trick better than card 1; card 2 noisy around card 0
    import random
    rnd = random.Random(1)
    rows = []
    for i in range(40):
        base = rnd.randrange(3, 9)
        row = [base, base - 1, base + rnd.choice((-2, 2))] + [0] * (k - 3)
        rows.append(tuple(row))
        agg.add(row)
    out = agg.to_json()
    c0, c1, c2 = q.cards[:3]
    col0 = [r[0] for r in rows]
    assert out["cards"][c0]["mean"] == round(statistics.mean(col0), 4)
    assert out["cards"][c0]["stderr"] == round(statistics.stdev(col0) / 40 ** 0.5, 4)
    best = out["best"]
    assert best in (c0, c2)
    # paired: c1 is always exactly one trick worse than c0, far outside the noise
    assert out["cards"][c1]["close"] is False
    assert out["cards"][c0]["close"] and out["cards"][c2]["close"]
    assert q.cards[3] not in [c for c in out["cards"] if out["cards"][c]["close"]]


def test_bid_best_prefers_the_higher_bid_on_ties():
    q = bid_question([["SA"] + [None] * 0, None, None, None], "N", kitty=1,
                     unseen=["SK", "SQ", "SJ", "ST"], hand_size=1)
    agg = BidAggregate(q, 0)
    agg.add((2,) * 10)               # every option 2 books: level 1 never made
    out = agg.to_json()
    # every bid scores below zero; the least bad is level 1 (-5): among equal
    # scores the highest bid, no-trump
    assert out["best"]["level"] == 1 and out["best"]["trump"] == "NT"
    assert out["best"]["score"] == -5
    q3 = bid_question([["SA"], None, None, None], "N", kitty=1, unseen=["SK", "SQ", "SJ", "ST"],
                      min_bid_3=True)
    agg3 = BidAggregate(q3, 0)
    agg3.add((2,) * 10)
    assert agg3.to_json()["best"]["level"] == 3


def test_classic_whist_trump_card_stays_with_the_dealer(solver):
    west = ["SK", "H4", "C2"]
    pool = ["SA", "SJ", "S3", "HA", "HQ", "H7", "DK", "D5", "C9"]
    q = lead_question([None, None, None, west], "W", trump="H", need=2, unseen=pool,
                      trump_card="H7", dealer="S")
    agg = simulate(q, 30, seed=2, solver=solver)
    for i in range(30):
        from whist_solve.sampling import sample_deal
        assert "H7" in sample_deal(q.spec, 2, i).hands[2]
    assert agg.samples == 30


def test_equal_card_groups():
    hand = ["SK", "SQ", "S9", "HA", "JH", "JL"]
    in_play = hand + ["SJ", "ST", "S8", "HK", "H2"]
    # SJ, ST, S8 in play separate SQ from S9; the HK, H2 and the other
    # cards are out of play
    assert equal_card_groups(hand, in_play, None, "up") == [
        ["SK", "SQ"], ["S9"], ["HA"], ["JH", "JL"]]
    # trumps: the jokers above the trump ace
    assert equal_card_groups(hand, in_play, "H", "up") == [["SK", "SQ"], ["S9"], ["JH", "JL", "HA"]]
    # downtown: K Q J T 9 8 ... 2 A (the ace stays high)
    assert equal_card_groups(["S2", "SA", "SK"], ["S2", "SA", "SK", "S3"], None, "down") == [
        ["SA", "S2"], ["SK"]]
    assert equal_card_groups(["S2", "SA", "SK"], ["S2", "SA", "SK"], None, "down") == [
        ["SA", "S2", "SK"]]
    assert equal_card_groups(["S2", "SA", "SK"], ["S2", "SA", "SK", "S3"], None, "up") == [
        ["SA", "SK"], ["S2"]]


def test_a_leader_who_declares_matches_exact_enumeration(solver):
    """Bid whist: the bidder declares and leads.  The leader's side then
    needs the tricks, and the contract fails when it takes fewer (before,
    a declarer of the leader's side was refused as its partner)."""
    west = ["SK", "SQ", "H4"]
    pool = ["SA", "SJ", "S3", "HA", "HQ", "H2", "DK", "D5", "C9"]
    q = lead_question([None, None, None, west], "W", trump="H", ranking="up", need=2,
                      declarer="E", unseen=pool)
    assert q.leader_declares and q.need == 2
    deals = completions([None, None, None, west], pool, 3)
    exact = {c: Counter() for c in west}
    for hands, _ in deals:
        vals = ref_card_values(hands, "H", "up", 3)
        for c in west:
            exact[c][vals[c]] += 1
    out = simulate(q, 600, seed=5, solver=solver).to_json()
    assert out["declarer"] == "E"
    for c in west:
        assert_matches(out["cards"][c]["hist"], exact[c], len(deals))
        # set: the leader's side, declaring, takes fewer than 2 tricks
        share = sum(v for k, v in out["cards"][c]["hist"].items() if int(k) < 2) / 600
        assert out["cards"][c]["set"] == round(share, 4)


def test_the_kitty_book_counts_for_the_declaring_side():
    """Bid whist: the bidder's discard is the first book, so 4S needs 9
    of the 12 tricks."""
    from whist_solve.cards import full_deck
    south = ["SA", "S9", "S8", "S6", "S2", "HA", "H3", "CA", "C9", "C7", "C6", "C2"]
    unseen = [c for c in full_deck(jokers=True) if c not in south]
    q = lead_question([None, None, south, None], "S", trump="S", level=4, declarer="S",
                      jokers=True, unseen=unseen, kitty_book=1)
    assert q.leader_declares and q.need == 9 and q.kitty_book == 1
    q = lead_question([None, None, south, None], "S", trump="S", level=4, declarer="S",
                      jokers=True, unseen=unseen)
    assert q.need == 10


@pytest.mark.parametrize("make,words", [
    (lambda: lead_question([None, None, None, None], "W", trump="S", hand_size=13),
     "leader's (W) hand must be known"),
    (lambda: bid_question([["SA"], None, None, None], "E", kitty=1, unseen=["SK"] * 1,
                          hand_size=1), "bidder's (E) hand must be known"),
    (lambda: lead_question([None, None, None, ["SA"]], "W", trump="X", unseen=list("SKSQSJ")),
     "unknown strain"),
    (lambda: lead_question([None, None, None, ["SA"]], "W", trump="S", level=4,
                           unseen=["SK", "SQ", "SJ"]), "needs 10 of 1 tricks"),
    (lambda: lead_question([None, None, None, ["SA"]], "W", trump="S", level=8,
                           unseen=["SK", "SQ", "SJ"]), "level 8"),
    (lambda: lead_question([None, None, None, ["SA"]], "W", trump="S", need=1, trump_card="H2",
                           dealer="S", unseen=["SK", "SQ", "H2"]), "makes H trumps, not S"),
])
def test_bad_questions(make, words):
    with pytest.raises(WhistError) as ei:
        make()
    assert words in str(ei.value)


def test_bid_samples_on_two_threads_same_answer(monkeypatch):
    """threads=2 (a sample's trump suits side by side): the same rows as
    one thread, and two threads really at work."""
    import dataclasses

    import whist_solve.bid as bid_module

    from support.threads import threads_calling

    north = ["SA", "D3", "HQ"]
    south = ["HK", "JH", "C2"]
    pool = ["SK", "S4", "HA", "H9", "D2", "JL", "C9", "CA", "S8"]
    q = bid_question([north, None, south, None], "S", kitty=3, unseen=pool)
    one = simulate(q, 20, seed=4, solver=Solver(16)).to_json()
    seen = threads_calling(monkeypatch, bid_module, "best_exchange")
    q2 = dataclasses.replace(q, threads=2, tt_mb=16)
    two = simulate(q2, 20, seed=4, solver=Solver(16)).to_json()
    assert json.dumps(two, sort_keys=True) == json.dumps(one, sort_keys=True)
    # each sample's pool starts two threads of its own: the system may give
    # a later sample's threads the numbers of earlier ones, or new ones
    assert len(seen) >= 2


def test_bid_samples_make_no_more_helper_solvers_than_trump_suits(monkeypatch):
    """threads far above the five trump suits (--threads 99999): only the
    solvers the sample's threads use are made, not one per thread asked for
    (which ran out of memory and threads)."""
    import dataclasses

    import whist_solve.simulate as sim_module

    asked = []
    grow = sim_module.grow_solvers

    def counting_grow(solvers, n, tt_mb):
        asked.append(n)
        if n > 4:
            raise AssertionError(f"{n} helper solvers asked for")
        return grow(solvers, n, tt_mb)

    monkeypatch.setattr(sim_module, "grow_solvers", counting_grow)
    north = ["SA", "D3", "HQ"]
    south = ["HK", "JH", "C2"]
    pool = ["SK", "S4", "HA", "H9", "D2", "JL", "C9", "CA", "S8"]
    q = bid_question([north, None, south, None], "S", kitty=3, unseen=pool)
    one = simulate(q, 4, seed=4, solver=Solver(16)).to_json()
    many = simulate(dataclasses.replace(q, threads=99999, tt_mb=16), 4, seed=4,
                    solver=Solver(16)).to_json()
    assert json.dumps(many, sort_keys=True) == json.dumps(one, sort_keys=True)
    assert asked and max(asked) == 4
