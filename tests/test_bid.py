"""Bid whist exchanges (issue 4): ``whist_solve.bid`` and the ``bid`` /
``check`` commands.

* Reduced deals (hands of 1-4 cards, kitties of 1-3, jokers in play): the
  optimizer against a brute force over every keep with the independent
  reference search (tests/support/reference.py), for all ten options.
* Real 12 + 6 deals: the reported keep solved directly, and a sample of
  other keeps (none better).
* Bid names, order, scores; ``check`` agrees with ``bid``; the command line.
"""
from __future__ import annotations

import random
import threading
import time
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.reference import ref_value
from support.strategies import examples, reduced_deals

from whist_solve.bid import (ALL_OPTIONS, Exchange, analyse_bid, best_exchange, best_option,
                             bid_kind, bid_name, bid_rank, bid_score, check_contract,
                             contract_name, highest_bid, summarize)
from whist_solve.cards import Position, WhistError, format_hand, parse_hand
from whist_solve.engine import Solver
from whist_solve.dealing import random_deal
from whist_solve.pbn import format_deal

SEATS = "NESW"


# --------------------------------------------------------------------------
# Brute force


def brute_force(hands, kitty, bidder, trump, ranking):
    """{keep (frozenset): tricks of the bidding side} over every keep."""
    pool = list(hands[bidder]) + list(kitty)
    n = len(hands[bidder])
    out = {}
    for keep in combinations(pool, n):
        hs = [list(h) for h in hands]
        hs[bidder] = list(keep)
        ns = ref_value(hs, None if trump == "NT" else trump, ranking, bidder)
        out[frozenset(keep)] = ns if bidder % 2 == 0 else n - ns
    return out


@settings(max_examples=examples(60))
@given(reduced_deals())
def test_exchange_matches_brute_force(shared_solver, deal):
    hands, kitty, bidder = deal
    n = len(hands[bidder])
    pool = sorted(list(hands[bidder]) + list(kitty))
    exs = analyse_bid(hands, kitty, bidder, solver=shared_solver)
    assert [(e.trump, e.ranking) for e in exs] == list(ALL_OPTIONS)
    for ex in exs:
        values = brute_force(hands, kitty, bidder, ex.trump, ex.ranking)
        best = max(values.values())
        assert ex.tricks == best, (ex, deal)
        assert ex.books == best + 1
        assert len(ex.keep) == n
        assert sorted(ex.keep + ex.discard) == pool
        assert values[frozenset(ex.keep)] == best, (ex, deal)


@settings(max_examples=examples(25))
@given(reduced_deals(max_n=3, max_m=3), st.sampled_from(ALL_OPTIONS))
def test_fresh_solver_and_seat_names(deal, option):
    """The same answer from a fresh solver, with the bidder given by name."""
    hands, kitty, bidder = deal
    a = best_exchange(hands, kitty, bidder, *option)
    values = brute_force(hands, kitty, bidder, *option)
    assert a.tricks == max(values.values())
    b = best_exchange(hands, kitty, SEATS[bidder], option[0], option[1], solver=Solver(4))
    assert b.books == a.books


@settings(max_examples=40, deadline=None)
@given(reduced_deals(max_n=3, max_m=2), st.sampled_from(ALL_OPTIONS))
def test_unchecked_entry_points_agree_with_positions(deal, option):
    """The optimizer's fast, unvalidated entry points give the values of
    the checked API."""
    hands, kitty, bidder = deal
    trump = None if option[0] == "NT" else option[0]
    keep = list(hands[bidder])
    hs = [list(h) for h in hands]
    hs[bidder] = keep
    pos = Position.make(hs, trump, option[1], bidder)
    a, b = Solver(4), Solver(4)
    ns = a.ns_value(pos)
    assert b.ns_value_unchecked(hs, trump, option[1], bidder) == ns
    for t in range(len(keep) + 2):
        assert b.can_take_unchecked(hs, trump, option[1], bidder, "NS", t) == (ns >= t)
        assert b.can_take_unchecked(hs, trump, option[1], bidder, "EW", t) == (len(keep) - ns >= t)


class _PublicOnly:
    """A Solver seen only through its position-level API (no core to reach)."""

    def __init__(self, solver):
        self._solver = solver

    def __getattr__(self, name):
        if name.startswith("_") or name == "core_for":
            raise AttributeError(name)
        return getattr(self._solver, name)


@settings(max_examples=examples(25))
@given(reduced_deals(max_n=4, max_m=3), st.sampled_from(ALL_OPTIONS))
def test_public_api_path_agrees(shared_solver, deal, option):
    """The optimizer puts keeps straight to the solver's core; through the
    public unchecked entry points it finds the same books and keep."""
    hands, kitty, bidder = deal
    a = best_exchange(hands, kitty, bidder, *option, solver=shared_solver)
    b = best_exchange(hands, kitty, bidder, *option, solver=_PublicOnly(Solver(4)))
    assert (a.books, a.keep, a.discard) == (b.books, b.keep, b.discard)


def test_joker_runs_at_no_trump():
    """Both jokers are interchangeable suitless losers at no-trump: keeping
    one of them is one choice, whichever it is."""
    hands = [["SA", "SK"], ["S2", "S3"], ["H2", "H3"], ["D2", "D3"]]
    kitty = ["JH", "JL"]
    for ranking in ("up", "down"):
        ex = best_exchange(hands, kitty, 0, "NT", ranking)
        values = brute_force(hands, kitty, 0, "NT", ranking)
        assert ex.tricks == max(values.values())
        # uptown SA SK are one run: 0, 1 or 2 jokers kept; downtown E's S2
        # and S3 lie between SK and SA
        assert ex.stats.keeps == (3 if ranking == "up" else 4)


def test_jokers_are_top_trumps():
    # N keeps the two jokers with spades trump: two sure tricks.
    hands = [["H2", "H3"], ["SA", "SK"], ["D2", "D3"], ["C2", "C3"]]
    ex = best_exchange(hands, ["JH", "JL"], 0, "S", "up")
    assert ex.tricks == 2 and ex.books == 3
    assert sorted(ex.keep) == ["JH", "JL"]


# --------------------------------------------------------------------------
# Real deals, 12 + 6


FAST_SEEDS = (13, 8)          # a few tenths of a second for the ten options


@pytest.fixture(scope="module")
def real_analyses():
    solver = Solver(128)
    out = []
    for seed in FAST_SEEDS:
        hands, kitty, bidder = random_deal(seed)
        out.append((seed, hands, kitty, bidder, analyse_bid(hands, kitty, bidder, solver=solver)))
    return out


def test_real_deal_keep_is_solved_directly(real_analyses):
    check = Solver(64)
    for seed, hands, kitty, bidder, exs in real_analyses:
        pool = sorted(hands[bidder] + kitty)
        for ex in exs:
            assert len(ex.keep) == 12 and len(ex.discard) == 6
            assert sorted(ex.keep + ex.discard) == pool
            hs = [list(h) for h in hands]
            hs[bidder] = list(ex.keep)
            pos = Position.make(hs, None if ex.trump == "NT" else ex.trump, ex.ranking, bidder)
            ns = check.ns_value(pos)
            assert ex.tricks == (ns if bidder % 2 == 0 else 12 - ns), (seed, ex)
            assert ex.books == ex.tricks + 1


def test_real_deal_no_sampled_keep_is_better(real_analyses):
    check = Solver(64)
    rng = random.Random(7)
    for seed, hands, kitty, bidder, exs in real_analyses:
        pool = hands[bidder] + kitty
        side = "NS" if bidder % 2 == 0 else "EW"
        for ex in exs:
            if ex.tricks == 12:
                continue
            for _ in range(12):
                keep = rng.sample(pool, 12)
                hs = [list(h) for h in hands]
                hs[bidder] = keep
                pos = Position.make(hs, None if ex.trump == "NT" else ex.trump, ex.ranking, bidder)
                assert not check.can_take(pos, side, ex.tricks + 1), (seed, ex, keep)
            # and the keeps one swap away from the best one
            for out_card in ex.keep[:4]:
                for in_card in ex.discard[:3]:
                    keep = [c for c in ex.keep if c != out_card] + [in_card]
                    hs = [list(h) for h in hands]
                    hs[bidder] = keep
                    pos = Position.make(hs, None if ex.trump == "NT" else ex.trump, ex.ranking, bidder)
                    assert not check.can_take(pos, side, ex.tricks + 1), (seed, ex, keep)


def test_check_agrees_with_bid(real_analyses):
    solver = Solver(128)
    for seed, hands, kitty, bidder, exs in real_analyses:
        for ex in (best_option(exs), exs[1], exs[8]):
            level = highest_bid(ex.books)
            levels = [level, level + 1] if level else [1]
            for lv in levels:
                if lv > 7:
                    continue
                res = check_contract(hands, kitty, bidder,
                                     f"{lv} {ex.trump} {ex.ranking}", solver=solver)
                assert res.books == ex.books
                assert res.makeable == (ex.books >= lv + 6)
                assert sorted(res.keep + res.discard) == sorted(hands[bidder] + kitty)
                # the line is legal, plays the keep, and takes the books
                hs = [list(h) for h in hands]
                hs[bidder] = list(res.keep)
                pos = Position.make(hs, None if ex.trump == "NT" else ex.trump, ex.ranking, bidder)
                for c in res.line:
                    pos = pos.play(c)
                assert pos.is_over()
                won = pos.ns_tricks if bidder % 2 == 0 else pos.ew_tricks
                assert won + 1 == res.books


# --------------------------------------------------------------------------
# Bids


def test_bid_names():
    assert bid_name(5, "S", "down") == "5 downtown in spades"
    assert bid_name(4, "NT", "up") == "4 no-trump uptown"
    assert bid_name(3, None, "down") == "3 no-trump downtown"
    assert bid_name(2, "H", "up") == "2 uptown in hearts"
    assert contract_name(4, "S", "down") == "4S\u2193"
    assert contract_name(3, "NT", "up") == "3NT"
    assert bid_kind("C", "up") == "uptown"
    assert bid_kind("NT", "down") == "no-trump"


def test_bid_order():
    # at equal numbers: uptown < downtown < no-trump; numbers first
    assert bid_rank(4, "S", "up") < bid_rank(4, "S", "down") < bid_rank(4, "NT", "up")
    assert bid_rank(4, "NT", "up") == bid_rank(4, "NT", "down")
    assert bid_rank(4, "NT", "down") < bid_rank(5, "C", "up")
    assert bid_rank(4, "H", "down") == bid_rank(4, "S", "down")


def test_scores():
    assert bid_score(7, 9) == -4          # SPEC: bid 7, 9 books
    assert bid_score(4, 10) == 4
    assert bid_score(4, 12) == 6          # made: books - 6
    assert bid_score(1, 6) == -1
    assert highest_bid(6) is None
    assert highest_bid(7) == 1
    assert highest_bid(13) == 7
    assert highest_bid(8, min_bid_3=True) is None
    assert highest_bid(9, min_bid_3=True) == 3


def _ex(trump, ranking, books):
    return Exchange(trump, ranking, books, [], [], books - 1)


def test_best_option_ties():
    exs = [_ex("S", "up", 9), _ex("S", "down", 9), _ex("H", "up", 8)]
    assert (best_option(exs).trump, best_option(exs).ranking) == ("S", "down")
    exs.append(_ex("NT", "up", 9))
    assert best_option(exs).trump == "NT"
    exs.append(_ex("C", "up", 10))
    assert best_option(exs).trump == "C"
    s = summarize(exs)
    assert (s.level, s.name, s.contract, s.score) == (4, "4 uptown in clubs", "4C", 4)
    low = summarize([_ex("S", "up", 8)], min_bid_3=True)
    assert low.level is None and low.score == -1


def test_bad_input():
    with pytest.raises(WhistError):
        best_exchange([["SA"], ["SK"], ["SQ"], ["SJ", "ST"]], ["S2"], 0, "S", "up")
    with pytest.raises(WhistError):
        best_exchange([["SA"], ["SK"], ["SQ"], ["SJ"]], ["SA"], 0, "S", "up")
    with pytest.raises(WhistError):
        best_exchange([["SA"], ["SK"], ["SQ"], ["SJ"]], ["S2"], 0, "X", "up")
    with pytest.raises(WhistError):
        check_contract([["SA"], ["SK"], ["SQ"], ["SJ"]], ["S2"], 0, "Pass")


# --------------------------------------------------------------------------
# Command line

from support.cli_run import run, json_lines




def board_text(number, hands, kitty, bidder=None, extra=()):
    lines = [f'[Board "{number}"]', f'[Deal "{format_deal(hands)}"]',
             f'[Kitty "{format_hand(kitty)}"]']
    if bidder is not None:
        lines.append(f'[Bidder "{SEATS[bidder]}"]')
    lines.extend(extra)
    return "\n".join(lines) + "\n\n"


SMALL = ([["SA", "SK", "H2"], ["S2", "S3", "JL"], ["H3", "H4", "D2"], ["D3", "D4", "C2"]],
         ["JH", "SQ"], 2)


def test_cli_bid_json(tmp_path):
    hands, kitty, bidder = SMALL
    f = tmp_path / "small.pbn"
    f.write_text(board_text(1, hands, kitty, bidder))
    res = run(["bid", str(f), "--json"])
    assert res.exit_code == 0, res.stderr
    (obj,) = json_lines(res)
    assert obj["board"] == "1" and obj["bidder"] == "S"
    assert obj["deal"] == format_deal(hands)
    assert [(o["trump"], o["ranking"]) for o in obj["options"]] == list(ALL_OPTIONS)
    exs = analyse_bid(hands, kitty, bidder)
    for o, ex in zip(obj["options"], exs):
        assert set(o) >= {"trump", "ranking", "books", "keep", "discard"}
        assert o["books"] == ex.books
        keep, discard = parse_hand(o["keep"]), parse_hand(o["discard"])
        assert sorted(keep + discard) == sorted(hands[bidder] + kitty)
        assert len(keep) == 3
    best = best_option(exs)
    assert obj["best"]["books"] == best.books
    assert (obj["best"]["trump"], obj["best"]["ranking"]) == (best.trump, best.ranking)
    assert obj["bid"] is None          # 3 tricks to play: at most 4 books
    assert "score" in obj


def test_cli_bid_bidder_option_and_people_output(tmp_path):
    hands, kitty, _ = SMALL
    f = tmp_path / "small.pbn"
    f.write_text(board_text(1, hands, kitty))          # no Bidder tag
    res = run(["bid", str(f), "--json"])             # every seat (tests/test_bid_cli.py)
    assert res.exit_code == 0 and json_lines(res)[0]["bidder"] is None
    res = run(["bid", str(f), "--json", "--bidder", "E"])
    assert res.exit_code == 0
    assert json_lines(res)[0]["bidder"] == "E"
    res = run(["bid", str(f), "--bidder", "N"])
    assert res.exit_code == 0
    assert "no-trump" in res.stdout and "Books" in res.stdout


def test_cli_check_exit_codes(tmp_path):
    hands, kitty, bidder = random_deal(13)
    f = tmp_path / "real.pbn"
    f.write_text(board_text(7, hands, kitty, bidder))
    ex = best_exchange(hands, kitty, bidder, "NT", "down")
    level = highest_bid(ex.books)
    assert level is not None and level < 7        # a good test deal
    res = run(["check", str(f), "--contract", f"{level} NT down", "--json"])
    assert res.exit_code == 0, res.stderr
    (obj,) = json_lines(res)
    assert obj["makeable"] is True and obj["books"] == ex.books
    assert set(obj) >= {"board", "deal", "contract", "makeable", "books", "keep", "discard", "line"}
    assert len(obj["line"]) == 48
    res = run(["check", str(f), "--contract", f"{level + 1}NT\u2193", "--json"])
    assert res.exit_code == 1
    assert json_lines(res)[0]["makeable"] is False
    res = run(["check", str(f), "--contract", f"{level + 1}NT\u2193"])
    assert res.exit_code == 1 and "not makeable" in res.stdout


def test_cli_bad_input_other_boards_still_processed(tmp_path):
    hands, kitty, bidder = SMALL
    bad_hands = [list(h) for h in hands]
    bad_hands[1] = ["S2", "S3"]                      # unequal hands
    text = (board_text(1, bad_hands, kitty, bidder)
            + board_text(2, hands, kitty)            # no bidder: bid analyses every seat
            + board_text(3, hands, kitty, bidder))
    f = tmp_path / "mixed.pbn"
    f.write_text(text)
    res = run(["bid", str(f), "--json"])
    assert res.exit_code == 2
    assert [o["board"] for o in json_lines(res)] == ["2", "3"]
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "board 1" in errors[0], res.stderr
    assert "Traceback" not in res.stderr
    res = run(["check", str(f), "--contract", "1 S up", "--json"])
    assert res.exit_code == 2
    assert [o["board"] for o in json_lines(res)] == ["3"]
    res = run(["check", str(f), "--contract", "9 S up"])
    assert res.exit_code == 2


@pytest.mark.parametrize("seed", [5, 12])
def test_keeps_asked_in_small_batches_give_the_same_search(seed, monkeypatch):
    """A thread alone on an option asks the core about many keeps a call
    (Core.keeps_until), stopping at a keep that takes the target or after
    a budget of nodes: calls of one keep, or of one node's budget, resume
    where the last stopped and give the same exchange and the same counts
    of every kind (the searches are the same, in the same order)."""
    import whist_solve.bid as bid

    def run():
        hands, kitty, bidder = random_deal(seed)
        out = []
        for option in ALL_OPTIONS:
            ex = best_exchange(hands, kitty, bidder, *option, solver=Solver(64))
            st = ex.stats
            out.append((ex.books, ex.keep, ex.discard, st.nodes, st.bounded, st.null_window,
                        st.exact, st.raised))
        return out

    default = run()
    monkeypatch.setattr(bid, "KEEP_ROWS", 1)
    one_keep = run()
    monkeypatch.setattr(bid, "KEEP_ROWS", 7)
    monkeypatch.setattr(bid, "KEEP_BATCH_NODES", 1)
    one_node = run()
    assert one_keep == default
    assert one_node == default
    assert sum(r[5] for r in default) > 100     # many keeps were asked


# --------------------------------------------------------------------------
# Several threads on one board


def _brief(exchanges, nodes=True):
    return [(ex.trump, ex.ranking, ex.books, ex.keep, ex.discard) + ((ex.stats.nodes,) if nodes else ())
            for ex in exchanges]


@pytest.mark.parametrize("seed", [3, 8])
def test_threads_give_the_same_exchanges_and_nodes(seed, monkeypatch):
    """The trump suits side by side on two threads, no keeps handed over:
    the same books, keeps, discards, and (fresh solvers: each table is
    emptied at a change of trump anyway) the same node counts as one
    thread."""
    import whist_solve.bid as bid

    from support.threads import threads_calling

    monkeypatch.setattr(bid, "STEAL_MIN", 10 ** 9)
    hands, kitty, bidder = random_deal(seed)
    one = analyse_bid(hands, kitty, bidder, solver=Solver(64), threads=1)
    seen = threads_calling(monkeypatch, bid, "best_exchange")
    two = analyse_bid(hands, kitty, bidder, solver=Solver(64), threads=2, tt_mb=64)
    assert _brief(two) == _brief(one)
    assert len(seen) == 2
    assert all(ex.stats.shared == 0 for ex in two)


@pytest.mark.parametrize("seed,steal_min,tt_mb", [(3, 2, 64), (24, 20, 64), (8, 1, 64),
                                                 (8, 1, 0.25)])
def test_keeps_handed_over_give_the_same_exchanges(seed, steal_min, tt_mb, monkeypatch):
    """An idle thread takes over runs of another option's keeps, searching
    in that option's table: the same books, keeps and discards as one
    thread (the first keep with the most tricks, whoever finds it).  A
    quarter-megabyte table fills up while shared: the helper goes on in
    its own table.  (Seed 8's tiny table: 99 keeps handed over and 77 fills
    of one table in about a second; seed 24's took a minute on a slow day.
    A full shared table is tested step by step in test_table_sharing.)"""
    import whist_solve.bid as bid

    monkeypatch.setattr(bid, "STEAL_MIN", steal_min)
    monkeypatch.setattr(bid, "STEAL_AFTER", 0.0)
    # one keep a call to the core, so that a helper is seen at every keep
    # (these options are short: in batches, one can end before a helper
    # has had a chance)
    monkeypatch.setattr(bid, "KEEP_ROWS", 1)
    hands, kitty, bidder = random_deal(seed)
    one = analyse_bid(hands, kitty, bidder, solver=Solver(64), threads=1)
    # Once a thread is idle and until it has taken keeps over, each call
    # of the others to the core waits a millisecond: the idle thread looks
    # for work every HELP_POLL seconds, and without this the last options
    # could end before it looked (about one run in six).
    idle, taken = threading.Event(), []
    real_help, real_steal, real_until = bid._Sharing.help, bid._KeepWork.steal, bid._Probe.keeps_until

    def help(self, solver, stop):
        idle.set()
        return real_help(self, solver, stop)

    def steal(self, solver):
        rng = real_steal(self, solver)
        if rng is not None:
            taken.append(rng)
        return rng

    def keeps_until(self, *args):
        if idle.is_set() and not taken:
            time.sleep(0.001)
        return real_until(self, *args)

    monkeypatch.setattr(bid._Sharing, "help", help)
    monkeypatch.setattr(bid._KeepWork, "steal", steal)
    monkeypatch.setattr(bid._Probe, "keeps_until", keeps_until)
    # Whether a keep is handed over depends on the threads' timing: on a
    # machine busy with other tests the idle thread may look only when too
    # few keeps are left (one run of the whole suite in many).  Every run
    # must give the same exchanges; one of three must hand keeps over.
    shared = 0
    for _attempt in range(3):
        idle.clear()
        taken.clear()
        two = analyse_bid(hands, kitty, bidder, solver=Solver(tt_mb), threads=2, tt_mb=tt_mb)
        assert _brief(two, nodes=False) == _brief(one, nodes=False)
        shared = sum(ex.stats.shared for ex in two)
        if shared:
            break
    assert shared >= 1


def test_threads_fall_back_when_a_second_table_does_not_fit(monkeypatch):
    import whist_solve.engine as engine

    made = []

    class OneTableOnly(engine.Solver):
        def __init__(self, tt_mb=64):
            if made:
                raise engine.TableMemoryError("no memory for a second table")
            made.append(tt_mb)
            super().__init__(tt_mb)

    monkeypatch.setattr(engine, "Solver", OneTableOnly)
    hands, kitty, bidder = random_deal(5)
    got = analyse_bid(hands, kitty, bidder, threads=2, tt_mb=64)
    assert made == [64]
    assert _brief(got) == _brief(analyse_bid(hands, kitty, bidder, solver=Solver(64)))


def test_bid_command_threads_same_output(tmp_path):
    from support.cli_run import run

    hands, kitty, bidder = random_deal(8)
    f = tmp_path / "b.pbn"
    f.write_text(f'[Board "1"]\n[Deal "{format_deal(hands)}"]\n[Kitty "{format_hand(kitty)}"]\n'
                 f'[Bidder "{SEATS[bidder]}"]\n\n[Board "2"]\n[Deal "{format_deal(hands)}"]\n'
                 f'[Kitty "{format_hand(kitty)}"]\n\n')
    outs = []
    for threads in ("1", "2"):
        res = run(["bid", str(f), "--json", "--threads", threads, "--tt-mb", "64"])
        assert res.exit_code == 0, res.stderr
        outs.append(res.stdout)
    assert outs[0] == outs[1] and outs[0].count("\n") == 2


def test_an_error_in_one_thread_stops_the_others(monkeypatch):
    """The spades thread fails at once; the no-trump thread (seed 21's
    no-trump uptown searches for seconds) stops at its next keep instead
    of finishing, and the error reaches the caller."""
    import whist_solve.bid as bid

    real = bid.best_exchange
    outcome = {}

    def flaky(hands, kitty, bidder, trump, ranking, **kw):
        if trump == "S":
            raise RuntimeError("spades failed")
        try:
            return real(hands, kitty, bidder, trump, ranking, **kw)
        except bid.ExchangeStopped:
            outcome[trump, ranking] = "stopped"
            raise

    monkeypatch.setattr(bid, "best_exchange", flaky)
    hands, kitty, bidder = random_deal(21)
    with pytest.raises(RuntimeError, match="spades failed"):
        analyse_bid(hands, kitty, bidder, solver=Solver(64), threads=2, tt_mb=64)
    assert outcome == {("NT", "up"): "stopped"}


def test_best_exchange_stop():
    hands, kitty, bidder = random_deal(3)
    with pytest.raises(WhistError, match="stopped"):
        best_exchange(hands, kitty, bidder, "NT", "up", solver=Solver(64), stop=lambda: True)
