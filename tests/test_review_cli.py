"""``whist-solve review`` and ``solve --from-lead / --after-trick`` (SPEC §3).

(a) review of real played boards: the JSON equals the library's review
    (checked against DDS and the reference in test_review.py), card by card;
    the text shows the verdict and the costly cards;
(b) a classic whist ending with its play: every card's before/after equal
    the independent reference minimax's card values;
(c) boards without play (passed out, no Play section): a warning, no
    output, exit 0; an illegal card: an error naming the board, exit 2;
(d) --jobs 2 prints the same as one process;
(e) solve from the opening lead and after N recorded tricks.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from whist_solve.engine import Solver
from whist_solve.pbn import read_pbn_file
from whist_solve.review import review_board

from support import ROOT, TEST_DATA
from support.cli_run import board, json_lines, run
from support.reference import ref_card_values, trick_winner

BRIDGE = str(TEST_DATA / "bridge_export.pbn")

# Classic whist, hearts trump, West leads; North's SK in trick 1 throws away
# the ruff (H2) that wins the trick, and the play goes on to the end.
ENDING = (
    '[Board "1"]\n'
    '[Deal "N:AK.2.. Q.3.3. 2.A.2. 3..A.2"]\n'
    '[Trump "H"]\n'
    '[Leader "W"]\n'
    '[Play "W"]\n'
    'DA SK D3 D2\n'
    'S3 SA SQ S2\n'
    'C2 H2 H3 HA\n'
    '*\n\n')


def test_review_json_equals_the_library_on_real_boards():
    r = run(["review", "--json", BRIDGE])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert [o["board"] for o in objs] == ["1", "2", "4"]
    boards = {b.label: b for b in read_pbn_file(BRIDGE)}
    solver = Solver()
    for o in objs:
        lib = review_board(boards[o["board"]], solver=solver).as_json()
        for key, value in lib.items():
            assert o[key] == value, (o["board"], key)
    one = objs[0]
    assert one["trump"] == "S" and one["leader"] == "W"
    assert len(one["cards"]) == 52
    assert set(one["cards"][0]) >= {"card", "seat", "trick", "before", "after"}
    assert one["result"]["tricks"] == 3
    assert one["dd_tricks"] == 8
    assert one["cost"] == {"NS": sum(c["cost"] for c in one["cards"] if c["seat"] in "NS"),
                           "EW": sum(c["cost"] for c in one["cards"] if c["seat"] in "EW")}
    assert "board 3: passed out: nothing to review" in r.stderr


def test_review_text_shows_the_verdict_and_the_costly_cards():
    b = read_pbn_file(BRIDGE)[1]
    lib = review_board(b)
    r = run(["review", "--mistakes-only", BRIDGE])
    assert r.exit_code == 0, r.stderr
    flat = " ".join(r.stdout.replace("│", " ").split())
    assert " ".join(lib.verdict().split()) in flat
    assert "3NT by N: makes 9 double-dummy; 9 taken (Result)" in flat
    assert "The play (the costly cards)" in r.stdout
    full = run(["review", BRIDGE])
    # Every card of board 1's 52 has a row in the full listing, not in the short one.
    assert len(full.stdout.splitlines()) > len(r.stdout.splitlines()) + 40


def _reference_review(text):
    """(card, seat, before, after) for every card of the ending's play, by the
    reference minimax."""
    hands = [set(["SA", "SK", "H2"]), set(["SQ", "H3", "D3"]), set(["S2", "HA", "D2"]),
             set(["S3", "DA", "C2"])]
    play = ["DA", "SK", "D3", "D2", "S3", "SA", "SQ", "S2", "H2", "H3", "HA", "C2"]
    leader, trick, out = 3, [], []
    for card in play:
        seat = (leader + len(trick)) % 4
        vals = ref_card_values([sorted(h) for h in hands], "H", "up", leader, tuple(trick))
        out.append((card, "NESW"[seat], max(vals.values()), vals[card]))
        hands[seat].discard(card)
        trick.append(card)
        if len(trick) == 4:
            leader, trick = trick_winner(trick, leader, "H", "up"), []
    return out


def test_review_of_a_whist_ending_equals_the_reference():
    r = run(["review", "--json", "-"], input=ENDING)
    assert r.exit_code == 0, r.stderr
    (obj,) = json_lines(r)
    got = [(c["card"], c["seat"], c["before"], c["after"]) for c in obj["cards"]]
    assert got == _reference_review(ENDING)
    sk = obj["cards"][1]
    assert sk["card"] == "SK" and sk["cost"] == 1 and sk["best"] == ["H2"]
    assert obj["played_tricks"] is not None
    text = run(["review", "-"], input=ENDING).stdout
    assert "N-S" in text and "lost a trick at trick 1 (N SK)" in " ".join(text.split())


def test_boards_without_play_are_named_and_skipped():
    src = board("7", "N:A... K... Q... J...", '[Trump "NT"]', '[Leader "N"]')
    r = run(["review", "--json", "-"], input=src)
    assert r.exit_code == 0 and r.stdout == ""
    assert "board 7: no recorded play" in r.stderr


def test_an_illegal_card_names_the_board_and_the_trick():
    bad = ENDING.replace("S3 SA SQ S2", "S3 SA D3 S2").replace("DA SK D3 D2", "DA SK SQ D2")
    r = run(["review", "-"], input=bad)
    assert r.exit_code == 2
    assert "board 1" in r.stderr and "trick" in r.stderr and "Traceback" not in r.stderr


def test_a_result_that_is_no_count_of_tricks_is_set_aside():
    """Result tags of -1 or 20 digits were taken as the tricks declarer took
    (and printed as such); then the whole board was refused.  Now such a
    tag is named in a warning and the play is reviewed without it."""
    def with_result(label, value):
        return ENDING.replace('[Board "1"]', f'[Board "{label}"]').replace(
            '[Leader "W"]', f'[Leader "W"]\n[Declarer "N"]\n[Contract "1H"]\n[Result "{value}"]')
    src = (with_result("1", "-1") + with_result("2", "99999999999999999999")
           + with_result("3", "1_0") + with_result("4", "14") + with_result("5", "2")
           + with_result("6", "4") + with_result("7", "3"))
    r = run(["review", "--json", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    for label, value in (("1", "-1"), ("2", "99999999999999999999"), ("3", "1_0"), ("4", "14"),
                         ("6", "4")):
        assert (f"warning: <stdin>: board {label}: bad Result tag '{value}'" in r.stderr
                and f"'{value}' (expected" in r.stderr), r.stderr
    assert r.stderr.count(": the play is reviewed without it") == 5
    # (a 3-card ending: at most 3 tricks; 13 was taken, and a difference of 11 printed)
    assert "bad Result tag '4' (expected the tricks declarer took, 0 to 3" in r.stderr
    objs = json_lines(r)
    assert [o["board"] for o in objs] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [o.get("result", {}).get("tricks") for o in objs] == [None] * 4 + [2, None, 3]
    # the cards are reviewed all the same
    assert all(len(o["cards"]) == len(objs[4]["cards"]) for o in objs)
    flat = " ".join(run(["review", "-"], input=with_result("6", "4")).stdout.split())
    assert "(Result)" not in flat and "taken" in flat


def test_review_with_jobs_prints_the_same():
    one = run(["review", "--json", BRIDGE])
    two = run(["review", "--json", "--jobs", "2", BRIDGE])
    assert two.exit_code == 0, two.stderr
    assert two.stdout == one.stdout


# --------------------------------------------------------------------------
# solve --from-lead / --after-trick


def _solve_json(args, input=None):
    r = run(["solve", "--json", *args], input=input)
    return r, json_lines(r)


def test_from_lead_ignores_the_play():
    text = Path(BRIDGE).read_text(encoding="latin-1").split('[Board "2"]')[0]
    r, (obj,) = _solve_json(["--from-lead", "-"], input=text)
    assert r.exit_code == 0, r.stderr
    no_play = text.split('[Play "W"]')[0] + '[Leader "W"]\n'
    _, (plain,) = _solve_json(["-"], input=no_play)
    for key in ("turn", "tricks", "cards", "tricks_left", "won", "trick"):
        assert obj[key] == plain[key], key
    assert obj["tricks_left"] == 13 and obj["turn"] == "W"


def test_after_trick_n_stops_after_n_recorded_tricks():
    b = read_pbn_file(BRIDGE)[1]            # 3NT by N, five tricks and a card recorded
    pos = b.position(tricks=3)
    assert pos.tricks_left == 10 and not pos.trick
    r, objs = _solve_json(["--after-trick", "3", BRIDGE])
    obj = next(o for o in objs if o["board"] == "2")
    assert obj["tricks_left"] == 10 and obj["trick"] == []
    assert obj["won"] == {"NS": pos.ns_tricks, "EW": pos.ew_tricks}
    assert obj["turn"] == "NESW"[pos.turn]
    # board 4 records two tricks: asking for more is that board's error
    assert "board 4: cannot stop after trick 3: the Play section records only 2 complete tricks" \
        in r.stderr
    assert r.exit_code == 2
    # a board with no Play section says so ("records no complete trick" before)
    r = run(["solve", "--after-trick", "1", "-"], input=board("1", "N:A... K... Q... J...",
                                                                '[Trump "NT"]', '[Leader "N"]'))
    assert r.exit_code == 2
    assert "board 1: cannot stop after trick 1: the board records no play (no cards in a Play " \
        "section)" in r.stderr


def test_from_lead_and_after_trick_exclude_each_other():
    r = run(["solve", "--from-lead", "--after-trick", "1", BRIDGE])
    assert r.exit_code == 2 and "choose one of --from-lead and --after-trick" in r.stderr


# Bid whist: South bid 4 spades uptown, took the kitty and discarded H5 HJ
# and four diamonds (the Kitty tag): the discard is N-S's first book, so 4S
# needs 9 of the 12 tricks, and South leads.
BW_DEAL = "N:53.92.K3.K843.HL QT.KT876.AQ98.J A9862.A3..A9762 KJ74.Q4.JT7.QT5"
BW_TAGS = ('[Variant "bid"]', '[Dealer "W"]', '[Contract "4S"]', '[Kitty ".J5.6542."]')

BW_PLAY = ('[Play "S"]\nH3 HQ H9 HT\nC2 C5 CK CJ\nC9 CT C8 D9\nC7 DT DK DQ\nHA H4 H2 H6\n'
           'S2 S7 S5 SQ\nCA DJ D3 D8\nS6 D7 C3 DA\nS8 S4 JH ST\nS9 SJ JL H7\nC6 CQ C4 HK\n'
           'SA SK S3 H8\n*\n')


def test_bid_whist_review_counts_books(tmp_path):
    """In bid whist the review speaks of books (the tricks and the kitty's
    book), and reads the Result tag as books: this play took 7 tricks, 8
    books, as the Result says (before: 'the recorded play gives 7, the
    Result tag 8')."""
    path = tmp_path / "bw.pbn"
    text = board("bw", BW_DEAL, *BW_TAGS, '[Bidder "S"]', '[Result "8"]').rstrip("\n")
    path.write_text(text + "\n" + BW_PLAY)
    res = run(["review", str(path), "--json"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["contract"]["need"] == 9 and o["played_tricks"] == 7
    assert o["result"] == {"tricks": 7, "books": 8, "dd_tricks": o["dd_tricks"],
                           "difference": 7 - o["dd_tricks"]}
    assert f"makes {o['dd_tricks'] + 1} books double-dummy; 8 books taken (Result)" in o["verdict"]
    # the bidder's side, not a declarer, loses tricks
    assert "the bidder's side lost" in o["verdict"] and "declarer lost" not in o["verdict"]
    out = " ".join(run(["review", str(path)]).stdout.replace("│", " ").split())
    assert "N-S (bidder)" in out
    assert "recorded play gives" not in o["verdict"]
    path.write_text(text.replace('[Result "8"]', '[Result "0"]') + "\n" + BW_PLAY)
    res = run(["review", str(path)])
    assert res.exit_code == 0 and "makes" in res.stdout
    assert "bad Result tag '0' (expected the books the bidder's side took, 1 to 13" in res.stderr


@pytest.mark.parametrize("contract, verdict, head", [("3NTX", "3NTX by S", "contract 3NTX by S"),
                                                     ("3NTXX", "3NTXX by S", "contract 3NTXX by S")])
def test_a_doubled_contract_keeps_its_x(tmp_path, contract, verdict, head):
    """A doubled contract is named doubled (the X was dropped: '3NT by S')."""
    text = (Path(__file__).parent.parent / "examples" / "played.pbn").read_text()
    path = tmp_path / "x.pbn"
    path.write_text(text.replace('[Contract "3NT"]', f'[Contract "{contract}"]'))
    (o,) = json_lines(run(["review", str(path), "--json"]))
    assert o["verdict"].startswith(verdict + ": makes")
    out = " ".join(run(["review", str(path)]).stdout.replace("│", " ").split())
    assert head in out


def test_classic_whist_review_names_no_declarer(tmp_path):
    """Classic whist has no contract and no declarer: the review counts for
    a side ('N-S: 7 tricks double-dummy'), not for a made-up declarer."""
    text = (Path(__file__).parent.parent / "examples" / "played.pbn").read_text()
    game = text.split("[Event")[1]
    for tag in ('[Declarer "S"]', '[Contract "3NT"]'):
        game = game.replace(tag + "\n", "")
    path = tmp_path / "c.pbn"
    path.write_text("[Event" + game.replace('[Scoring "MP"]', '[Trump "NT"]'))
    (o,) = json_lines(run(["review", str(path), "--json"]))
    assert re.match(r"(N-S|E-W): \d+ tricks double-dummy", o["verdict"]), o["verdict"]
    assert "declar" not in o["verdict"] and "defence" not in o["verdict"]
    out = " ".join(run(["review", str(path)]).stdout.replace("│", " ").split())
    assert "(declarer)" not in out and "(defence)" not in out


def test_a_board_without_play_is_skipped_whatever_else_it_lacks(tmp_path):
    # no Play section, and no trump or leader either (a deal before its
    # bidding): skipped with a warning as any board without play (it was an
    # error about the missing trump, exit 2)
    p = tmp_path / "b.pbn"
    p.write_text('[Board "1"]\n[Deal "N:A2... K..2. ...32 ..43."]\n\n')
    r = run(["review", "--json", str(p)])
    assert r.exit_code == 0, r.stderr
    assert "board 1: no recorded play (no cards in a Play section): nothing to review" in r.stderr
    assert "missing" not in r.stderr and r.stdout == ""


def _played(result, tricks=13):
    """examples/played.pbn with another Result, its Play section cut to
    its first ``tricks`` tricks."""
    text = (ROOT / "examples" / "played.pbn").read_text()
    head, play = text.split('[Play "W"]\n')
    lines = play.splitlines()[:tricks]
    return head.replace('[Result "11"]', f'[Result "{result}"]') + '[Play "W"]\n' + \
        "\n".join(lines) + "\n*\n"


@pytest.mark.parametrize("result,tricks", [("=", 9), ("+2", 11), ("-1", 8), ("3NT+1", 10),
                                           ("3n=", 9), ("10", 10),
                                           # PBN 2.1's example file: the side, then its tricks
                                           ("NS 10", 10), ("EW 4", 9), ("e-w2", 11)])
def test_a_result_written_against_the_contract(tmp_path, result, tricks):
    # score sheets write "=", "+2", "-1", "3NT+1": the board was refused
    p = tmp_path / "r.pbn"
    p.write_text(_played(result))
    r = run(["review", "--json", str(p)])
    assert r.exit_code == 0, r.stderr
    assert json_lines(r)[0]["result"]["tricks"] == tricks


def test_a_result_naming_another_contract_is_not_read(tmp_path):
    p = tmp_path / "r.pbn"
    for written, said in (("4S+1", "'=', '+1', '-2' against the contract"),
                          ("EW 14", "'NS 9'")):
        p.write_text(_played(written))
        r = run(["review", "--json", str(p)])
        assert r.exit_code == 0, r.stderr
        assert f"bad Result tag '{written}'" in r.stderr and said in r.stderr
        (o,) = json_lines(r)
        assert "result" not in o and o["cards"]


def test_a_claim_that_gave_up_a_trick_is_said(tmp_path):
    # the play recorded to trick 3, then a claim of 10 where double-dummy
    # play from there gives 11: the verdict said "no card cost a trick"
    p = tmp_path / "c.pbn"
    p.write_text(_played("10", tricks=3))
    r = run(["review", str(p)])
    assert r.exit_code == 0, r.stderr
    flat = " ".join(r.stdout.replace("\u2502", " ").split())
    assert ("where the record stops, after trick 3, double-dummy play gives 11: the claim or "
            "the play after it gave up a trick") in flat


def test_a_play_led_by_another_seat_than_the_contract_s_leader_is_said():
    # Declarer N, so E should lead; the record has W leading: reviewed as
    # recorded (check answers for E's lead), with a word on it
    played = (ROOT / "examples" / "played.pbn").read_text()
    r = run(["review", "--json", "-"], input=played.replace('[Declarer "S"]', '[Declarer "N"]'))
    assert r.exit_code == 0, r.stderr
    assert ("W leads the recorded play, but the contract's opening leader is E (N declares): "
            "the play is reviewed as recorded") in r.stderr
    assert json_lines(r)[0]["leader"] == "W"
    r = run(["review", "--json", "-"], input=played)
    assert "leads the recorded play" not in r.stderr


def test_a_side_s_result_on_a_board_without_declarer(tmp_path):
    # a whist deal (Trump tag, no Contract or Declarer) counts for the side
    # to the first leader's right (N-S, W leading): 'NS 11' and 'EW 2' are
    # its 11 tricks; they were refused as "the tricks declarer took"
    text = _played("11").replace('[Declarer "S"]\n', "").replace('[Contract "3NT"]\n', "")
    text = text.replace('[Play "W"]', '[Trump "NT"]\n[Play "W"]')
    for written in ("11", "NS 11", "EW 2"):
        r = run(["review", "--json", "-"], input=text.replace('[Result "11"]', f'[Result "{written}"]'))
        assert r.exit_code == 0, r.stderr
        (o,) = json_lines(r)
        assert o["declarer"] == "S" and o["result"]["tricks"] == 11, written
    r = run(["review", "-"], input=text.replace('[Result "11"]', '[Result "lots"]'))
    assert r.exit_code == 0 and "the play is reviewed without it" in r.stderr
    assert "bad Result tag 'lots' (expected the tricks N-S took, 0 to 13, or 'NS 9', 'EW 4')" \
        in r.stderr


def test_a_trick_written_a_card_short_is_named_where_it_shows():
    # trick 1 written with three cards: every later card shifts by one, and
    # trick 1's fourth card is then West's CQ, which South does not hold.
    # It was "trick 13 of the Play section: S has no card ('-') ..."
    played = (ROOT / "examples" / "played.pbn").read_text()
    head, play = played.split('[Play "W"]\n')
    lines = play.splitlines()
    first = lines[0].split()
    short = head + '[Play "W"]\n' + " ".join(first[:3]) + "\n" + "\n".join(lines[1:]) + "\n"
    r = run(["review", "-"], input=short)
    assert r.exit_code == 2
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and re.match(r"error: <stdin>: board 1: illegal play \S+ in trick 1: "
                                         r"\w is on turn and it is held by \w$", errors[0]), errors
    # a card played twice: said so, in the trick where it is played again
    again = head + '[Play "W"]\n' + play.replace(lines[1], lines[1].replace(
        lines[1].split()[0], first[0]), 1)
    r = run(["review", "-"], input=again)
    assert r.exit_code == 2 and f"illegal play {first[0]} in trick 2" in r.stderr
    assert "nobody holds it (played already)" in r.stderr
    # cards after the last trick: said, with the first of them
    r = run(["review", "-"], input=played.replace("\n*", "\nS2 S3 S4 S5\n*"))
    assert r.exit_code == 2
    assert "board 1: the Play section goes on (S2) after the last trick (13)" in r.stderr
    # rows of '-' after it are nothing
    r = run(["review", "-"], input=played.replace("\n*", "\n- - - -\n- - - -\n*"))
    assert r.exit_code == 0, r.stderr


def test_a_claim_in_a_trick_begun_says_how_far_it_went(tmp_path):
    text = _played("10", tricks=4)
    head, play = text.split('[Play "W"]\n')
    lines = play.splitlines()
    # trick 4 with its first card only (the line is in seat order from W)
    (whole,) = read_pbn_file(str(ROOT / "examples" / "played.pbn"))
    led = whole.play_cards("NT", "up")[12]
    text = head + '[Play "W"]\n' + "\n".join(lines[:3]) + "\n" + \
        " ".join(c if c == led else "-" for c in lines[3].split()) + "\n*\n"
    r = run(["review", "-"], input=text)
    assert r.exit_code == 0, r.stderr
    flat = " ".join(r.stdout.replace("\u2502", " ").split())
    assert "where the record stops, in trick 4, after 1 card, double-dummy play gives" in flat


def test_a_play_reviewed_in_another_strain_sets_the_contract_aside():
    # a Trump tag (or --trump) other than the contract's strain: the play
    # is reviewed in it, and the verdict no longer says "3NT by S: makes"
    played = (ROOT / "examples" / "played.pbn").read_text()
    for args, text, given in ((["--trump", "S"], played, "--trump"),
                              ([], played.replace('[Play "W"]', '[Trump "S"]\n[Play "W"]'),
                               "the Trump tag")):
        r = run(["review", "--json", *args, "-"], input=text.replace('[Result "11"]',
                                                                     '[Result "+2"]'))
        assert r.exit_code == 0, r.stderr
        assert (f"board 1: the play is reviewed with spades as trumps ({given}), not in the "
                "contract (3NT): the verdict counts tricks, not the contract") in r.stderr
        (o,) = json_lines(r)
        assert "contract" not in o and o["trump"] == "S"
        assert not o["verdict"].startswith("3NT") and o["result"]["tricks"] == 11
    r = run(["review", "--json", "--trump", "NT", "-"], input=played)
    assert "reviewed with" not in r.stderr and json_lines(r)[0]["contract"]["strain"] == "NT"


def test_the_set_aside_warning_names_what_said_otherwise():
    played = (ROOT / "examples" / "played.pbn").read_text()
    # a Ranking tag (no Trump tag): the Ranking tag is named, not "the Trump tag"
    r = run(["review", "-"], input=played.replace('[Play "W"]', '[Ranking "down"]\n[Play "W"]'))
    assert "at no-trump, downtown (the Ranking tag), not in the contract (3NT)" in r.stderr
    # both given as options: both named
    r = run(["review", "--trump", "S", "--ranking", "down", "-"], input=played)
    assert "with spades as trumps, downtown (--trump and --ranking)" in r.stderr
    # a Trump tag that differs, and --ranking that agrees: the Trump tag
    r = run(["review", "--ranking", "up", "-"],
            input=played.replace('[Play "W"]', '[Trump "S"]\n[Play "W"]'))
    assert "with spades as trumps (the Trump tag)" in r.stderr
    # a contract without a declarer is not used: nothing to set aside
    r = run(["review", "-"], input=played.replace('[Declarer "S"]\n', "")
            .replace('[Play "W"]', '[Trump "S"]\n[Play "W"]'))
    assert r.exit_code == 0, r.stderr
    assert "set aside" not in r.stderr and "reviewed with" not in r.stderr


def test_a_played_board_replayed_under_another_trump_is_said():
    # --trump on a board with a Play section replays its cards under that
    # trump: a position the table never had, which solve gave in silence
    # (--leader there is refused)
    played = str(ROOT / "examples" / "played.pbn")
    r = run(["solve", "--trump", "S", played])
    assert r.exit_code == 0, r.stderr
    assert ("board 1: the recorded play is replayed with --trump S: a position the table never "
            "had") in r.stderr
    for args in (["--trump", "S", "--from-lead"], ["--trump", "NT"], []):
        r = run(["solve", *args, played])
        assert r.exit_code == 0 and "replayed" not in r.stderr, (args, r.stderr)
