"""``--board``: the batch commands run only the boards asked for, named as
the output names them (the Board tag, else the position in the file).

(a) the library's selection: labels, ranges, lists, a value that is a label
    of its own, case and spaces, and the malformed values it refuses;
(b) each batch command answers exactly the boards asked for, the same as
    those boards' answers in a run of the whole file;
(c) a bad board not asked for is not reported; one asked for is;
(d) an item that finds no board is an error naming it and the boards there
    are (exit 2), the boards found still answered;
(e) an empty value is a usage error before any file is read; an item
    that cannot be read (a backwards range) is still a label, and says why
    when it finds no board.
"""
from __future__ import annotations

import pytest

from whist_solve.errors import WhistError
from whist_solve.selection import BoardSelection

from support import TEST_DATA
from support.cli_run import board, json_lines, run

EXAMPLES = TEST_DATA.parent.parent / "examples"
BAD = str(TEST_DATA / "bad.pbn")
WHIST = str(TEST_DATA / "whist.pbn")


def _picked(values, labels):
    sel = BoardSelection(values)
    return [label for label, chosen in zip(labels, sel.pick(labels)) if chosen], sel.unmatched()


def test_labels_ranges_and_lists():
    labels = ["1", "2", "3", "07", "9", "10", "lead", "Round 1-2", "A,B"]
    assert _picked(["3"], labels) == (["3"], [])
    assert _picked(["7"], labels) == (["07"], [])            # a number matches the number
    assert _picked(["3-9"], labels) == (["3", "07", "9"], [])
    assert _picked(["1,9-10", "LEAD"], labels) == (["1", "9", "10", "lead"], [])
    assert _picked([" lead ", "round  1-2"], labels) == (["lead", "Round 1-2"], [])
    # a value that is a board's label takes that board only, and its
    # items finding nothing is then no error
    assert _picked(["A,B"], labels) == (["A,B"], [])
    assert _picked(["A,B"], ["A", "A,B", "B"]) == (["A,B"], [])
    assert _picked(["A,B"], ["A", "B"]) == (["A", "B"], [])
    assert _picked(["Round 1-2", "4", "11-12"], labels) == (["Round 1-2"],
                                                              [("4", None), ("11-12", None)])
    # a range is of numbers: 1-2 takes boards 1 and 2, unless a board is named "1-2"
    assert _picked(["1-2"], ["1", "2", "12"]) == (["1", "2"], [])
    assert _picked(["1-2"], ["1", "2", "1-2", "12"]) == (["1-2"], [])
    # Unicode's two spellings of an accented letter are one label; digits
    # other than ASCII's are letters
    assert _picked(["U\u0308ber"], ["\u00dcber", "\u0663"]) == (["\u00dcber"], [])
    assert _picked(["\u0663"], ["3", "\u0663"]) == (["\u0663"], [])


@pytest.mark.parametrize("value, labels, problem", [
    ("5-3", ["5-3"], None),                       # a label of its own
    ("5-3", ["3", "4", "5"], "a backwards range: write 3-5"),
    ("1,,2", ["1", "2"], "an empty item: items are separated by single commas"),
    ("A,", ["A,"], None),
    ("1-" + "9" * 13, ["1"], "a number of more than 12 digits"),
    ("20240314-1234567890123", ["20240314-1234567890123"], None),
])
def test_an_item_that_cannot_be_read_is_still_a_label(value, labels, problem):
    picked, missing = _picked([value], labels)
    if problem is None:
        assert picked == labels and missing == []
    else:
        assert problem in [why for _, why in missing]


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_value_is_refused(value):
    with pytest.raises(WhistError, match="an empty value"):
        BoardSelection([value])


def _answers(result):
    return {o["board"]: o for o in json_lines(result)}


@pytest.mark.parametrize("command, path, pick, extra", [
    ("solve", WHIST, "2", []),
    ("table", WHIST, "1,3-4", []),
    ("puzzles", str(EXAMPLES.parent / "puzzles" / "classic.pbn"), "2-3", []),
    ("review", "two played", "2", []),
    ("bid", str(EXAMPLES / "bidwhist.pbn"), "2", []),
    ("check", str(EXAMPLES / "bidwhist.pbn"), "1", ["--contract", "1S", "--bidder", "S"]),
    ("simulate", str(EXAMPLES / "simulate.pbn"), "Lead", ["-n", "8", "--seed", "3"]),
])
def test_each_batch_command_answers_the_boards_asked_for(command, path, pick, extra):
    text = None
    if path == "two played":
        # the played example twice, the second time as board 2
        played = (EXAMPLES / "played.pbn").read_text()
        text = played + "\n" + played.replace('[Board "1"]', '[Board "2"]')
        path = "-"
    whole = run([command, "--json", *extra, path], input=text)
    assert whole.exit_code in (0, 1), whole.stderr
    picked = run([command, "--json", "--board", pick, *extra, path], input=text)
    assert picked.exit_code in (0, 1), picked.stderr
    every = _answers(whole)
    sel = BoardSelection([pick])
    want = [label for label, chosen in zip(every, sel.pick(list(every))) if chosen]
    assert want and len(want) < len(every)
    got = _answers(picked)
    assert list(got) == want
    for label in want:
        assert got[label] == every[label]


def test_a_bad_board_not_asked_for_is_not_reported():
    r = run(["table", "--json", "--board", "1", BAD])
    assert r.exit_code == 0, r.stderr
    assert list(_answers(r)) == ["1"]
    assert "error:" not in r.stderr and "0 errors" in r.stderr
    r = run(["table", "--json", "--board", "1,2", BAD])
    assert r.exit_code == 2
    assert list(_answers(r)) == ["1"]
    assert "board 2" in r.stderr and "board 3" not in r.stderr


def test_an_item_that_finds_no_board_is_an_error_the_rest_answered():
    r = run(["table", "--json", "--board", "2", "--board", "99,x", WHIST])
    assert r.exit_code == 2
    assert list(_answers(r)) == ["2"]
    assert "--board '99': no such board (boards: 1, 2, 3, 4, 5)" in r.stderr
    assert "--board 'x': no such board" in r.stderr
    # each counts as an error
    assert "1 board tabulated, 2 errors" in r.stderr
    # found in one of two files: no error
    text = board("x", "N:A... K... Q... J...", '[Trump "NT"]', '[Leader "N"]')
    r = run(["solve", "--json", "--board", "x", WHIST, "-"], input=text)
    assert r.exit_code == 0, r.stderr
    assert [o["board"] for o in json_lines(r)] == ["x"]
    # many: the first 20 said, the rest counted
    r = run(["table", "--strain", "NT", "--board", ",".join(map(str, range(100, 140))), WHIST])
    assert r.exit_code == 2
    assert r.stderr.count("no such board") == 20
    assert "... and 20 more --board items found no board" in r.stderr
    assert r.stderr.rstrip().endswith("errors in " + r.stderr.rstrip().rsplit(" in ", 1)[1])
    assert "0 boards tabulated, 40 errors" in r.stderr
    # the same item twice: two errors
    r = run(["table", "--board", "99", "--board", "99", WHIST])
    assert r.stderr.count("no such board") == 2 and "0 boards tabulated, 2 errors" in r.stderr
    # --board's errors are said whatever the file's own errors (the file's
    # cap of 20 messages took them in)
    bad = "".join(board(str(i), "N:AK... QJ... T9... 87..", '[Trump "NT"]', '[Leader "W"]')
                  for i in range(1, 6))
    r = run(["table", "--board", "1-5," + ",".join(map(str, range(100, 123))), "-"], input=bad)
    assert r.stderr.count("no such board") == 20 and r.stderr.count("bad hand for W") == 5
    assert "... and 3 more --board items found no board" in r.stderr
    assert "0 boards tabulated, 28 errors" in r.stderr
    # a file that cannot be read is its own error, not also a board not found
    r = run(["table", "--board", "3", "no-such-file.pbn"])
    assert r.exit_code == 2 and "no such board" not in r.stderr


def test_an_empty_value_is_a_usage_error():
    r = run(["table", "--board", " ", "no-such-file.pbn"])
    assert r.exit_code == 2
    assert "an empty value" in r.stderr
    assert "no-such-file" not in r.stderr


def test_puzzles_counts_the_items_that_find_no_board():
    r = run(["puzzles", "--board", "99", str(EXAMPLES.parent / "puzzles" / "bidwhist.pbn")])
    assert r.exit_code == 2
    assert r.stderr.rstrip().splitlines()[-1].startswith("0 solved, 0 failed, 1 error")


def test_a_team_files_repeated_labels_are_told_apart():
    """A team event's file has each board twice (one per room): messages
    and titles add the board's place in the file to a shared label, and
    the list of labels names each once."""
    good = "N:A... K... Q... J..."
    text = (board("1", good, '[Room "Open"]', '[Trump "NT"]', '[Leader "W"]')
            + board("2", good, '[Trump "NT"]', '[Leader "W"]')
            + board("1", "N:AK... Q... J... T...", '[Room "Closed"]', '[Trump "NT"]', '[Leader "W"]'))
    r = run(["table", "--board", "1,9", "-"], input=text)
    assert r.exit_code == 2
    assert "error: <stdin>: board 1 (3rd in the file): unequal hands" in r.stderr
    assert "board 1 (1st in the file)" not in r.stderr          # the good one is answered
    assert "Board 1 (1st in the file)  <stdin>" in r.stdout
    assert "--board '9': no such board (boards: 1, 2)" in r.stderr
    # a label of its own is named as before
    r = run(["table", "-"], input=text.replace('[Board "1"]\n[Deal "N:AK', '[Board "3"]\n[Deal "N:AK'))
    assert "error: <stdin>: board 3: unequal hands" in r.stderr
    assert "Board 1  <stdin>" in r.stdout and "in the file" not in r.stdout + r.stderr


def test_the_labels_of_a_long_team_file_are_cut_after_their_repeats_go():
    # 25 boards played twice: the list of labels was cut at 21 names before
    # the repeats went, and showed "1, ..., 11" with no "..." after it
    good = "N:A... K... Q... J..."
    text = "".join(board(str(i), good, '[Trump "NT"]', '[Leader "W"]')
                   for _ in range(2) for i in range(1, 26))
    r = run(["table", "--json", "--board", "99", "-"], input=text)
    assert "(boards: " + ", ".join(str(i) for i in range(1, 21)) + ", ...)" in r.stderr
