"""The command line (SPEC §3): solve, table, deal; exit statuses; bad input.

The values checked here are small endings worked out by hand (see the
comments) and, for the tables, the independent reference search.
"""
from __future__ import annotations

import random
import re

import pytest

from support.reference import ref_card_values, ref_replay, ref_value

from support import ROOT
from support.cli_run import board, json_lines, run

EXAMPLES = str(ROOT / "examples" / "deal.pbn")


# A two-card ending at no-trump, North to lead:
#   N: SA S2   E: SK D2   S: C3 C2   W: D4 D3
# SA wins, then S2 is the last spade and wins too: N-S 2.  S2 first loses to
# SK, E leads D2 and West's diamonds take the last trick: N-S 0.
TWO = "N:A2... K..2. ...32 ..43."
TWO_HANDS = [["SA", "S2"], ["SK", "D2"], ["C3", "C2"], ["D4", "D3"]]

GOOD = f"""
[Board "1"]
[Deal "{TWO}"]
[Trump "NT"]
[Leader "N"]
"""


@pytest.fixture
def good_file(tmp_path):
    p = tmp_path / "good.pbn"
    p.write_text(GOOD)
    return str(p)


# --------------------------------------------------------------------------
# solve


def test_solve_json_values_by_hand(good_file):
    r = run(["solve", "--json", good_file])
    assert r.exit_code == 0, r.stderr
    [obj] = json_lines(r)
    for key in ("board", "deal", "trump", "ranking", "leader", "turn", "tricks", "cards", "line"):
        assert key in obj
    assert str(obj["board"]) == "1"
    assert obj["trump"] == "NT"
    assert obj["ranking"] == "up"
    assert obj["leader"] == "N"
    assert obj["turn"] == "N"
    assert obj["tricks"] == 2
    assert obj["cards"] == {"SA": 2, "S2": 0}
    assert obj["line"][0] == "SA"
    assert obj["line"][1] == "SK"
    assert obj["line"][4] == "S2"
    assert len(obj["line"]) == 8
    # the deal string names the same cards
    assert obj["deal"].split(":")[1].split()[0].upper().startswith("A2")
    assert r.stderr == ""


def test_solve_overrides_change_the_values(good_file):
    # E leading: D2 is won by West's D4, West's D3 wins the last trick
    # (E-W 2); SK loses to SA and S2 is then good (E-W 0).
    r = run(["solve", "--json", "--leader", "E", good_file])
    assert r.exit_code == 0
    [obj] = json_lines(r)
    assert obj["leader"] == "E" and obj["turn"] == "E"
    assert obj["cards"] == {"SK": 0, "D2": 2}
    assert obj["tricks"] == 2
    assert obj["ns_tricks"] == 0
    # clubs trump: after S2, South ruffs SK and the last trick is South's.
    r = run(["solve", "--json", "--trump", "C", good_file])
    [obj] = json_lines(r)
    assert obj["trump"] == "C"
    assert obj["cards"] == {"SA": 2, "S2": 2}


def test_solve_downtown_override(tmp_path):
    # Downtown the two beats the king; the ace stays high.
    #   N: SA S2  E: SK SQ  S: C2 C3  W: D2 D3, no-trump, North leads.
    p = tmp_path / "down.pbn"
    p.write_text(board(1, "N:A2... KQ... ...32 ..32.", '[Trump "NT"]', '[Leader "N"]'))
    up = json_lines(run(["--json", str(p)]))[0]
    down = json_lines(run(["--json", "--ranking", "down", str(p)]))[0]
    # uptown: SA wins, then S2 loses to the queen: 1.  S2 first: 1.
    assert up["cards"] == {"SA": 1, "S2": 1}
    # downtown: SA then S2 (beats SQ): 2.  S2 first wins too, then SA: 2.
    assert down["ranking"] == "down"
    assert down["cards"] == {"SA": 2, "S2": 2}


def test_solve_current_trick_counts_and_play_section(tmp_path):
    # After SA SK the trick is North's whatever South plays, and N's S2 wins
    # the last one: South's side takes 2, the current trick included.
    p = tmp_path / "play.pbn"
    p.write_text(
        board(1, TWO, '[Trump "NT"]', '[Leader "N"]', play='[Play "N"]\nSA SK - -\n*')
        + board(2, TWO, '[Trump "NT"]', '[Leader "N"]', play='[Play "N"]\nSA SK C2 D3\n*')
    )
    r = run(["--json", str(p)])
    assert r.exit_code == 0, r.stderr
    a, b = json_lines(r)
    assert a["turn"] == "S" and a["leader"] == "N"
    assert a["tricks"] == 2
    assert a["cards"] == {"C3": 2, "C2": 2}
    assert len(a["line"]) == 6
    # one trick played: North leads S2 and wins it
    assert b["turn"] == "N" and b["tricks"] == 1 and b["cards"] == {"S2": 1}
    assert b["won"] == {"NS": 1, "EW": 0}


def test_solve_and_puzzles_of_a_board_whose_play_is_over(tmp_path):
    """Every trick recorded (as BBO's records are): not bad input, but the
    finished position: no side on turn, nothing left, the tricks each side
    took; a puzzle's goal is then reached only if it asks for no more."""
    p = tmp_path / "over.pbn"
    # N leads SA (N-S win it), then N's S2 wins the last trick: N-S take both
    p.write_text(
        board(1, TWO, '[Trump "NT"]', '[Leader "N"]', '[Contract "1NT"]', '[Declarer "W"]',
              play='[Play "N"]\nSA SK C2 D3\nS2 D2 C3 D4\n*')
        + board(2, TWO, '[Trump "NT"]', '[Leader "N"]', '[Goal "EW 1"]',
                play='[Play "N"]\nSA SK C2 D3\nS2 D2 C3 D4\n*'))
    r = run(["solve", "--json", str(p)])
    assert r.exit_code == 0, r.stderr
    a, b = json_lines(r)
    assert a["turn"] is None and a["tricks"] == 0 and a["tricks_left"] == 0
    assert a["cards"] == {} and a["line"] == []
    assert a["won"] == {"NS": 2, "EW": 0} and a["trick_leader"] == "N"
    r = run(["solve", str(p)])
    assert r.exit_code == 0 and "The play is over: N-S took 2, E-W 0." in r.stdout
    # puzzles: 1NT by W needs 7 of 2 tricks less none won (fails); EW 1 more (fails)
    r = run(["puzzles", "--json", str(p)])
    assert r.exit_code == 1
    assert [(o["solved"], o["tricks"], o["turn"]) for o in json_lines(r)] == [
        (False, 0, None), (False, 0, None)]
    q = tmp_path / "made.pbn"
    q.write_text(board(3, TWO, '[Trump "NT"]', '[Leader "N"]', '[Goal "NS 0"]',
                       play='[Play "N"]\nSA SK C2 D3\nS2 D2 C3 D4\n*'))
    r = run(["puzzles", str(q)])
    assert r.exit_code == 0, r.stderr
    assert "Goal reached: N-S needed no more tricks." in r.stdout


def test_solve_jokers_no_trump_and_trump(tmp_path):
    # N: JH SA  E: SK HA  S: S2 H2  W: SQ H3; North leads.
    # At no-trump a joker never wins: SA first wins, then JH loses to HA: 1.
    # JH first: East plays SK (spades to follow), wins, and cashes HA: 0.
    # With hearts trump JH is the top trump: both tricks for N-S.
    deal = "N:A....H K.A.. 2.2.. Q.3.."
    p = tmp_path / "jok.pbn"
    p.write_text(board(1, deal, '[Trump "NT"]', '[Leader "N"]'))
    nt = json_lines(run(["--json", str(p)]))[0]
    hands = [["JH", "SA"], ["SK", "HA"], ["S2", "H2"], ["SQ", "H3"]]
    assert nt["cards"] == ref_card_values(hands, None, "up", 0)
    assert nt["tricks"] == max(nt["cards"].values())
    assert nt["cards"] == {"SA": 1, "JH": 0}
    ht = json_lines(run(["--json", "--trump", "H", str(p)]))[0]
    assert ht["cards"] == {"SA": 2, "JH": 2}


def test_solve_line_is_optimal_against_reference(tmp_path):
    rng = random.Random(2024)
    text = ""
    cases = []
    for i in range(6):
        deck = [s + r for s in "SHDC" for r in "AKQJT98765432"] + ["JH", "JL"]
        rng.shuffle(deck)
        n = 3
        hands = [deck[k * n:(k + 1) * n] for k in range(4)]
        trump = rng.choice(["S", "H", "D", "C", "NT"])
        ranking = rng.choice(["up", "down"])
        leader = rng.randrange(4)
        from whist_solve.cards import format_hand
        deal = "N:" + " ".join(format_hand(h) for h in hands)
        text += board(i + 1, deal, f'[Trump "{trump}"]', f'[Ranking "{ranking}"]',
                      f'[Leader "{"NESW"[leader]}"]')
        cases.append((hands, None if trump == "NT" else trump, ranking, leader))
    p = tmp_path / "rand.pbn"
    p.write_text(text)
    r = run(["--json", str(p)])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert len(objs) == 6
    for obj, (hands, trump, ranking, leader) in zip(objs, cases):
        want = ref_card_values(hands, trump, ranking, leader)
        assert obj["cards"] == want
        ns = ref_value(hands, trump, ranking, leader)
        side_ns = leader % 2 == 0
        assert obj["tricks"] == (ns if side_ns else 3 - ns)
        # the line is legal and gives the value
        assert ref_replay(hands, trump, ranking, leader, (), obj["line"]) == ns


def test_solve_for_people(good_file):
    r = run([good_file])
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "North" in out and "West" in out
    assert "N-S take 2 of the 2 tricks" in out
    assert "best" in out
    # the first decision: SA keeps both tricks, S2 gives N-S 0
    assert re.search(r"trick 1, N plays .A: N-S 2; .2 \S+ N-S 0", out), out
    assert r.stderr == ""


def test_default_command_is_solve(good_file):
    a = run(["solve", "--json", good_file])
    b = run([good_file, "--json"])
    c = run(["--json", good_file])
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert json_lines(a) == json_lines(b) == json_lines(c)
    assert json_lines(a)[0]["tricks"] == 2


def test_stdin():
    r = run(["--json", "-"], input=GOOD)
    assert r.exit_code == 0, r.stderr
    [obj] = json_lines(r)
    assert obj["cards"] == {"SA": 2, "S2": 0}
    r = run(["table", "--json", "-"], input=GOOD)
    assert r.exit_code == 0
    assert json_lines(r)[0]["table"]["NT"]["up"]["N"] == 2


def test_help_lists_commands():
    r = run(["--help"])
    assert r.exit_code == 0
    for cmd in ("solve", "table", "deal"):
        assert cmd in r.stdout
    r = run([])  # no arguments: the help, as a usage problem or not
    assert "solve" in (r.stdout + r.stderr)


# --------------------------------------------------------------------------
# Bad input: every kind is reported with the file and the board, the good
# board of the same file is still solved, and the exit status is 2.


BAD_BOARDS = {
    "duplicate": (board(2, "N:A2... A..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]'),
                  r"duplicate"),
    "unequal": (board(2, "N:A2... K... ...32 ..43.", '[Trump "NT"]', '[Leader "N"]'),
                r"unequal|same number|cards"),
    "unknown card": (board(2, "N:AX... K..2. ...32 ..43.", '[Trump "NT"]', '[Leader "N"]'),
                     r"unknown|X"),
    "no trump": (board(2, TWO, '[Leader "N"]'), r"trump"),
    "no leader": (board(2, TWO, '[Trump "S"]'), r"leader|lead"),
    "illegal play": (board(2, TWO, '[Trump "NT"]', '[Leader "N"]', play='[Play "N"]\nS2 D2 - -\n*'),
                     r"illegal|follow|revoke"),
}


# A table needs no trump and no leader and ignores the play.
BAD_CASES = [("solve", kind) for kind in sorted(BAD_BOARDS)] + [
    ("table", kind) for kind in ("duplicate", "unequal", "unknown card")]


@pytest.mark.parametrize("command,kind", BAD_CASES)
def test_bad_board_reported_others_solved(tmp_path, kind, command):
    bad, pattern = BAD_BOARDS[kind]
    p = tmp_path / "mixed.pbn"
    p.write_text(GOOD + "\n" + bad + board(3, TWO, '[Trump "NT"]', '[Leader "E"]'))
    r = run([command, "--json", str(p)])
    assert r.exit_code == 2
    objs = json_lines(r)  # stdout holds only JSON
    assert [str(o["board"]) for o in objs] == ["1", "3"]
    if command == "solve":
        assert objs[0]["tricks"] == 2 and objs[1]["cards"] == {"SK": 0, "D2": 2}
    else:
        assert objs[0]["table"]["NT"]["up"] == {"N": 2, "E": 0, "S": 2, "W": 0}
    err = r.stderr
    assert "mixed.pbn" in err
    assert re.search(r"board\W+2", err, re.I), err
    assert re.search(pattern, err, re.I), err
    assert "Traceback" not in err and "Traceback" not in r.stdout


def test_bad_board_for_people_no_traceback(tmp_path):
    p = tmp_path / "mixed.pbn"
    p.write_text(GOOD + "\n" + BAD_BOARDS["duplicate"][0])
    r = run([str(p)])
    assert r.exit_code == 2
    assert "N-S take 2 of the 2 tricks" in r.stdout
    assert "duplicate" in r.stderr.lower()
    assert "Traceback" not in r.stdout + r.stderr


def test_missing_file(good_file, tmp_path):
    missing = str(tmp_path / "nope.pbn")
    r = run(["--json", missing, good_file])
    assert r.exit_code == 2
    assert "nope.pbn" in r.stderr
    assert "Traceback" not in r.stderr
    [obj] = json_lines(r)
    assert obj["tricks"] == 2


def test_binary_junk_file(good_file, tmp_path):
    junk = tmp_path / "junk.pbn"
    junk.write_bytes(bytes(range(256)) * 4 + b"\x00\xff\xfe")
    for cmd in ("solve", "table"):
        r = run([cmd, "--json", str(junk), good_file])
        assert r.exit_code == 2
        assert "junk.pbn" in r.stderr
        assert "Traceback" not in r.stderr
        assert len(json_lines(r)) == 1


@pytest.mark.parametrize("args", [
    ["solve", "--trump", "X", "FILE"],
    ["solve", "--ranking", "sideways", "FILE"],
    ["solve", "--leader", "Q", "FILE"],
    ["solve", "--no-such-option", "FILE"],
    ["solve"],
    ["table", "--ranking", "left", "FILE"],
    ["deal", "--variant", "bridge"],
    ["deal", "--count", "0"],
])
def test_bad_usage_exit_2(args, good_file):
    args = [good_file if a == "FILE" else a for a in args]
    r = run(args)
    assert r.exit_code == 2
    assert r.stdout == ""


def test_success_exit_0_for_people_and_json(good_file):
    assert run([good_file]).exit_code == 0
    assert run(["table", good_file]).exit_code == 0
    assert run(["table", "--pbn", good_file]).exit_code == 0


# --------------------------------------------------------------------------
# table


def test_table_json_against_reference(tmp_path):
    rng = random.Random(7)
    from whist_solve.cards import format_hand
    cases, text = [], ""
    for i in range(3):
        deck = [s + r for s in "SHDC" for r in "AKQJT98765432"] + ["JH", "JL"]
        rng.shuffle(deck)
        hands = [deck[k * 3:(k + 1) * 3] for k in range(4)]
        cases.append(hands)
        text += board(i + 1, "N:" + " ".join(format_hand(h) for h in hands))
    p = tmp_path / "t.pbn"
    p.write_text(text)
    r = run(["table", "--json", "--ranking", "both", str(p)])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert len(objs) == 3
    for obj, hands in zip(objs, cases):
        t = obj["table"]
        assert set(t) == {"S", "H", "D", "C", "NT"}
        for strain in t:
            assert set(t[strain]) == {"up", "down"}
            for ranking in ("up", "down"):
                for leader, seat in enumerate("NESW"):
                    want = ref_value(hands, None if strain == "NT" else strain, ranking, leader)
                    assert t[strain][ranking][seat] == want, (strain, ranking, seat)


def test_table_by_hand_and_filters(good_file):
    r = run(["table", "--json", "--strain", "NT", good_file])
    assert r.exit_code == 0
    [obj] = json_lines(r)
    # N or S on lead: N-S take both; E or W on lead: West's diamonds take both.
    assert obj["table"] == {"NT": {"up": {"N": 2, "E": 0, "S": 2, "W": 0}}}
    r = run(["table", "--json", "--ranking", "down", "--strain", "S,C", good_file])
    [obj] = json_lines(r)
    assert set(obj["table"]) == {"S", "C"}
    assert set(obj["table"]["S"]) == {"down"}


def test_table_for_people(good_file):
    r = run(["table", "--strain", "NT", good_file])
    assert r.exit_code == 0
    out = r.stdout
    assert "by leader" in out and "by declarer" in out
    # NT row: leaders N E S W -> 2 0 2 0; declarers N S E W -> the
    # declarer's LHO leads: N (E leads) 0, S (W leads) 0, E (S leads) 0, W (N leads) 0
    row = [ln for ln in out.splitlines() if "NT" in ln and re.search(r"\d", ln)]
    assert row, out
    assert re.findall(r"\d+", row[-1]) == ["2", "0", "2", "0", "0", "0", "0", "0"]


def test_table_pbn(good_file):
    r = run(["table", "--pbn", good_file])
    assert r.exit_code == 0
    assert "[OptimumResultTable" in r.stdout
    assert '[Deal "' in r.stdout


# --------------------------------------------------------------------------
# deal


def _read(text):
    from whist_solve.pbn import read_pbn
    return read_pbn(text)


def test_deal_classic():
    r = run(["deal", "--count", "4", "--seed", "42"])
    assert r.exit_code == 0
    boards = _read(r.stdout)
    assert len(boards) == 4
    for i, b in enumerate(boards):
        assert not b.errors
        cards = [c for h in b.hands for c in h]
        assert all(len(h) == 13 for h in b.hands)
        assert len(set(cards)) == 52
        dealer = b.tags["Dealer"]
        d = "NESW".index(dealer)
        trump = b.tags["Trump"]
        # the trump is the suit of the dealer's turned-up card, a tag
        # simulate reads when the dealer's hand is not known
        assert b.tags["TrumpCard"] in b.hands[d] and b.tags["TrumpCard"][0] == trump
        assert b.tags["Leader"] == "NESW"[(d + 1) % 4]
        assert str(b.tags["Board"]) == str(i + 1)
    again = run(["deal", "--count", "4", "-s", "42"])     # (-s: --seed, as in simulate)
    assert again.stdout == r.stdout
    other = run(["deal", "--count", "4", "--seed", "43"])
    assert other.stdout != r.stdout
    # a negative seed is refused: Python seeded it as 42, the same deals
    # under another seed's header
    neg = run(["deal", "--count", "4", "--seed=-42"])
    assert neg.exit_code == 2 and neg.stdout == "" and "--seed" in neg.stderr


def test_deals_do_not_depend_on_random_shuffle():
    """The deals come from the seeded generator's getrandbits only (whose
    output Python keeps from version to version), not from random.shuffle,
    whose algorithm it does not promise to keep: the same deals with
    random.shuffle replaced."""
    import random
    from unittest import mock
    from whist_solve.dealing import random_hands
    want = [random_hands(seed) for seed in range(20)]
    with mock.patch.object(random.Random, "shuffle", side_effect=AssertionError("used")):
        assert [random_hands(seed) for seed in range(20)] == want
    # ... and they are the deals random.shuffle gave (the committed sets and
    # seeds of the README keep their deals)
    for seed in range(20):
        deck = list(want[seed][0] + want[seed][1] + want[seed][2] + want[seed][3])
        from whist_solve.cards import full_deck
        mine = full_deck()
        random.Random(seed).shuffle(mine)
        assert mine == deck


def test_deal_bid():
    r = run(["deal", "--count", "2", "--seed", "1", "--variant", "bid"])
    assert r.exit_code == 0
    boards = _read(r.stdout)
    assert len(boards) == 2
    for b in boards:
        assert not b.errors
        assert all(len(h) == 12 for h in b.hands)
        assert len(b.kitty) == 6
        cards = [c for h in b.hands for c in h] + list(b.kitty)
        assert len(set(cards)) == 54
        assert "JH" in cards and "JL" in cards


@pytest.mark.parametrize("variant, cycle", [("rotating", "S H D C"),
                                             ("rotating-nt", "S H D C NT")])
def test_deal_rotating_trumps(variant, cycle):
    """Classic whist's rotating-trump variant: the same cards as classic
    whist for the seed, the trump set by the deal's number (S, H, D, C,
    then NT with -nt, and round again); classic whist otherwise."""
    cycle = cycle.split()
    r = run(["deal", "--count", "11", "--seed", "42", "--variant", variant])
    assert r.exit_code == 0, r.stderr
    boards = _read(r.stdout)
    classic = _read(run(["deal", "--count", "11", "--seed", "42"]).stdout)
    for i, (b, c) in enumerate(zip(boards, classic)):
        assert not b.errors and b.hands == c.hands and b.game() == "classic"
        assert b.trump() == (None if cycle[i % len(cycle)] == "NT" else cycle[i % len(cycle)])
        assert b.tags["Leader"] == c.tags["Leader"]
    assert f"--variant {variant} " in r.stdout.splitlines()[1]
    bad = run(["deal", "--variant", "rotate"])
    words = " ".join(bad.stderr.replace("│", " ").split())
    assert bad.exit_code == 2 and "expected classic, rotating, rotating-nt or bid" in words


def test_deal_then_solve_ending():
    # A random deal read back and tabulated through stdin.
    r = run(["deal", "--seed", "5"])
    res = run(["table", "--json", "--strain", "NT", "-"], input=r.stdout)
    assert res.exit_code == 0, res.stderr
    [obj] = json_lines(res)
    vals = obj["table"]["NT"]["up"]
    assert all(0 <= v <= 13 for v in vals.values())


# --------------------------------------------------------------------------
# The shipped examples


def test_examples_file():
    r = run(["--json", EXAMPLES])
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert [str(o["board"]) for o in objs] == ["1", "2", "3", "4"]
    bridge, classic, bid, ending = objs
    assert bridge["trump"] == "NT" and bridge["leader"] == "W" and bridge["turn"] == "W"
    assert classic["trump"] == "C" and classic["leader"] == "E"
    assert bid["trump"] == "S" and bid["leader"] == "S" and len(bid["line"]) == 48
    assert ending["turn"] == "E" and ending["trump"] == "H"
    for o in objs:
        assert o["tricks"] == max(o["cards"].values())


def test_closed_pipe_ends_quietly():
    """`whist-solve table FILE | head -1`: the reader goes away after one
    line; the run stops without a traceback or a per-board error."""
    import subprocess
    import sys

    path = str(ROOT / "puzzles" / "classic.pbn")
    p = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", "table", path, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert first.startswith(b"{")
    assert "Traceback" not in err and "internal error" not in err, err
    assert p.returncode == 141   # 128 + SIGPIPE, as the shell reports a program stopped by it


# --------------------------------------------------------------------------
# A mistyped command, the help's labels, completion.


def test_mistyped_command_is_not_a_file(good_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(["tabel", good_file])
    assert r.exit_code == 2
    assert "no command or file 'tabel'; did you mean 'table'?" in r.stderr
    assert r.stdout == ""                     # nothing solved
    r = run(["xyzzy", good_file])
    assert r.exit_code == 2 and "no command or file 'xyzzy'" in r.stderr
    assert "table" in r.stderr                # the commands are listed
    # a file of that name is still a file to solve
    (tmp_path / "tabel").write_text(GOOD)
    r = run(["tabel", "--json"])
    assert r.exit_code == 0 and json_lines(r)[0]["tricks"] == 2


def test_a_command_after_options_is_said(good_file, tmp_path, monkeypatch):
    # `whist-solve --json table FILE` read 'table' as solve's file: "table:
    # no such file", with no word of the command's place
    monkeypatch.chdir(tmp_path)
    r = run(["--json", "table", good_file])
    assert r.exit_code == 2 and r.stdout == ""
    assert f"error: 'table' is a command: it goes first (whist-solve table --json {good_file})" \
        in r.stderr
    # options before a file: solve, as before; a file named as a command is a file
    r = run(["--json", good_file])
    assert r.exit_code == 0 and json_lines(r)[0]["tricks"] == 2
    (tmp_path / "table").write_text(GOOD)
    r = run(["--json", "table"])
    assert r.exit_code == 0 and json_lines(r)[0]["tricks"] == 2


@pytest.mark.parametrize("width", [60, 80, 100])
def test_command_list_wraps_each_description_to_the_panel(width):
    """The main help's list of commands: every description is wrapped
    greedily to the panel (a line ends only where the next word would not
    fit), not broken where its docstring's lines end."""
    r = run(["--help"], env={"COLUMNS": str(width)})
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if "Commands" in ln)
    rows = []                                   # (name, [description lines])
    for ln in lines[start + 1:]:
        if not ln.startswith("│"):
            break
        inner = ln[1:].rstrip().rstrip("│")
        m = re.match(r" (\S+)( +)(.*)", inner)
        if m and not inner.startswith("  "):
            rows.append((m.group(1), [m.group(3).rstrip()]))
            room = len(inner) - (len(m.group(1)) + len(m.group(2)) + 1) - 1
        else:
            rows[-1][1].append(inner.strip())
    assert {name for name, _ in rows} >= {"solve", "table", "simulate", "review"}
    for name, text in rows:
        for line, after in zip(text, text[1:]):
            assert len(line) + 1 + len(after.split()[0]) > room, (width, name, line, after)


@pytest.mark.parametrize("command", ["", "solve", "table", "bid", "check", "puzzles", "play",
                                     "deal", "bench"])
def test_help_has_no_type_labels(command):
    r = run([command, "--help"] if command else ["--help"])
    assert r.exit_code == 0
    text = r.stdout
    for label in ("<bool>", "<int", "<list", "<str>", "<float", "<path>", "[x>=", "{FILE"):
        assert label not in text, (command, label)
    if command:
        assert f" {command} [OPTIONS]" in " ".join(text.split())


def test_developer_options_hidden():
    r = run(["bench", "--help"])
    assert "--regen-signature" not in r.stdout


def test_completion_options():
    r = run(["--help"])
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
    import os
    import subprocess
    import sys
    env = dict(os.environ, _WHIST_SOLVE_COMPLETE="complete_bash", COMP_WORDS="whist-solve ta",
               COMP_CWORD="1")
    code = "import sys; sys.argv[0] = 'whist-solve'; from whist_solve.cli.main import main; main()"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["table"]


def _modules_loaded_by_table(loaded: str, *options: str) -> str:
    """Run ``whist-solve table EXAMPLES --threads 1 OPTIONS`` in a fresh
    Python; ``loaded`` is an expression over ``sys.modules`` (a list of
    names) that the run writes to stderr as it exits; returns that line."""
    import subprocess
    import sys

    code = ("import atexit, sys\n"
            f"atexit.register(lambda: sys.stderr.write('LOADED ' + ' '.join({loaded}) + '\\n'))\n"
            f"sys.argv = ['whist-solve', 'table', sys.argv[1], '--threads', '1', *{options!r}]\n"
            "from whist_solve.cli.main import main; main()\n")
    p = subprocess.run([sys.executable, "-c", code, EXAMPLES], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    return next(line for line in p.stderr.splitlines() if line.startswith("LOADED"))


def test_table_loads_no_analysis_it_does_not_use():
    """``whist-solve table F`` with stderr not a terminal (no progress bar)
    loads neither the bid whist optimizer, the benchmarks, puzzles and
    lines, nor rich's progress bars: a smaller, quicker process.  The
    package still gives the bid names, from ``bid``, when asked."""
    import whist_solve
    from whist_solve import bid
    assert whist_solve.best_exchange is bid.best_exchange
    with pytest.raises(AttributeError):
        whist_solve.no_such_name
    heavy = ("whist_solve.bid", "whist_solve.bench", "whist_solve.puzzle", "whist_solve.lines",
             "rich.progress")
    assert _modules_loaded_by_table(f"m for m in {heavy!r} if m in sys.modules", "--json") \
        == "LOADED "


def test_a_run_loads_only_the_command_it_runs(monkeypatch):
    """``whist-solve table F`` imports the table command's module and not
    the others; the main help, an option first and shell completion load
    every command, and a word that is no command goes to ``solve``."""
    from whist_solve.cli.main import COMMANDS, commands_for, make_app
    monkeypatch.delenv("_WHIST_SOLVE_COMPLETE", raising=False)
    assert commands_for(["table", "x.pbn"]) == ["table"]
    assert commands_for(["x.pbn"]) == commands_for(["-"]) == commands_for(["tabel"]) == ["solve"]
    assert commands_for([]) is None and commands_for(["--help"]) is None
    assert commands_for(["--json", "x.pbn"]) is None
    assert [c.name for c in make_app(["bid"]).registered_commands] == ["bid"]
    assert [c.name for c in make_app().registered_commands] == list(COMMANDS)
    assert _modules_loaded_by_table(
        "sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.endswith('_cmd'))") \
        == "LOADED table_cmd"
    monkeypatch.setenv("_WHIST_SOLVE_COMPLETE", "complete_bash")
    assert commands_for(["table"]) is None


def test_solve_header_says_when_an_option_sets_the_contract_aside(tmp_path):
    """The header names the file's contract only when the position is
    solved as that contract: another strain, ranking or first leader given
    on the command line (or a Trump tag that is not the contract's strain)
    is said, not passed over in silence."""
    p = tmp_path / "c.pbn"
    p.write_text(board(1, TWO, '[Contract "1NT"]', '[Declarer "W"]'))
    q = tmp_path / "t.pbn"
    q.write_text(board(1, TWO, '[Contract "1NT"]', '[Declarer "W"]', '[Trump "S"]'))
    cases = [
        ([str(p)], "contract 1NT by W", "set aside"),
        ([str(p), "--leader", "N"], "contract 1NT by W", None),     # N is W's left: the same
        ([str(p), "--leader", "e"], "contract 1NT by W set aside (--leader E)", None),
        ([str(p), "--trump", "S"], "contract 1NT by W set aside (--trump S)", None),
        ([str(p), "--trump", "nt"], "contract 1NT by W", "set aside"),
        ([str(p), "--ranking", "down", "--leader", "S"],
         "contract 1NT by W set aside (--ranking down, --leader S)", None),
        ([str(q)], "contract 1NT by W set aside (the Trump tag)", None),
    ]
    # no Declarer: no opening leader to set aside
    n = tmp_path / "n.pbn"
    n.write_text(board(1, TWO, '[Contract "1NT"]'))
    cases.append(([str(n), "--leader", "E"], "contract 1NT", "set aside"))
    for args, said, unsaid in cases:
        r = run(["solve", *args], env={"COLUMNS": "200"})
        assert r.exit_code == 0, r.stderr
        head = r.stdout.splitlines()[1]
        assert said in head, (args, head)
        if unsaid:
            assert unsaid not in head, (args, head)


def test_a_play_section_an_option_makes_illegal_says_so(tmp_path):
    """A Play section right with the board's own ranking, replayed with
    --ranking down: trick 1's winner changes (DJ uptown, D2 downtown),
    hence trick 2's leader and trick 3's, whose cards no longer follow suit.
    The message says the option did it; the trick's error is still named."""
    p = tmp_path / "p.pbn"
    p.write_text(board(1, "N:AQ73.9.T963.QJ96 86.T732.AQ52.A85 T92.K864.KJ74.73 KJ54.AQJ5.8.KT42",
                       '[Contract "2H"]', '[Declarer "N"]',
                       play='[Play "E"]\nD2 DJ D8 DT\nC5 C7 C2 C9\nDA D7 CT D3\n*'))
    assert run(["solve", "--json", str(p)]).exit_code == 0
    r = run(["solve", "--json", "--ranking", "down", str(p)])
    assert r.exit_code == 2
    assert "illegal play D3 by N in trick 3: must follow C" in r.stderr
    assert "--ranking down changes who won or led its tricks" in r.stderr
    # an option the Play section does not mind is not blamed
    assert run(["solve", "--json", "--trump", "NT", str(p)]).exit_code == 0


def _hcp(hand):
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c[1], 0) for c in hand)


def test_deal_with_constraints(monkeypatch):
    args = ["deal", "--count", "6", "--seed", "8", "-c", "hcp(N) >= 16", "--constraint",
            "spades(S) >= 5 or hearts(S) >= 5"]
    r = run(args)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[1] == ("% whist-solve deal --variant classic --count 6 --seed 8 "
                                        "--constraint 'hcp(N) >= 16' "
                                        "--constraint 'spades(S) >= 5 or hearts(S) >= 5'")
    boards = _read(r.stdout)
    assert len(boards) == 6 and not any(b.errors for b in boards)
    for b in boards:
        n, _, s, _ = b.hands
        assert _hcp(n) >= 16
        assert sum(c[0] == "S" for c in s) >= 5 or sum(c[0] == "H" for c in s) >= 5
    assert run(args).stdout == r.stdout                    # the same seed, the same deals
    # a line break in a constraint stays out of the PBN (the header's %
    # line ended there, and the rest was a bad board for every reader)
    r = run(["deal", "-s", "3", "-c", "hcp(N) >= 10\nand spades(S) >= 4\r"])
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1].endswith("--constraint 'hcp(N) >= 10 and spades(S) >= 4'")
    (b,) = _read(r.stdout)
    assert not b.errors
    # bid whist: 12 cards and the jokers, a constraint on them
    r = run(["deal", "--variant", "bid", "--count", "3", "--seed", "1", "-c", "jokers(E) == 2"])
    assert r.exit_code == 0
    from whist_solve.cards import is_joker
    assert all(sum(map(is_joker, b.hands[1])) == 2 for b in _read(r.stdout))
    # a constraint in error: nothing dealt
    r = run(["deal", "-c", "hcp(N >= 3"])
    assert r.exit_code == 2 and r.stdout == "" and "column" in r.stderr
    # none satisfies it: the boards dealt so far stay, then the error
    from whist_solve import dealing
    monkeypatch.setattr(dealing, "MAX_TRIES", 500)
    r = run(["deal", "--count", "3", "--seed", "2", "-c", "hcp(N) >= 38"])
    assert r.exit_code == 2
    assert "board 1: no deal satisfies the constraints: 0 of 500 tried" in r.stderr
    assert "[Board" not in r.stdout


@pytest.mark.parametrize("command", [["solve"], ["table"], ["bid"], ["check", "--contract", "4S"],
                                     ["simulate", "-n", "2", "--jobs", "1"]])
def test_every_json_object_ends_with_its_file(tmp_path, command):
    # two files whose boards share a label: "file" tells them apart
    from support import ROOT
    src = (ROOT / "examples" / "bidwhist.pbn").read_text()
    a, b = tmp_path / "a.pbn", tmp_path / "b.pbn"
    a.write_text(src)
    b.write_text(src)
    r = run([*command, "--json", str(a), str(b)])
    assert r.exit_code in (0, 1, 2), r.stderr     # (board 2 has no trump, nor a bidder)
    objs = json_lines(r)
    assert objs and [o["file"] for o in objs] == [str(a)] * (len(objs) // 2) + [str(b)] * (len(objs) // 2)
    assert all(list(o)[:2] == ["board", "deal"] and list(o)[-1] == "file" for o in objs)


def test_small_wordings(tmp_path):
    # a bid whist board without a leader names the Bidder among the tags
    p = tmp_path / "bw.pbn"
    p.write_text(board(1, "N:AK.Q.J. Q2.3.4. 3.K.A.J 4.4.5.6", '[Variant "bid"]', '[Trump "S"]'))
    r = run(["solve", str(p)])
    assert "missing leader: no Leader, Play, Bidder, Declarer or Dealer tag" in r.stderr
    # check's --contract gives examples of what it takes (not Pass or 4SX)
    r = run(["check", "--contract", "4", str(p)])
    flat = " ".join(r.stderr.replace("\u2502", " ").split())
    assert r.exit_code == 2 and "bad bid '4'" in flat and "Pass" not in flat
    # one sample is "1 sample"; classic whist's majority is the leader's side's
    q = tmp_path / "cl.pbn"
    q.write_text(board(1, "N:A2... K..2. - -", '[Trump "NT"]', '[Leader "E"]'))
    r = run(["simulate", "-n", "1", "--jobs", "1", str(q)])
    flat = " ".join(r.stdout.replace("\u2502", " ").split())
    assert "1 sample, seed 1; E leads; E-W (the leader's side) need 2 of 2 tricks" in flat


def test_the_summary_counts_boards_that_share_a_label():
    # a team file has each board number twice: three bad boards "1" were
    # counted as one error
    bad = '[Board "1"]\n[Deal "N:AK... QJ... T9... 87.."]\n[Trump "NT"]\n[Leader "W"]\n\n' * 3
    for command in ("table", "puzzles"):
        r = run([command, "-"], input=bad)
        assert r.exit_code == 2
        assert r.stderr.count("bad hand for W") == 3
        assert ", 3 errors in " in r.stderr.splitlines()[-1]


def test_a_file_given_twice_counts_its_bad_boards_twice(tmp_path):
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AK... QJ... T9... 87.."]\n[Trump "NT"]\n[Leader "W"]\n')
    r = run(["table", str(bad), str(bad)])
    assert r.stderr.count("bad hand for W") == 2 and ", 2 errors in " in r.stderr
