"""`whist-solve puzzles` and the shipped puzzle collections (puzzles/*.pbn).

Every shipped puzzle must be tight: the stated goal is exactly the
double-dummy value from the position (reachable, and not one trick more).
The values are checked through the command and against the independent
reference search of tests/support/reference.py.
"""
from __future__ import annotations

import glob
import os
import re
from pathlib import Path

import pytest

from support.reference import ref_card_values, ref_replay, ref_value

from support import ROOT
from support.cli_run import board, json_lines, run

from whist_solve.pbn import read_pbn_file

PUZZLES_DIR = str(ROOT / "puzzles")
PUZZLE_FILES = sorted(glob.glob(os.path.join(PUZZLES_DIR, "*.pbn")))
GOAL_RE = re.compile(r'\[Goal "(NS|EW) (\d+)"\]')


# --------------------------------------------------------------------------
# The shipped collections


def test_collections_are_shipped():
    names = {os.path.basename(p) for p in PUZZLE_FILES}
    assert {"classic.pbn", "bidwhist.pbn", "downtown.pbn"} <= names
    boards = [b for p in PUZZLE_FILES for b in read_pbn_file(p)]
    assert len(boards) >= 40
    titles = set()
    for b in boards:
        assert not b.errors, (b.file, b.label, b.errors)
        for tag in ("Event", "Board", "Title", "Deal", "Trump", "Leader", "Goal"):
            assert b.tags.get(tag), (b.file, b.label, tag)
        titles.add((b.tags["Event"], b.tags["Title"]))
        assert 3 <= len(b.hands[0]) <= 7
    assert len(titles) == len(boards), "titles repeat within a collection"
    # every kind is there: jokers in trump and at no-trump, downtown boards
    jokers = [b for b in boards if any(c in ("JH", "JL") for h in b.hands for c in h)]
    assert any(b.trump() is None for b in jokers) and any(b.trump() for b in jokers)
    assert sum(1 for b in boards if b.ranking() == "down") >= 10
    assert any(b.trump() is None for b in boards) and any(b.trump() for b in boards)


def test_without_a_file_the_shipped_collections_are_verified(tmp_path, monkeypatch):
    """`whist-solve puzzles` alone: the collections installed with the
    package (an installed copy has no puzzles/ folder at hand; the argument
    was required)."""
    monkeypatch.chdir(tmp_path)
    alone = run(["puzzles", "--json"])
    assert alone.exit_code == 0, alone.stderr
    listed = run(["puzzles", "--json", *PUZZLE_FILES])
    strip = lambda r: [{k: v for k, v in o.items() if k != "file"} for o in json_lines(r)]
    assert strip(alone) == strip(listed) and len(json_lines(alone)) > 10


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=os.path.basename)
def test_shipped_puzzles_are_solved_and_tight(path):
    r = run(["puzzles", "--json", path])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert len(objs) == len(read_pbn_file(path))
    for obj in objs:
        where = f"{os.path.basename(path)} board {obj['board']} {obj['title']!r}"
        goal = obj["goal"]
        assert obj["solved"] is True, where
        assert obj["tricks"] == goal["tricks"], f"{where}: not tight ({obj['tricks']} vs {goal})"
        assert goal["from"] == "Goal"
        # some first card reaches the goal, and not every card does (a real puzzle
        # for the side on turn, or a real choice for the defence)
        good = [c for c, n in obj["cards"].items() if n >= goal["tricks"]]
        assert good, where
        assert obj["line"] and obj["title"]
    assert "solved" in r.stderr and "0 failed" in r.stderr


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=os.path.basename)
def test_shipped_puzzles_against_reference(path):
    """The goal is the exact value by the independent reference search, and
    the command's line is legal and reaches it."""
    objs = {o["board"]: o for o in json_lines(run(["puzzles", "--json", path]))}
    for b in read_pbn_file(path):
        pos = b.position()
        hands = [sorted(h) for h in pos.hands]
        trump, ranking, leader, trick = pos.trump, pos.ranking, pos.leader, pos.trick
        side, need = b.goal()
        ns = ref_value(hands, trump, ranking, leader, trick)
        value = ns if side == "NS" else pos.tricks_left - ns
        assert value == need, (path, b.label)
        obj = objs[b.label]
        assert ref_replay(hands, trump, ranking, leader, trick, obj["line"]) == ns
        # the command's card values are the goal side's tricks
        want = ref_card_values(hands, trump, ranking, leader, trick)
        on_turn_is_goal_side = (pos.turn % 2 == 0) == (side == "NS")
        for c, n in want.items():
            assert obj["cards"][c] == (n if on_turn_is_goal_side else pos.tricks_left - n)


def test_directory_argument_reads_every_file():
    total = sum(len(read_pbn_file(p)) for p in PUZZLE_FILES)
    r = run(["puzzles", "--json", PUZZLES_DIR])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert len(objs) == total
    files = [os.path.basename(o["file"]) for o in objs]
    assert files == sorted(files)  # sorted by name, board order kept inside


def test_downtown_order_matters():
    """Read uptown, every downtown board plays differently: another value,
    or other first cards reaching the goal."""
    downs = []
    for p in PUZZLE_FILES:
        for b in read_pbn_file(p):
            if b.ranking() == "down":
                downs.append((p, b.label))
    assert len(downs) >= 10
    for path in sorted({p for p, _ in downs}):
        down = {o["board"]: o for o in json_lines(run(["puzzles", "--json", path]))}
        r = run(["puzzles", "--json", "--ranking", "up", path])
        up = {o["board"]: o for o in json_lines(r)}
        for p, label in downs:
            if p != path:
                continue
            d, u = down[label], up[label]
            assert d["ranking"] == "down" and u["ranking"] == "up"
            goal = d["goal"]["tricks"]
            good_d = {c for c, n in d["cards"].items() if n >= goal}
            good_u = {c for c, n in u["cards"].items() if n >= goal}
            assert d["tricks"] != u["tricks"] or good_d != good_u, (path, label)


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=os.path.basename)
def test_one_more_trick_is_impossible(path, tmp_path):
    text = Path(path).read_text(encoding="utf-8")
    harder = GOAL_RE.sub(lambda m: f'[Goal "{m.group(1)} {int(m.group(2)) + 1}"]', text)
    p = tmp_path / os.path.basename(path)
    p.write_text(harder, encoding="utf-8")
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 1, r.stderr
    objs = json_lines(r)
    assert objs and all(o["solved"] is False for o in objs)
    assert all(o["tricks"] == o["goal"]["tricks"] - 1 for o in objs)
    assert f"{len(objs)} failed" in r.stderr


# --------------------------------------------------------------------------
# Goals from bridge problem files


# A bridge deal: 3NT by South, West led the spade jack (won by South's queen),
# South led a heart to West's ace, and West has led the heart two to trick 3.
BRIDGE = (
    '[Event "Problem"]\n[Site "?"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6"]\n'
    '[Declarer "S"]\n[Contract "{contract}"]\n[Hidden "EW"]\n[Result "?"]\n'
    '[Play "W"]\nSJ S6 S2 SQ\nHA H8 H3 H9\nH2 - - -\n*\n'
)


def test_bridge_problem_goal_from_contract_and_play(tmp_path):
    from whist_solve.engine import Solver

    p = tmp_path / "bridge.pbn"
    p.write_text(BRIDGE.replace("{contract}", "3NT"))
    [b] = read_pbn_file(str(p))
    pos = b.position()
    assert (pos.ns_tricks, pos.ew_tricks, pos.trick, pos.turn) == (1, 1, ("H2",), 0)
    value = Solver().ns_value(pos)

    r = run(["puzzles", "--json", str(p)])
    [obj] = json_lines(r)
    # 3NT: nine tricks, one already won by North-South in the Play section
    assert obj["goal"] == {"side": "NS", "tricks": 8, "from": "Contract",
                           "note": "contract 3NT by S: 9 tricks, 1 already won"}
    assert obj["won"] == {"NS": 1, "EW": 1}
    assert obj["tricks"] == value and obj["tricks_left"] == 11
    assert obj["solved"] is (value >= 8)
    assert r.exit_code == (0 if value >= 8 else 1)
    assert obj["turn"] == "N" and obj["leader"] == "W"

    # a slam is out of reach: exit status 1
    p2 = tmp_path / "slam.pbn"
    p2.write_text(BRIDGE.replace("{contract}", "7NT"))
    r = run(["puzzles", "--json", str(p2)])
    [obj] = json_lines(r)
    assert obj["goal"]["tricks"] == 12 and obj["solved"] is False
    assert r.exit_code == 1


def test_declarer_side_east_west(tmp_path):
    # Two-card ending, 1S by West, East leads (spades trump):
    #   N: SA C2  E: SK D2  S: H3 H2  W: D4 D3
    p = tmp_path / "ew.pbn"
    p.write_text(board(1, "N:A...2 K..2. .32.. ..43.", '[Declarer "W"]', '[Contract "1S"]',
                       '[Leader "E"]', '[Goal "EW 1"]')
                 + board(2, "N:A...2 K..2. .32.. ..43.", '[Declarer "W"]', '[Contract "1S"]',
                         '[Leader "E"]'))
    r = run(["puzzles", "--json", str(p)])
    a, b = json_lines(r)
    assert a["goal"] == {"side": "EW", "tricks": 1, "from": "Goal", "note": ""} and a["solved"]
    # East's king falls to the ace and North's club two wins; the diamond two
    # instead: North ruffs or West wins, and E-W make one trick either way.
    assert a["tricks"] == 1 and a["cards"] == {"SK": 0, "D2": 1}
    # no Goal: 1S by West asks E-W for 7 tricks: impossible here
    assert b["goal"] == {"side": "EW", "tricks": 7, "from": "Contract",
                         "note": "contract 1S by W: 7 tricks"}
    assert b["solved"] is False
    assert r.exit_code == 1
    assert "more than" in r.stderr


def test_end_position_with_hidden_tag_and_a_lead_made(tmp_path):
    # A published-style end position: five cards, West has already led, the
    # Hidden tag hides East-West in print.  The Bath coup: South ducks the
    # spade king and makes three of the four remaining tricks.
    text = (
        '% a problem file\n[Event "Endings"]\n[Board "7"]\n[Hidden "EW"]\n'
        '[Deal "W:KQT.2.. 54.AK.. 9...432 AJ3..A."]\n[Trump "NT"]\n'
        '[Leader "W"]\n[Goal "NS 3"]\n[Play "W"]\nSK S4 S9 -\n*\n'
        '{South to play: duck.}\n'
    )
    p = tmp_path / "ending.pbn"
    p.write_text(text)
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 0, r.stderr
    [obj] = json_lines(r)
    assert obj["board"] == "7" and obj["turn"] == "S"
    assert obj["tricks_left"] == 4 and obj["tricks"] == 3 and obj["solved"]
    assert obj["cards"] == {"SA": 2, "SJ": 2, "S3": 3}
    assert obj["key"][0] == {"trick": 1, "seat": "S", "card": "S3", "good": ["S3"],
                             "bad": {"SA": 2, "SJ": 2}}


# --------------------------------------------------------------------------
# Output for people, errors


def test_for_people_shows_goal_key_plays_and_line():
    path = os.path.join(PUZZLES_DIR, "classic.pbn")
    r = run(["puzzles", path])
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Strip, then throw in" in out
    assert "Goal:" in out and "Solved" in out and "Key plays" in out
    assert "Best line" in out and "won by" in out
    assert re.search(r"\d+ solved, 0 failed, 0 errors in [\d.]+ s", r.stderr)


def test_for_people_unsolved(tmp_path):
    p = tmp_path / "hard.pbn"
    p.write_text(board(1, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "E"]',
                       '[Goal "NS 1"]', '[Title "Too much"]'))
    r = run(["puzzles", str(p)])
    assert r.exit_code == 1
    assert "Not solved" in r.stdout and "Defence" in r.stdout
    assert "0 solved, 1 failed" in r.stderr and "board 1" in r.stderr


def test_bad_input_reported_others_verified(tmp_path):
    good = board(1, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]', '[Goal "NS 2"]')
    no_goal = board(2, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]')
    dup = board(3, "N:A2... A..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]', '[Goal "NS 1"]')
    bad_goal = board(4, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]',
                     '[Goal "North five"]')
    no_decl = board(5, "N:A2... K..2. ...32 ..43.", '[Contract "1NT"]', '[Leader "N"]')
    p = tmp_path / "mixed.pbn"
    p.write_text(good + no_goal + dup + bad_goal + no_decl)
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 2
    assert [o["board"] for o in json_lines(r)] == ["1"]
    err = r.stderr
    assert "Traceback" not in err
    assert f"{p}: board 2: no goal" in err
    assert f"{p}: board 3:" in err and "SA" in err
    assert f"{p}: board 4:" in err and "Goal" in err
    assert f"{p}: board 5:" in err and "Declarer" in err
    assert "1 solved, 0 failed, 4 errors" in err


def test_bad_paths(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run(["puzzles", str(tmp_path / "nope.pbn"), str(empty)])
    assert r.exit_code == 2
    assert "nope.pbn" in r.stderr and "no .pbn files" in r.stderr
    assert "Traceback" not in r.stderr


def test_failure_and_error_together_exit_2(tmp_path):
    p = tmp_path / "both.pbn"
    p.write_text(board(1, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "E"]', '[Goal "NS 1"]')
                 + board(2, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]'))
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 2
    [obj] = json_lines(r)
    assert obj["solved"] is False


def test_overrides(tmp_path):
    # N leads: SA then S2, N-S 2.  With E leading (--leader) E-W take both.
    p = tmp_path / "o.pbn"
    p.write_text(board(1, "N:A2... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]',
                       '[Goal "NS 2"]'))
    assert run(["puzzles", "--json", str(p)]).exit_code == 0
    r = run(["puzzles", "--json", "--leader", "E", str(p)])
    [obj] = json_lines(r)
    assert obj["leader"] == "E" and obj["tricks"] == 0 and r.exit_code == 1
    r = run(["puzzles", "--json", "--trump", "C", str(p)])
    [obj] = json_lines(r)
    assert obj["trump"] == "C" and obj["cards"] == {"SA": 2, "S2": 2}


def test_every_shipped_puzzle_has_a_title_and_an_idea():
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "puzzles"
    boards = json_lines(run(["puzzles", "--json", str(folder)]))
    assert len(boards) >= 40
    for b in boards:
        assert b["title"] and b["comment"] and len(b["comment"]) > 40, b["board"]


# Bid whist: South bid 4 spades uptown, took the kitty and discarded H5 HJ
# and four diamonds (the Kitty tag): the discard is N-S's first book, so 4S
# needs 9 of the 12 tricks, and South leads.
BW_DEAL = "N:53.92.K3.K843.HL QT.KT876.AQ98.J A9862.A3..A9762 KJ74.Q4.JT7.QT5"
BW_TAGS = ('[Variant "bid"]', '[Dealer "W"]', '[Contract "4S"]', '[Kitty ".J5.6542."]')


@pytest.mark.parametrize("seat_tag", ['[Bidder "S"]', '[Declarer "S"]'])
def test_a_bid_whist_contract_goal_counts_the_kitty_book(tmp_path, seat_tag):
    """In bid whist the goal of a Contract is level + 6 books for the
    bidder's side (the Bidder tag, or the Declarer), the discard's book
    counted, and the bidder leads.  Before: 10 tricks of 12, West leading
    (the Declarer's left), and a Bidder tag alone was no declarer."""
    path = tmp_path / "bw.pbn"
    path.write_text(board("bw", BW_DEAL, *BW_TAGS, seat_tag))
    res = run(["puzzles", str(path), "--json"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["goal"] == {"side": "NS", "tricks": 9, "from": "Contract",
                         "note": "contract 4S by S: 10 books, the Kitty counted as the bidder's discard"}
    html = tmp_path / "bw.html"
    assert run(["puzzles", str(path), "--html", str(html)]).exit_code in (0, 1)
    assert "10 books, the Kitty counted as the bidder&#x27;s discard" in html.read_text()
    from whist_solve import Position, Solver
    hands = read_pbn_file(str(path))[0].hands
    south = Solver(16).ns_value(Position.make(hands, "S", "up", 2))   # S leading
    assert o["tricks"] == south and o["solved"] == (south >= 9)
    assert o["line"][0] in hands[2]
    words = " ".join(run(["puzzles", str(path)]).stdout.replace("│", " ").split())
    assert "10 books, the Kitty counted as the bidder's discard" in words


def test_a_contract_goal_already_won_needs_no_more_tricks():
    # examples/played.pbn: 3NT by S, the play over with 11 tricks to N-S:
    # the goal from here is 0 more tricks (it was -2), and it is reached
    from support import ROOT
    from support.cli_run import json_lines, run
    r = run(["puzzles", "--json", str(ROOT / "examples" / "played.pbn")])
    assert r.exit_code == 0, r.stderr
    (obj,) = json_lines(r)
    assert obj["goal"]["tricks"] == 0 and obj["solved"] is True
    assert obj["goal"]["note"] == "contract 3NT by S: 9 tricks, 11 already won"


def test_the_summary_is_bounded_and_says_what_it_cut(tmp_path):
    # 25 failing puzzles and 25 bad boards in one file: 20 failures named
    # then "and 5 more"; 20 errors, then "... and 5 more errors in FILE"
    # (puzzles printed neither: an 8,000-character line for 300 failures)
    from support.cli_run import board, run
    fail = "".join(board(i, "N:A... K... Q... J...", '[Trump "NT"]', '[Leader "E"]',
                         '[Goal "EW 1"]') for i in range(1, 26))
    bad = "".join(board(100 + i, "N:A... K... Q... J...", '[Trump "Q"]', '[Leader "E"]',
                        '[Goal "NS 1"]') for i in range(1, 26))
    p = tmp_path / "many.pbn"
    p.write_text(fail + bad)
    r = run(["puzzles", str(p)])
    assert r.exit_code == 2
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("failed: ") and last.endswith(" and 5 more")
    assert last.count("many.pbn: board") == 20
    assert f"... and 5 more errors in {p}" in r.stderr


def test_a_directory_s_broken_link_and_folders_are_said(tmp_path):
    # a link to nowhere among the files was skipped in silence (exit 0);
    # named alone it is "no such file"
    good = tmp_path / "set"
    good.mkdir()
    (good / "a.pbn").write_text(board("1", "N:A... K... Q... J...", '[Trump "NT"]',
                                      '[Leader "N"]', '[Goal "NS 1"]'))
    (good / "lost.pbn").symlink_to(tmp_path / "missing.pbn")
    r = run(["puzzles", str(good)])
    assert r.exit_code == 2
    assert f"error: {good / 'lost.pbn'}: no such file" in r.stderr
    assert "1 solved, 0 failed, 1 error" in r.stderr
    only_folders = tmp_path / "nested"
    (only_folders / "inner").mkdir(parents=True)
    r = run(["puzzles", str(only_folders)])
    assert r.exit_code == 2
    assert "no .pbn files in this directory (the folders inside it are not read)" in r.stderr


def test_a_bare_strain_contract_sets_no_goal(tmp_path):
    # [Contract "NT"] (PBN's end positions: the trumps, no level) was read
    # as level 0: a goal of 6 tricks in a 1-card ending, "failed", exit 1
    p = tmp_path / "b.pbn"
    p.write_text(board("1", "N:A... K... Q... J...", '[Declarer "S"]', '[Contract "NT"]')
                 + board("2", "N:A... K... Q... J...", '[Declarer "S"]', '[Contract "NT"]',
                         '[Goal "NS 1"]'))
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 2
    assert ('board 1: no goal: the Contract (NT) gives the trumps, no level (add a Goal tag such '
            'as [Goal "NS 1"])'.replace('NS 1', 'NS 5')) in r.stderr
    assert [o["board"] for o in json_lines(r)] == ["2"] and json_lines(r)[0]["solved"]


def test_a_seat_tag_without_a_seat_is_said(tmp_path):
    p = tmp_path / "q.pbn"
    p.write_text(board("1", "N:A... K... Q... J...", '[Declarer "?"]', '[Contract "3NT"]'))
    r = run(["puzzles", str(p)])
    assert r.exit_code == 2
    assert ("missing leader: no Leader, Play, Declarer or Dealer tag with a seat "
            "(Declarer '?')") in r.stderr


def test_a_semicolon_comment_is_no_part_of_the_idea(tmp_path):
    # ';' comments (a composer's own notes) are kept by table --pbn, but the
    # idea of a puzzle is its {...} comments, as before
    p = tmp_path / "i.pbn"
    p.write_text(board("1", "N:A... K... Q... J...", '[Trump "NT"]', '[Leader "N"]',
                       '[Goal "NS 1"]', "{Cash the ace.} ; TODO check the source"))
    (o,) = json_lines(run(["puzzles", "--json", str(p)]))
    assert o["comment"] == "Cash the ace."


def test_a_pipe_in_a_directory_is_not_opened(tmp_path):
    # a FIFO named *.pbn among the files: opening it would wait for a
    # writer forever (a regression of the broken-link change, caught before
    # it was released); it is skipped as before
    import subprocess
    import sys
    d = tmp_path / "set"
    d.mkdir()
    (d / "a.pbn").write_text(board("1", "N:A... K... Q... J...", '[Trump "NT"]',
                                   '[Leader "N"]', '[Goal "NS 1"]'))
    os.mkfifo(d / "pipe.pbn")
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "puzzles", str(d)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "1 solved, 0 failed, 0 errors" in p.stderr
