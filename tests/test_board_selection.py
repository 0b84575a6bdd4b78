"""``--board``: the batch commands run only the boards asked for, named as
the output names them (the Board tag, else the position in the file).

(a) the library's selection: labels, ranges, lists, a value that is a label
    of its own, case and spaces, and the malformed values it refuses;
(b) each batch command answers exactly the boards asked for, the same as
    those boards' answers in a run of the whole file;
(c) a bad board not asked for is not reported; one asked for is;
(d) an item that finds no board is an error naming it and the boards there
    are (exit 2), the boards found still answered;
(e) a malformed value is a usage error before any file is read.
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
    return [label for label in labels if sel.matches(label)], sel.unmatched()


def test_labels_ranges_and_lists():
    labels = ["1", "2", "3", "07", "9", "10", "lead", "Round 1-2", "A,B"]
    assert _picked(["3"], labels) == (["3"], [])
    assert _picked(["3-9"], labels) == (["3", "07", "9"], [])
    assert _picked(["1,9-10", "LEAD"], labels) == (["1", "9", "10", "lead"], [])
    assert _picked([" lead ", "round  1-2"], labels) == (["lead", "Round 1-2"], [])
    # a value that is a label of its own takes that board, and its items
    # finding nothing is then no error
    assert _picked(["A,B"], labels) == (["A,B"], [])
    assert _picked(["Round 1-2", "4", "11-12"], labels) == (["Round 1-2"], ["4", "11-12"])
    # a range is of numbers: 1-2 takes boards 1 and 2, and a board named "1-2"
    assert _picked(["1-2"], ["1", "2", "1-2", "12"]) == (["1", "2", "1-2"], [])


@pytest.mark.parametrize("value, said", [
    ("", "an empty value"),
    ("  ", "an empty value"),
    ("1,,2", "an empty item"),
    ("3,", "an empty item"),
    ("5-3", "runs backwards (write 3-5)"),
    ("1-" + "9" * 13, "more than 12 digits"),
])
def test_malformed_values_are_refused(value, said):
    with pytest.raises(WhistError, match=said.replace("(", r"\(").replace(")", r"\)")):
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
    want = [label for label in every if sel.matches(label)]
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
    assert "no board '99' (boards: 1, 2, 3, 4, 5)" in r.stderr
    assert "no board 'x'" in r.stderr
    # found in one of two files: no error
    text = board("x", "N:A... K... Q... J...", '[Trump "NT"]', '[Leader "N"]')
    r = run(["solve", "--json", "--board", "x", WHIST, "-"], input=text)
    assert r.exit_code == 0, r.stderr
    assert [o["board"] for o in json_lines(r)] == ["x"]


def test_a_malformed_value_is_a_usage_error():
    r = run(["table", "--board", "5-3", "no-such-file.pbn"])
    assert r.exit_code == 2
    assert "runs backwards" in r.stderr
    assert "no-such-file" not in r.stderr
