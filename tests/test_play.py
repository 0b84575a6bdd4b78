"""`whist-solve play`: interactive analysis driven by scripted input."""
from __future__ import annotations

import re

import pytest

from support.cli_run import run


# A two-card ending at no-trump, North to lead:
#   N: SA S2   E: SK D2   S: C3 C2   W: D4 D3
# SA wins, then S2 is the last spade: N-S 2.  S2 first loses to SK, and East's
# D2 puts West in for the last trick: N-S 0.
TWO = "N:A2... K..2. ...32 ..43."

TEXT = f"""
[Board "1"]
[Title "Two spades"]
[Deal "{TWO}"]
[Trump "NT"]
[Leader "N"]
[Goal "NS 2"]

[Board "2"]
[Deal "N:A....H K.A.. 2.2.. Q.3.."]
[Trump "H"]
[Leader "N"]
"""

RESULT_RE = re.compile(r"Double-dummy result: N-S (\d+), E-W (\d+)")


@pytest.fixture
def pbn(tmp_path):
    p = tmp_path / "play.pbn"
    p.write_text(TEXT)
    return str(p)


def results(out):
    return [(int(a), int(b)) for a, b in RESULT_RE.findall(out)]


def value_rows(out):
    """The rows of the card-values tables: (tricks, [cards])."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+(?:\S+ best|[+-]\d+)\s+(.+?)\s*$", line)
        if m:
            cards = [c.translate(str.maketrans("\u2660\u2665\u2666\u2663", "SHDC"))
                     for c in m.group(2).split()]
            rows.append((int(m.group(1)), cards))
    return rows


def test_scripted_session(pbn):
    # S2 (a mistake), undo, hint, best (SA), Enter (East's only card), quit
    r = run(["play", pbn], input="s2\nundo\nhint\nbest\n\nquit\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in out + r.stderr
    # the start: SA keeps both tricks, S2 gives them away
    rows = value_rows(out)
    assert rows[0] == (2, ["SA"]) and rows[1] == (0, ["S2"])
    # the values shown after each step
    assert results(out) == [(2, 0),   # start
                            (0, 2),   # after S2
                            (2, 0),   # after undo
                            (2, 0),   # after SA
                            (2, 0)]   # after SK
    assert "a mistake, N-S lose 2 tricks" in out
    assert "Took back" in out
    hint = next(ln for ln in out.splitlines() if "Hint:" in ln)
    assert "A" in hint and "N-S take 2 of the 2 tricks" in hint
    assert re.search(r"North plays \S+A \(N-S 2 from here\)", out)
    assert re.search(r"East plays \S+K", out)
    # after the first move East's values: his only card gives E-W 2 or 0
    assert (2, ["SK"]) in rows and (0, ["SK"]) in rows
    assert "South to play" in out


def test_play_to_the_end_and_goal(pbn):
    r = run(["play", pbn], input="\n\n\n\n\n\n\n\nquit\n")
    assert r.exit_code == 0
    out = r.stdout
    # the card that ends the first trick counts it in its value, and says
    # so; the next card counts from the next trick (N-S 2, then 1)
    assert re.search(r"West plays \S+ \(E-W 0 from this trick on\); N wins the trick", out)
    assert re.search(r"North plays \S+2 \(N-S 1 from here\)", out)
    assert "The play is over: N-S 2, E-W 0" in out
    assert "Goal N-S 2" in out and "reached" in out
    assert "Tricks played" in out


def test_card_spellings_and_errors(pbn):
    r = run(["play", pbn], input="\u2660a\nxx\nd4\nhelp\n")
    assert r.exit_code == 0
    out = r.stdout
    assert re.search(r"North plays \S+A", out)
    assert "unknown card 'xx'" in out
    assert "illegal play D4" in out          # West's card, East is on turn
    assert "'undo' takes a move back" in out
    # end of input ends the session quietly
    assert "Traceback" not in out + r.stderr


def test_undo_at_the_start(pbn):
    r = run(["play", pbn], input="undo\nq\n")
    assert r.exit_code == 0
    assert "Nothing to undo" in r.stdout


def test_board_option_and_jokers(pbn):
    # Board 2, hearts trump: the big joker is the top trump, both tricks N-S.
    r = run(["play", "--board", "2", pbn], input="jh\nquit\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Board 2" in out
    assert results(out)[0] == (2, 0)
    assert "North plays JH" in out
    # the same board at no-trump: the joker never wins
    r = run(["play", "--board", "2", "--trump", "NT", pbn], input="jh\nquit\n")
    rows = value_rows(r.stdout)
    assert rows[0] == (1, ["SA"]) and rows[1] == (0, ["JH"])
    assert "a mistake, N-S lose 1 trick" in r.stdout


@pytest.mark.parametrize("wanted", ["\u00b2", "\u0663", "0", "99",   # '²', Arabic-Indic 3
                                    pytest.param("9" * 5000, id="5000 digits")])
def test_board_option_not_a_board(pbn, wanted):
    """(5,000 digits: more than int() converts by default.)"""
    r = run(["play", "--board", wanted, pbn], input="quit\n")
    assert r.exit_code == 2
    assert f"no board {wanted[:40]!r}"[:-1] in r.stderr and "internal error" not in r.stderr


def test_play_section_is_replayed(tmp_path):
    p = tmp_path / "p.pbn"
    p.write_text(f'[Board "1"]\n[Deal "{TWO}"]\n[Trump "NT"]\n[Leader "N"]\n'
                 '[Play "N"]\nSA SK - -\n*\n')
    r = run(["play", str(p)], input="undo\nquit\n")
    assert r.exit_code == 0
    out = r.stdout
    assert "South to play" in out
    # the cards of the Play section cannot be taken back
    assert "Nothing to undo" in out


def test_bad_input(tmp_path, pbn):
    r = run(["play", "--board", "9", pbn], input="quit\n")
    assert r.exit_code == 2
    assert "no board '9'" in r.stderr
    r = run(["play", str(tmp_path / "missing.pbn")], input="quit\n")
    assert r.exit_code == 2
    assert "missing.pbn" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:A2... A..2. ...32 ..43."]\n[Trump "NT"]\n[Leader "N"]\n')
    r = run(["play", str(bad)], input="quit\n")
    assert r.exit_code == 2
    assert "board 1" in r.stderr and "SA" in r.stderr


def test_an_endless_input_line_ends_the_play(pbn):
    # (as from /dev/zero: no end of line ever comes; the line is not read
    # whole, so memory stays small)
    r = run(["play", pbn], input="SA\n" + "x" * 5000 + "\nquit\n")
    assert r.exit_code == 2
    assert "an input line longer than 1000 characters" in r.stderr
    assert "Traceback" not in r.stderr
    # a move, then a line just under the limit, is an unknown card, not an error
    r = run(["play", pbn], input="SA\n" + "x" * 900 + "\nquit\n")
    assert r.exit_code == 0, r.stderr
    # and so is a line of exactly the limit (its end of line not counted);
    # the card echoed is cut
    r = run(["play", pbn], input="SA\n" + "x" * 1000 + "\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "unknown card '" + "x" * 60 + "\u2026'" in r.stdout


# --------------------------------------------------------------------------
# The screen: 80 x 24, the message kept, the kitty, --auto-forced, the summary.


def _screens(out):
    """The screens of a session: the text from one board line to the next."""
    parts = re.split(r"(?m)^(?=Board \d)", out)
    return [p for p in parts if p.startswith("Board")]


def test_screen_fits_80_by_24(tmp_path):
    from support import ROOT
    example = str(ROOT / "examples" / "deal.pbn")
    # (with --auto-forced the last screen held four forced cards' messages,
    # the summary and a two-line end: 25 lines)
    for board, more in (("1", []), ("3", []), ("4", []), ("1", ["--auto-forced"]),
                        ("3", ["--auto-forced"]), ("4", ["--auto-forced"])):
        r = run(["play", example, "--board", board, *more], input="\n" * 60 + "quit\n")
        assert r.exit_code == 0, r.stderr
        screens = _screens(r.stdout)
        assert len(screens) > 3
        for screen in screens:
            lines = screen.rstrip("\n").split("\n")
            # the screen, its message and the prompt line
            assert len(lines) <= 23, (board, screen)
            assert all(len(ln) <= 80 for ln in lines), (board, screen)
            assert "Trump" in lines[0] or "No-trump" in lines[0]
            for seat in ("North", "East", "South", "West"):
                assert seat in screen


def test_mistake_message_stays_on_the_next_screen(pbn):
    r = run(["play", pbn], input="s2\nquit\n")
    screens = _screens(r.stdout)
    assert "a mistake, N-S lose 2 tricks" in screens[-1]
    # the trick so far: North's S2 in the middle of the table
    assert re.search(r"^\s+\S+2\s*$", screens[-1], re.M)


def test_kitty_shown_in_bid_whist():
    from support import ROOT
    r = run(["play", str(ROOT / "examples" / "deal.pbn"), "--board", "3"], input="quit\n")
    first = _screens(r.stdout)[0]
    kitty = next(ln for ln in first.splitlines() if ln.startswith("Kitty"))
    assert "J5" in kitty and "A962" in kitty


def test_auto_forced(pbn):
    # After SA, East holds SK D2 and must follow with SK: played for him.
    r = run(["play", "--auto-forced", pbn], input="sa\nquit\n")
    out = r.stdout
    # ("(forced)" names the card, not the trick it wins)
    assert re.search(r"East plays \S+K \(forced\) \(E-W", out)
    assert "South to play" in out and "East to play" not in out
    # undo takes back the forced card and the user's card before it
    r = run(["play", "--auto-forced", pbn], input="sa\nundo\nquit\n")
    screens = _screens(r.stdout)
    assert "Took back" in screens[-1] and screens[-1].count("Took back") == 2
    assert re.search("North(\u25b8|>)", screens[-1])             # North on turn again
    assert results(screens[-1]) == [(2, 0)]


def test_undo_of_forced_cards_alone(tmp_path):
    """With --auto-forced, a loaded position whose next cards are all
    forced has nothing to undo: taking them back played them again at
    once ("Took back" twice, then the same two cards)."""
    p = tmp_path / "f.pbn"
    p.write_text('[Board "f"]\n[Deal "N:AK... Q.2.. J.3.. .45.."]\n[Trump "NT"]\n'
                 '[Leader "N"]\n[Play "N"]\nSA - - -\n*\n')
    r = run(["play", "--auto-forced", str(p)], input="undo\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "Nothing to undo" in r.stdout and "Took back" not in r.stdout
    assert r.stdout.count("East plays") == 1


def test_messages_for_a_card_not_held_and_the_emoji_suit(pbn):
    """A card the seat on turn does not hold says where it is: another
    hand, this trick, or nowhere; a suit symbol in its emoji form (with
    U+FE0F) is read; a hint with one trick left says "1 trick"."""
    r = run(["play", pbn], input="\u2660\ufe0fa\nsa\nd4\nhk\n")
    out = r.stdout
    assert re.search(r"North plays \S+A", out)
    assert "illegal play SA: E is on turn and N played it to this trick" in out
    assert "illegal play D4: E is on turn and it is held by W" in out
    assert "illegal play HK: E is on turn and nobody holds it" in out
    r = run(["play", pbn], input="\n\n\n\nhint\nquit\n")
    assert "take 1 of the 1 trick from here" in r.stdout


@pytest.mark.parametrize("board, goal, end", [
    ("1", "Goal N-S 9 (contract 3NT by S: 9 tricks)",
     "Contract 3NT by S: 9 tricks; N-S took 11 tricks (9 needed): made with 2 overtricks."),
    # bid whist: the kitty is the bidder's side's first book (SPEC §1)
    ("3", "Goal N-S 9 (contract 4S by S: 10 books, the Kitty counted as the bidder's discard)",
     "Contract 4S by S: 10 books, the Kitty counted as the bidder's discard; N-S took 8 tricks (9 needed): down 1.")])
def test_a_contract_is_the_goal_as_in_puzzles(board, goal, end):
    """Without a Goal tag the contract is the goal, counted as puzzles
    counts it (bid whist took no account of the kitty's book or the
    contract); at the end the contract is made or down."""
    from support import ROOT
    r = run(["play", str(ROOT / "examples" / "deal.pbn"), "--board", board],
            input="\n" * 60 + "quit\n")
    assert r.exit_code == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert goal in out and end in out


def test_summary_on_quit_and_at_the_end(pbn):
    r = run(["play", pbn], input="s2\nquit\n")
    out = r.stdout
    assert "Summary: 1 card played" in out
    assert "Mistakes: 1: N S2 at trick 1 (-2)" in out
    assert "Tricks lost: N-S 2, E-W 0" in out
    r = run(["play", pbn], input="\n" * 8 + "quit\n")
    out = r.stdout
    assert "Summary: N-S 2, E-W 0" in out and "Mistakes: 0" in out
    assert out.count("Summary:") == 1


def test_help_without_suit_symbols_on_an_ascii_stream(pbn):
    import os
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "play", pbn],
                       input=b"xx\nquit\n", capture_output=True, timeout=120,
                       env=dict(os.environ, PYTHONIOENCODING="ascii", COLUMNS="200"))
    out = p.stdout.decode("ascii")
    assert "Type a card (SA, sa, S10, JH)" in out
    assert "?A" not in out


def test_a_whole_classic_whist_deal_ends_with_its_score(tmp_path):
    """Classic whist (no bid): at the end of the 13 tricks, the side with
    more tricks scores tricks - 6 (nothing said before); a board with a
    contract ends with the contract's verdict instead."""
    p = tmp_path / "c.pbn"
    p.write_text('[Board "c"]\n[Variant "classic"]\n[Trump "H"]\n[Leader "W"]\n'
                 '[Deal "N:AK32.Q94.T83.K72 QJT9.K872.A5.AJ6 8765.AJ.KQJ7.T54 '
                 '4.T653.9642.Q983"]\n')
    r = run(["play", str(p)], input="\n" * 60 + "quit\n")
    assert r.exit_code == 0, r.stderr
    out = " ".join(r.stdout.split())
    m = re.search(r"Summary: N-S (\d+), E-W (\d+)", out)
    ns, ew = int(m.group(1)), int(m.group(2))
    side, got = ("N-S", ns) if ns > ew else ("E-W", ew)
    assert f"Classic whist: {side} took {got} of 13 tricks and score {got - 6} point" in out
    from support import ROOT
    r = run(["play", str(ROOT / "examples" / "deal.pbn"), "--board", "1"], input="\n" * 60 + "quit\n")
    assert "Classic whist:" not in r.stdout


def test_a_recorded_hand_played_again_from_the_start_or_from_a_trick():
    # examples/played.pbn records every trick: play showed only "the play
    # is over"; --from-lead starts at the opening lead, --after-trick N
    # after N of the recorded tricks (as solve)
    from support import ROOT
    path = str(ROOT / "examples" / "played.pbn")
    r = run(["play", path, "--from-lead"], input="quit\n")
    assert r.exit_code == 0, r.stderr
    assert "Tricks won: N-S 0, E-W 0." in r.stdout and "play is over" not in r.stdout
    r = run(["play", path, "--after-trick", "3"], input="quit\n")
    assert r.exit_code == 0, r.stderr
    assert "Tricks won: N-S 3, E-W 0." in r.stdout
    r = run(["play", path, "--from-lead", "--after-trick", "3"], input="quit\n")
    assert r.exit_code == 2
    r = run(["play", path, "--after-trick", "14"], input="quit\n")
    assert r.exit_code == 2 and "cannot stop after trick 14" in r.stderr


def test_board_labels_match_as_in_the_batch_commands(tmp_path):
    # '7' takes a board tagged '07', 'BAD' one tagged 'bad', as --board of
    # solve does; play compared the label as written
    p = tmp_path / "labels.pbn"
    p.write_text(TEXT.replace('[Board "1"]', '[Board "07"]').replace('[Board "2"]', '[Board "bad"]'))
    for wanted, label in (("7", "07"), ("BAD", "bad"), ("07", "07"), ("2", "bad")):
        r = run(["play", "--board", wanted, str(p)], input="quit\n")
        assert r.exit_code == 0, (wanted, r.stderr)
        assert r.stdout.lstrip().startswith(f"Board {label}"), wanted


def test_trump_or_ranking_replaying_the_play_is_warned_of(tmp_path):
    p = tmp_path / "p.pbn"
    p.write_text(f'[Board "1"]\n[Deal "{TWO}"]\n[Trump "NT"]\n[Leader "N"]\n'
                 '[Play "N"]\nSA SK - -\n*\n')
    r = run(["play", "--trump", "D", str(p)], input="quit\n")
    assert r.exit_code == 0, r.stderr
    assert "the recorded play is replayed with --trump D: a position the table never had" \
        in r.stderr
    for args in (["--from-lead", "--trump", "D"], ["--trump", "NT"]):
        r = run(["play", *args, str(p)], input="quit\n")
        assert r.exit_code == 0 and "replayed" not in r.stderr, args


def test_a_board_from_standard_input_reads_its_moves_from_the_terminal():
    # with no terminal, said at once; it showed a screen and ended, status 0,
    # as if the moves had been given
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "play", "-"], input=TEXT,
                       capture_output=True, text=True, start_new_session=True)
    assert r.returncode == 2, r.stderr
    assert "there is no terminal to read the moves from: give the file's name" in r.stderr
    assert "Board" not in r.stdout


def test_a_board_from_standard_input_with_a_terminal(tmp_path):
    import os
    import subprocess
    import sys
    master, slave = os.openpty()
    name = os.ttyname(slave)

    def own_terminal():
        os.setsid()
        os.close(os.open(name, os.O_RDWR))      # (the session's controlling terminal)

    p = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", "play", "-", "--board", "1"],
                         stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                         preexec_fn=own_terminal)
    os.close(slave)
    p.stdin.write(TEXT.encode())
    p.stdin.close()
    os.write(master, b"sa\nquit\n")
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert p.wait(timeout=60) == 0
    text = out.decode(errors="replace")
    assert "North plays" in text and "Summary" in text


def test_a_contract_loaded_after_some_tricks_is_counted_over_the_whole_hand():
    # played.pbn: 3NT by S, N-S take 11.  Loaded at its end it said "N-S
    # took 0 tricks (0 needed): made", after trick 10 "took 2 tricks (0
    # needed)": true from the loaded position, but not the contract's count
    from support import ROOT
    path = str(ROOT / "examples" / "played.pbn")
    for args in ([], ["--after-trick", "10"], ["--after-trick", "3"]):
        r = run(["play", path, *args], input="\n" * 40 + "quit\n")
        assert r.exit_code == 0, r.stderr
        flat = " ".join(r.stdout.split())
        assert "Contract 3NT by S: 9 tricks; N-S took 11: made with 2 overtricks." in flat, args
    # from the lead, a trick thrown away: down or made, counted the same way
    r = run(["play", path, "--from-lead"], input="\n" * 60 + "quit\n")
    assert "Contract 3NT by S: 9 tricks; N-S took 11 tricks (9 needed): made with 2 overtricks." in \
        " ".join(r.stdout.split())


def test_standard_input_that_cannot_be_read_is_named(tmp_path, pbn):
    import subprocess
    import sys
    sink = tmp_path / "sink"
    with open(sink, "w") as write_only:
        r = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "play", pbn],
                           stdin=write_only, capture_output=True, text=True)
    assert r.returncode == 2
    assert "error: cannot read the moves from standard input: Bad file descriptor" in r.stderr


def test_the_big_joker_typed_for_the_jack_of_hearts(tmp_path):
    # 'JH' is the big joker; in a deal without jokers, typed for the jack
    # of hearts, it was "not in this deal" where 'JD' gets "suit first: DJ"
    p = tmp_path / "j.pbn"
    p.write_text('[Board "1"]\n[Deal "N:.J.. .Q.. .K.. .A.."]\n[Trump "NT"]\n[Leader "N"]\n')
    r = run(["play", str(p)], input="jh\nquit\n")
    assert "no joker is in play; the jack of hearts is HJ" in " ".join(r.stdout.split())


def test_a_goal_tag_end_line_says_it_counts_from_the_loaded_position(tmp_path):
    # N-S won the played trick before the loaded position: the score says
    # N-S 2 at the end, the goal of 1 counts the one trick from there
    p = tmp_path / "g.pbn"
    p.write_text('[Board "1"]\n[Deal "N:AK... QJ... 32... T9..."]\n[Trump "NT"]\n[Leader "W"]\n'
                 '[Goal "NS 1"]\n[Play "W"]\nS9 SA SJ S3\n*\n')
    r = run(["play", str(p)], input="\n\n\n\n\n")
    assert r.exit_code == 0, r.stderr
    assert "The play is over: N-S 2, E-W 0" in r.stdout
    assert "Goal N-S 1 (from the loaded position): N-S took 1 from there, reached." in r.stdout
