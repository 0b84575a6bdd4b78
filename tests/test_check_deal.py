"""``check`` of a deal without a kitty (bridge, classic whist): is the
contract makeable by the declarer, double-dummy from the opening lead?

(a) the library's verdict equals the double-dummy table's entry (the
    declarer's left-hand opponent leading, the contract's strain and
    ranking), its line is legal and takes the tricks it says, its score
    is the duplicate score of those tricks;
(b) the command: verdicts and exit statuses, the JSON fields, doubled
    contracts (bridge), --bidder naming the declarer, a passed-out board,
    an end position, and bid whist's boards unchanged.
"""
from __future__ import annotations

import random

import pytest

from whist_solve.cards import Position
from whist_solve.engine import Solver, dd_table
from whist_solve.errors import WhistError
from whist_solve.makeable import check_deal_contract
from whist_solve.par import contract_score
from whist_solve.pbn import format_deal, read_pbn_file
from whist_solve.vocab import SEATS, parse_contract

from support import TEST_DATA
from support.cli_run import board, json_lines, run

BRIDGE = str(TEST_DATA / "bridge_export.pbn")


def _deal(rng):
    deck = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(deck)
    return [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]


def _declarer_tricks(pos: Position, line, declarer: int) -> int:
    won = 0
    for card in line:
        assert card in pos.legal_moves()
        pos = pos.play(card)
        if not pos.trick and pos.leader % 2 == declarer % 2:
            won += 1
    assert pos.is_over()
    return won


@pytest.mark.parametrize("seed", range(3))
def test_the_verdict_is_the_table_s_entry_and_its_line_takes_it(seed):
    rng = random.Random(seed)
    hands = _deal(rng)
    solver = Solver()
    table = dd_table(hands, rankings=("up", "down"), solver=solver)
    for _ in range(4):
        strain = rng.choice(["S", "H", "D", "C", "NT"])
        ranking = rng.choice(["up", "down"])
        level = rng.randint(1, 7)
        declarer = rng.randrange(4)
        doubled = rng.randrange(3)
        text = f"{level}{strain}{'X' * doubled}{' down' if ranking == 'down' else ''}"
        res = check_deal_contract(hands, text, SEATS[declarer], solver=solver)
        ns = table[strain][ranking][SEATS[(declarer + 1) % 4]]
        want = ns if declarer % 2 == 0 else 13 - ns
        assert res.tricks == want
        assert res.need == level + 6 and res.makeable == (want >= level + 6)
        assert res.set_by == max(0, level + 6 - want)
        start = Position.make(hands, None if strain == "NT" else strain, ranking, (declarer + 1) % 4)
        assert _declarer_tricks(start, res.line, declarer) == want
        for vul in (False, True):
            # (bridge has no downtown contract to score)
            assert res.score(vul) == (None if ranking == "down"
                                      else contract_score(level, strain, doubled, vul, want))
        assert res.score(None) is None


def test_what_the_library_refuses():
    hands = _deal(random.Random(9))
    for contract, said in (("Pass", "passed out"), (parse_contract("S"), "level 1 to 7")):
        with pytest.raises(WhistError, match=said):
            check_deal_contract(hands, contract, "N")
    with pytest.raises(WhistError, match="hands of 13 cards"):
        check_deal_contract([h[:3] for h in hands], "1S", "N")
    with pytest.raises(WhistError):
        check_deal_contract(hands, "4S", "Q")


def test_the_command_on_a_bridge_file():
    r = run(["check", "--json", "--board", "1,2", BRIDGE])
    assert r.exit_code == 1, r.stderr           # board 1 goes down
    one, two = json_lines(r)
    assert one["contract"] == "4SX" and one["declarer"] == "S" and one["leader"] == "W"
    assert (one["makeable"], one["tricks"], one["need"], one["set_by"]) == (False, 8, 10, 2)
    assert one["vulnerable"] is False and one["score"] == -300 and len(one["line"]) == 52
    assert two["contract"] == "3NT" and two["declarer"] == "N" and two["leader"] == "E"
    assert (two["makeable"], two["tricks"], two["score"]) == (True, 9, 600)
    assert one["file"].endswith("bridge_export.pbn")
    r = run(["check", "--board", "2", BRIDGE])
    assert r.exit_code == 0
    flat = " ".join(r.stdout.replace("\u2502", " ").split())
    assert "3NT by North: makeable, 9 tricks with best play (9 needed)" in flat
    assert "Made with 9 tricks: scores +600 (vulnerable)" in flat
    assert "One optimal play, East leading" in flat
    # --bidder names the declarer; --contract another contract, doubled or not
    r = run(["check", "--json", "--board", "2", "--bidder", "S", "--contract", "4HXX", BRIDGE])
    (o,) = json_lines(r)
    assert o["declarer"] == "S" and o["leader"] == "W" and o["contract"] == "4HXX"
    (b2,) = [b for b in read_pbn_file(BRIDGE) if b.label == "2"]
    assert o["tricks"] == dd_table(b2.hands, strains=("H",))["H"]["up"]["W"]
    assert r.exit_code == (0 if o["makeable"] else 1)


def test_boards_the_command_cannot_check():
    # a passed-out board is skipped with a warning (a club's file of
    # contracts has some): not bad input
    r = run(["check", "--board", "2,3", BRIDGE])
    assert r.exit_code == 0, r.stderr
    assert "board 3: passed out: no contract to check" in r.stderr and "error:" not in r.stderr
    assert "1 board checked, 0 errors (1 makeable, 0 not)" in r.stderr
    for extra in ([], ["--contract", "1H", "--bidder", "S"]):
        # (its Contract is a bare strain, "H", as end positions have)
        r = run(["check", "--board", "4", *extra, BRIDGE])
        assert r.exit_code == 2 and "board 4: an end position (3 cards a hand)" in r.stderr
        assert "puzzles checks a goal from a position" in r.stderr
    deal = _deal(random.Random(4))
    r = run(["check", "-", "--contract", "2S"], input=board("1", format_deal(deal)))
    assert r.exit_code == 2 and "no declarer" in r.stderr
    # an end position of 12 cards a hand (no joker, no Variant: not bid
    # whist) is no deal of bid whist with its kitty made up
    twelve = [h[:12] for h in deal]
    r = run(["check", "-", "--contract", "2S", "--bidder", "N"], input=board("1", format_deal(twelve)))
    assert r.exit_code == 2 and "an end position (12 cards a hand)" in r.stderr
    assert "kitty" not in r.stderr
    for value, said in (("?", "the Contract is unknown ('?'); give --contract"),
                        ("", "the Contract is empty (''); give --contract")):
        r = run(["check", "-"], input=board("1", format_deal(deal), '[Declarer "N"]',
                                           f'[Contract "{value}"]'))
        assert r.exit_code == 2 and said in r.stderr


def test_a_vulnerability_that_is_none_is_warned_of():
    deal = format_deal(_deal(random.Random(5)))
    r = run(["check", "--json", "-"], input=board("1", deal, '[Declarer "N"]', '[Contract "1C"]',
                                                  '[Vulnerable "garbage"]'))
    assert r.exit_code in (0, 1), r.stderr
    (o,) = json_lines(r)
    assert o["vulnerable"] is None and o["score"] is None
    assert "unknown vulnerability 'garbage'" in r.stderr and "no score" in r.stderr


def test_a_hand_record_is_checked_from_its_opening_lead():
    # the Play section is set aside, with a warning: check answers for the
    # deal, review for the play
    played = str(TEST_DATA.parent.parent / "examples" / "played.pbn")
    r = run(["check", "--json", played])
    assert r.exit_code == 0, r.stderr
    (o,) = json_lines(r)
    assert o["contract"] == "3NT" and o["declarer"] == "S" and o["leader"] == "W"
    (b,) = read_pbn_file(played)
    assert o["tricks"] == dd_table(b.hands, strains=("NT",))["NT"]["up"]["W"]
    assert "the Play section is ignored" in r.stderr


def test_the_vulnerability_s_short_tag_is_read():
    deal = format_deal(_deal(random.Random(6)))
    r = run(["check", "--json", "-"], input=board("1", deal, '[Declarer "E"]', '[Contract "1C"]',
                                                  '[Vul "EW"]'))
    (o,) = json_lines(r)
    assert o["vulnerable"] is True and o["score"] is not None


def test_what_a_deal_s_check_sets_aside_is_said():
    deal = format_deal(_deal(random.Random(7)))
    src = board("1", deal, '[Declarer "S"]', '[Contract "3NT"]', '[Leader "E"]', '[Trump "H"]',
                '[Vulnerable "None"]')
    r = run(["check", "--json", "--nt-double", "-"], input=src)
    (o,) = json_lines(r)
    assert o["leader"] == "W" and o["contract"] == "3NT" and o["score"] is not None
    assert "the Leader tag (E) is set aside: S's contract is led by W" in r.stderr
    assert "the Trump tag (H) is set aside: the contract is 3NT" in r.stderr
    assert "--nt-double and --boston are bid whist's scoring" in r.stderr
    # bridge has no downtown contract: no score
    r = run(["check", "--json", "--contract", "4 S down", "-"], input=src)
    (o,) = json_lines(r)
    assert o["contract"] == "4S\u2193" and o["score"] is None and o["vulnerable"] is False
    # the contract's own tags say nothing
    r = run(["check", "-"], input=board("1", deal, '[Declarer "S"]', '[Contract "3NT"]',
                                        '[Leader "W"]', '[Trump "NT"]'))
    assert "warning" not in r.stderr
