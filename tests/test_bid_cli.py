"""``bid`` with no bidder (every seat), the scoring variants and ``check``'s
output: who led each trick, "set by N", the ASCII contract."""
from __future__ import annotations

import pytest

from support.cli_run import json_lines, run

from whist_solve.bid import (Exchange, Scoring, analyse_bid, bid_score, highest_bid, summarize)
from whist_solve.cards import format_hand
from whist_solve.dealing import random_deal
from whist_solve.pbn import format_deal
from whist_solve.vocab import SEATS, bid_rank, parse_contract

SMALL = ([["SA", "SK", "H2"], ["S2", "S3", "JL"], ["H3", "H4", "D2"], ["D3", "D4", "C2"]],
         ["JH", "SQ"])


def board_text(number, hands, kitty, *tags):
    lines = [f'[Board "{number}"]', f'[Deal "{format_deal(hands)}"]',
             f'[Kitty "{format_hand(kitty)}"]', *tags]
    return "\n".join(lines) + "\n\n"


def _write(tmp_path, text, name="d.pbn"):
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def test_bid_without_bidder_analyses_every_seat(tmp_path):
    hands, kitty, _ = random_deal(13)
    f = _write(tmp_path, board_text(1, hands, kitty, '[Dealer "E"]'))
    res = run(["bid", f, "--json"])
    assert res.exit_code == 0, res.stderr
    (obj,) = json_lines(res)
    assert obj["bidder"] is None and set(obj["seats"]) == set(SEATS)
    assert obj["scoring"] == {"nt_double": False, "boston": 0, "min_bid": 1}
    ranks = {}
    for seat, letter in enumerate(SEATS):
        exs = analyse_bid(hands, kitty, seat)
        summary = summarize(exs)
        got = obj["seats"][letter]
        assert [o["books"] for o in got["options"]] == [ex.books for ex in exs]
        assert got["best"]["books"] == summary.best.books
        assert got["contract"] == summary.contract and got["score"] == summary.score
        if summary.contract:
            assert got["contract_ascii"].isascii()
            assert parse_contract(got["contract_ascii"]).name() == summary.contract
        ranks[letter] = summary.rank
    # the winner has the highest bid; equal bids go to the first to speak
    # (the dealer is E: S, W, N, E)
    order = ["S", "W", "N", "E"]
    top = max(r for r in ranks.values() if r is not None)
    assert obj["winner"] == next(s for s in order if ranks[s] == top)
    # one bidder: the JSON of a single seat, unchanged
    res = run(["bid", f, "--json", "--bidder", "W"])
    (one,) = json_lines(res)
    assert one["bidder"] == "W" and "seats" not in one
    assert one["options"] == obj["seats"]["W"]["options"]


def test_bid_without_bidder_people_output(tmp_path):
    hands, kitty, _ = random_deal(13)
    f = _write(tmp_path, board_text(1, hands, kitty))
    res = run(["bid", f])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    for name in ("North", "East", "South", "West"):
        assert name in out
    assert "Should win the auction" in out or "No seat can make a bid" in out
    assert "scoring: made books - 6" in out


# A reduced deal (6 cards, a kitty of 3) where no seat takes 9 books: with
# the lowest bid 3, every seat passes.
PASSED_OUT = ('[Variant "bid"]\n{dealer}[Deal "N:J5.4.7.64 T.T8.JT6. KQ.AJ32.. 632.5..3.H"]\n'
              '[Kitty "4..K.8"]\n')


@pytest.mark.parametrize("dealer_tag, dealer", [('[Dealer "E"]\n', "E"), ("", "W")])
def test_when_every_seat_passes_the_dealer_must_bid(tmp_path, dealer_tag, dealer):
    """No seat can make the lowest bid: the first three pass and the dealer
    must bid the lowest level of its best option (without a Dealer tag N
    speaks first, so W deals).  Its loss is what summarize says."""
    f = _write(tmp_path, '[Board "1"]\n' + PASSED_OUT.format(dealer=dealer_tag))
    res = run(["bid", f, "--json", "--min-bid-3"])
    assert res.exit_code == 0, res.stderr
    (obj,) = json_lines(res)
    assert all(obj["seats"][x]["bid"] is None for x in SEATS)
    assert obj["winner"] == dealer
    hands = [["SJ", "S5", "H4", "D7", "C6", "C4"], ["ST", "HT", "H8", "DJ", "DT", "D6"],
             ["SK", "SQ", "HA", "HJ", "H3", "H2"], ["S6", "S3", "S2", "H5", "C3", "JH"]]
    exs = analyse_bid(hands, ["S4", "DK", "C8"], SEATS.index(dealer))
    s = summarize(exs, min_bid_3=True)
    assert s.level is None
    forced = obj["forced"]
    assert forced["score"] == s.score < 0 and forced["books"] == s.best.books < 9
    assert parse_contract(forced["contract_ascii"]).level == 3
    assert parse_contract(forced["contract_ascii"]).name() == forced["contract"]
    res = run(["bid", f, "--min-bid-3"])
    out = " ".join(res.stdout.replace("│", " ").split())
    assert "No seat can make a bid: the first three pass and the dealer" in out
    assert f"must bid {forced['bid']} ({forced['contract']}): {forced['books']} books, " \
           f"scores {forced['score']:+d}" in out
    # a seat that can bid wins as before, and nothing is forced
    res = run(["bid", f, "--json"])
    (obj,) = json_lines(res)
    assert obj["forced"] is None and obj["seats"][obj["winner"]]["bid"] is not None


def test_scoring_variants():
    nt = Scoring(nt_double=True)
    assert bid_score(4, 10, "NT", nt) == 8 and bid_score(4, 10, "S", nt) == 4
    assert bid_score(4, 8, "NT", nt) == -4           # set by 2, doubled
    boston = Scoring(boston=5)
    assert bid_score(7, 13, "S", boston, all_books=13) == 12
    assert bid_score(6, 12, "S", boston, all_books=13) == 6
    assert bid_score(7, 13, "S") == 7                 # the default rule
    assert "no-trump double" in nt.describe() and "Boston +5" in boston.describe()
    assert "double" not in Scoring().describe()


def _ex(trump, ranking, books, n=12):
    return Exchange(trump=trump, ranking=ranking, books=books, keep=["SA"] * n, discard=[],
                    tricks=books - 1)


def test_nt_double_changes_the_best_option():
    exs = [_ex("S", "up", 12), _ex("NT", "up", 11)]
    assert summarize(exs).best.trump == "S"                  # most books
    s = summarize(exs, scoring=Scoring(nt_double=True))
    assert s.best.trump == "NT" and s.score == 10 and s.contract == "5NT"
    # a Boston bonus makes the sweep worth more than a doubled no-trump
    exs = [_ex("S", "up", 13), _ex("NT", "up", 12)]
    assert summarize(exs, scoring=Scoring(nt_double=True)).best.trump == "NT"
    s = summarize(exs, scoring=Scoring(nt_double=True, boston=6))
    assert s.best.trump == "S" and s.score == 13


def test_bid_scoring_options_in_output(tmp_path):
    hands, kitty, bidder = random_deal(13)
    f = _write(tmp_path, board_text(1, hands, kitty, f'[Bidder "{SEATS[bidder]}"]'))
    res = run(["bid", f, "--json", "--nt-double", "--boston", "4"])
    (obj,) = json_lines(res)
    assert obj["scoring"] == {"nt_double": True, "boston": 4, "min_bid": 1}
    exs = analyse_bid(hands, kitty, bidder)
    assert obj["score"] == summarize(exs, scoring=Scoring(nt_double=True, boston=4)).score
    res = run(["bid", f, "--boston", "4", "--nt-double"])
    assert "no-trump double; Boston +4" in res.stdout


def test_check_led_by_set_by_and_ascii(tmp_path):
    hands, kitty, bidder = random_deal(13)
    f = _write(tmp_path, board_text(7, hands, kitty, f'[Bidder "{SEATS[bidder]}"]'))
    exs = analyse_bid(hands, kitty, bidder, options=[("NT", "down")])
    level = highest_bid(exs[0].books)
    assert level is not None and level < 7
    bad = level + 1
    res = run(["check", f, "--contract", f"{bad}NT\u2193", "--json"])
    assert res.exit_code == 1
    (obj,) = json_lines(res)
    assert obj["contract"] == f"{bad}NT\u2193" and obj["contract_ascii"] == f"{bad}NT down"
    assert obj["contract_ascii"].isascii()
    assert parse_contract(obj["contract_ascii"]).ranking == "down"
    short = bad + 6 - obj["books"]
    assert obj["set_by"] == short and obj["score"] == -short
    res = run(["check", f, "--contract", f"{bad}NT\u2193", "--json", "--nt-double"])
    assert json_lines(res)[0]["score"] == -2 * short
    res = run(["check", f, "--contract", f"{bad} NT down"])
    assert f"Set by {short}" in res.stdout and f"scores {-short:+d}" in res.stdout
    assert "Led" in res.stdout
    # the seat that led each trick: the bidder leads the first
    rows = [ln.split() for ln in res.stdout.splitlines()
            if ln.strip("│ ").split(" ")[0].isdigit()]
    first = next(r for r in rows if r[1] == "1")
    assert first[2] == SEATS[bidder]
    res = run(["check", f, "--contract", f"{level} NT down"])
    assert res.exit_code == 0 and f"scores {level:+d}" in res.stdout


def test_check_refuses_a_doubled_bid(tmp_path):
    """Bid whist has no doubles: '4SX' was checked as 4S, the X dropped
    without a word (from --contract or the Contract tag)."""
    hands, kitty, bidder = random_deal(13)
    f = _write(tmp_path, board_text(1, hands, kitty, f'[Bidder "{SEATS[bidder]}"]'))
    res = run(["check", f, "--contract", "4SX"])
    assert res.exit_code == 2 and res.stdout == ""
    assert "a bid whist bid is not doubled" in " ".join(res.stderr.replace("\u2502", " ").split())
    g = _write(tmp_path, board_text(1, hands, kitty, f'[Bidder "{SEATS[bidder]}"]',
                                    '[Contract "3NTX"]'))
    res = run(["check", g])
    assert res.exit_code == 2 and "the Contract 3NTX is doubled" in res.stderr


def test_an_empty_kitty_is_said_so(tmp_path):
    # a Kitty tag with no card: "no kitty (give a Kitty tag)" misled
    p = tmp_path / "ek.pbn"
    p.write_text('[Board "1"]\n[Variant "bid"]\n[Deal "N:AK3...7 .AJ6..2 .Q4..53 64..2..H"]\n'
                 '[Kitty "..."]\n[Bidder "S"]\n[Contract "1S"]\n')
    for command in (["bid"], ["check"]):
        r = run([*command, str(p)])
        assert r.exit_code == 2 and "the kitty is empty: no exchange to make" in r.stderr


def test_a_whole_deal_without_kitty_tag_has_the_six_cards_not_dealt(tmp_path):
    # 12 cards a hand and no Kitty tag: the kitty is what the 54-card deck
    # has left (bid and check refused "no kitty")
    hands, kitty, _ = random_deal(21)
    with_kitty = board_text(1, hands, kitty, '[Bidder "S"]')
    without = "".join(ln + "\n" for ln in with_kitty.splitlines() if not ln.startswith("[Kitty"))
    from whist_solve.pbn import read_pbn
    (b,) = read_pbn(without)
    assert b.kitty == []
    got_hands, got_kitty = b.exchange_deal()
    assert got_hands == read_pbn(with_kitty)[0].hands
    assert sorted(got_kitty) == sorted(kitty) and len(got_kitty) == 6
    r = run(["bid", "--json", _write(tmp_path, without)])
    assert r.exit_code == 0, r.stderr
    (obj,) = json_lines(r)
    assert obj["bidder"] == "S" and obj["kitty"] == format_hand(kitty)
    # a reduced deal's kitty cannot be told; nor a Variant that is not bid whist
    small = board_text(1, *SMALL).replace('[Kitty "', '[Note "')
    (b,) = read_pbn(small)
    with pytest.raises(Exception, match="no kitty .*has the 6 cards not dealt"):
        b.exchange_deal()
    # 12 cards a hand with no joker dealt and no Variant may be a whist
    # deal after its first trick: bid whist's only with a Variant "bid"
    deck = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    plain = [deck[i::4][:12] for i in range(4)]
    text = f'[Board "1"]\n[Deal "{format_deal(plain)}"]\n[Bidder "S"]\n'
    (b,) = read_pbn(text)
    with pytest.raises(Exception, match="no kitty .*with jokers dealt or a Variant"):
        b.exchange_deal()
    (b,) = read_pbn(text + '[Variant "bid"]\n')
    assert sorted(b.exchange_deal()[1]) == sorted(["JH", "JL"] + [c for c in deck if c not in
                                                                   sum(plain, [])])
    (b,) = read_pbn(without.rstrip() + '\n[Variant "classic"]\n')
    with pytest.raises(Exception, match="bid whist"):
        b.exchange_deal()


def test_a_deal_one_card_short_of_the_deck_is_warned_of(tmp_path):
    # the first example board with the kitty's club 2 left out: 53 cards,
    # read as a reduced deal (the bidder keeps 12 of 17) without a word
    from support import ROOT
    text = (ROOT / "examples" / "bidwhist.pbn").read_text()
    p = tmp_path / "short.pbn"
    p.write_text(text.replace('[Kitty ".J5..A962"]', '[Kitty ".J5..A96"]'))
    said = ("board 1: 53 cards, one short of a 54-card deck (a card left out of the kitty?): "
            "played as a reduced deal, the bidder keeping 12 of 17")
    for args in (["bid", "--board", "1"], ["check", "--board", "1", "--contract", "4S"]):
        r = run([*args, str(p)])
        assert said in r.stderr, (args, r.stderr)
        r = run([*args, str(ROOT / "examples" / "bidwhist.pbn")])
        assert "one short" not in r.stderr, args


def test_bidder_option_overrides_a_bidder_and_declarer_that_differ(tmp_path):
    # the file's Bidder N and Declarer E contradict each other; --bidder W
    # overrides both (options override the file), and the board was refused
    p = tmp_path / "ov.pbn"
    p.write_text('[Board "1"]\n[Variant "bid"]\n'
                 '[Deal "N:T76.J.4.5 .A3.QT9.Q AK8..K.J8 J.KT9.7.9"]\n[Kitty "4..A6."]\n'
                 '[Bidder "N"]\n[Declarer "E"]\n[Contract "1S"]\n')
    for args in (["bid"], ["check", "--contract", "1S"]):
        r = run([*args, "--json", str(p)])
        assert r.exit_code == 2 and "the Bidder (N) and the Declarer (E) differ" in r.stderr, args
        r = run([*args, "--json", "--bidder", "W", str(p)])
        assert r.exit_code in (0, 1) and "differ" not in r.stderr, (args, r.stderr)
        assert json_lines(r)[0]["bidder"] == "W", args


def test_hands_too_short_for_any_bid_are_warned_of(tmp_path):
    # with n cards a hand the bidding side takes at most n + 1 books (the
    # discard's included) and the lowest bid needs 7: from 5 cards down no
    # bid can be made, which the table's dashes alone did not say
    p = tmp_path / "five.pbn"
    p.write_text('[Board "1"]\n[Variant "bid"]\n[Bidder "N"]\n'
                 '[Deal "N:AKQJT... 98765... ..AKQJT. ...AKQJT"]\n[Kitty "432.AK.."]\n')
    said = ("board 1: hands of 5 cards: the bidding side takes at most 6 books, and the "
            "lowest bid needs 7: no bid can be made")
    r = run(["bid", "--json", str(p)])
    assert r.exit_code == 0 and said in r.stderr, r.stderr
    assert json_lines(r)[0]["bid"] is None
    r = run(["check", "--contract", "1S", str(p)])
    assert r.exit_code == 1 and said in r.stderr, r.stderr
    # six cards a hand can make a bid of 1: no warning
    from support import ROOT
    r = run(["bid", "--board", "1", str(ROOT / "examples" / "bidwhist.pbn")])
    assert "no bid can be made" not in r.stderr


def test_check_ends_with_a_summary_of_its_verdicts(tmp_path):
    from support import ROOT
    p = tmp_path / "two.pbn"
    p.write_text('[Board "1"]\n[Variant "bid"]\n[Bidder "N"]\n'
                 '[Deal "N:AKQJT... 98765... ..AKQJT. ...AKQJT"]\n[Kitty "432.AK.."]\n\n'
                 '[Board "2"]\n[Deal ""]\n')
    # (the example's board 2 has no bidder: an error of its own)
    r = run(["check", "--contract", "1S", str(p), str(ROOT / "examples" / "bidwhist.pbn")])
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("2 boards checked, 2 errors (1 makeable, 1 not) in "), r.stderr
    assert r.exit_code == 2


def test_an_empty_or_unknown_deal_or_kitty_tag_is_named_as_such(tmp_path):
    # PBN's "" and "?" mean unknown: the tag is there, and the message
    # says so rather than calling it missing
    p = tmp_path / "blank.pbn"
    p.write_text('[Board "1"]\n[Deal ""]\n\n[Board "2"]\n[Deal "?"]\n\n'
                 '[Board "3"]\n[Variant "bid"]\n[Bidder "N"]\n'
                 '[Deal "N:AKQJT... 98765... ..AKQJT. ...AKQJT"]\n[Kitty ""]\n\n'
                 '[Board "4"]\n[Variant "bid"]\n[Bidder "N"]\n'
                 '[Deal "N:AKQJT... 98765... ..AKQJT. ...AKQJT"]\n[Undealt "?"]\n')
    r = run(["bid", str(p)])
    assert r.exit_code == 2
    assert 'board 1: the Deal tag is empty (""): no cards to play' in r.stderr
    assert 'board 2: the Deal tag is unknown ("?"): no cards to play' in r.stderr
    assert "board 3: the Kitty tag is empty (\"\"): give the kitty's cards" in r.stderr
    assert "board 4: the Undealt tag is unknown (\"?\"): give the kitty's cards" in r.stderr
    assert "missing" not in r.stderr and "no Deal tag" not in r.stderr
    p.write_text('[Board "5"]\n[Trump "S"]\n')
    assert "board 5: no Deal tag" in run(["solve", str(p)]).stderr


def test_a_no_trump_bid_without_direction_that_fails_uptown_is_checked_downtown():
    # SPEC reads 4NT as uptown, and that is the verdict (and the status);
    # but a no-trump bidder names the direction after the kitty, so where
    # uptown fails the downtown verdict is given beside it
    from support import ROOT
    f = str(ROOT / "examples" / "bidwhist.pbn")
    books = {(o["trump"], o["ranking"]): o["books"]
             for o in json_lines(run(["bid", "--json", "--board", "1", f]))[0]["options"]}
    assert books[("NT", "up")] < 10 <= books[("NT", "down")]    # (what this test relies on)
    r = run(["check", "--json", "--board", "1", "--contract", "4NT", f])
    o = json_lines(r)[0]
    assert r.exit_code == 1 and o["makeable"] is False and o["books"] == books[("NT", "up")]
    assert o["downtown"] == {"contract": "4NT\u2193", "contract_ascii": "4NT down",
                             "makeable": True, "books": books[("NT", "down")]}
    r = run(["check", "--board", "1", "--contract", "4NT", f])
    assert r.exit_code == 1
    assert (f"Downtown, 4NT\u2193: makeable, {books[('NT', 'down')]} books"
            in " ".join(r.stdout.replace("\u2502", " ").split()))
    # a direction given, or a bid made uptown: nothing more to say
    for contract in ("4NT up", "4NT\u2191", "4 no-trump uptown", f"{books[('NT', 'up')] - 6}NT"):
        r = run(["check", "--json", "--board", "1", "--contract", contract, f])
        assert "downtown" not in json_lines(r)[0], contract
    # the file's Contract tag is read the same way
    text = open(f).read().replace('[Contract "4S"]', '[Contract "4NT"]')
    r = run(["check", "--json", "--board", "1", "-"], input=text)
    assert json_lines(r)[0]["downtown"]["makeable"] is True, r.stderr
