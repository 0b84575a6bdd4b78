"""``--html FILE`` of solve, table and puzzles: one well-formed,
self-contained page (no script, no network) with the hands, the values and
the line, checked with Python's HTML parser."""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support import ROOT
from support.cli_run import json_lines, run

EXAMPLE = str(ROOT / "examples" / "deal.pbn")
PUZZLES = str(ROOT / "puzzles" / "classic.pbn")
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


class Page(HTMLParser):
    """Checks that every element is closed in order; keeps the text, the
    tags and the attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.problems = []
        self.tags = []
        self.attrs = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(path):
    raw = Path(path).read_text(encoding="utf-8")
    p = Page()
    p.feed(raw)
    p.close()
    assert not p.problems, p.problems[:5]
    assert p.stack == [], p.stack
    assert raw.startswith("<!DOCTYPE html>")
    # self-contained: no script, no link, nothing fetched from anywhere
    assert "script" not in p.tags and "link" not in p.tags and "img" not in p.tags
    assert not re.search(r"https?://", raw)
    assert not any(k in ("src", "href") for k, _v in p.attrs)
    assert "<style>" in raw and "@media print" in raw
    p.raw = raw
    p.all_text = " ".join(" ".join(p.text).split())
    return p


def hand_lines(hand_pbn):
    """'AK3.QJ9..T2' -> ['♠ AK3', '♥ QJ9', '♦ —', '♣ T2'] (sorted as the page shows)."""
    order = "AKQJT98765432"
    out = []
    for s, ranks in zip("SHDC", hand_pbn.split(".")[:4]):
        r = "".join(sorted(ranks.upper(), key=order.index))
        out.append(f"{SYMBOLS[s]} {r or chr(0x2014)}")
    return out


def _run_html(tmp_path, name, args):
    """Run ``args`` with ``--json --html tmp_path/name``: it succeeds; its
    JSON lines and the parsed page."""
    page_path = tmp_path / name
    r = run(args + ["--json", "--html", str(page_path)])
    assert r.exit_code == 0, r.stderr
    return json_lines(r), parse(page_path)


def test_solve_html(tmp_path):
    objs, p = _run_html(tmp_path, "solve.html", ["solve", EXAMPLE])
    # the red suits are red
    assert re.search(r"\.h, \.d \{ color: #c00", p.raw)
    for obj in objs:
        assert f"Board {obj['board']}" in p.all_text
    # board 1: the full deal, every hand in the diagram; each card's value
    first = objs[0]
    hands = first["deal"].split(":")[1].split()
    for h in hands:
        for line in hand_lines(h):
            assert line in p.all_text, line
    for c, n in first["cards"].items():
        assert f"{SYMBOLS[c[0]]}{c[1]}" in p.all_text
    # the line, trick by trick: every card of it appears in the line table
    line_html = p.raw.split("One best line")[1].split("</table>")[0]
    for c in first["line"]:
        assert f"{c[1]}</span>" in line_html
    assert line_html.count("<tr>") == len(first["line"]) // 4 + 1


def test_table_html(tmp_path):
    objs, p = _run_html(tmp_path, "table.html", ["table", EXAMPLE, "--ranking", "both"])
    assert "uptown" in p.all_text and "downtown" in p.all_text
    # every value of the first board's table, in the order of the page
    body = p.raw.split("Board <bdi>1</bdi>")[1].split("<section")[0]
    cells = [int(x) for x in re.findall(r"<td>(\d+)</td>", body)]
    t = objs[0]["table"]
    want = [t[s][r][seat] for r in ("up", "down") for seat in "NESW" for s in t]
    assert cells == want
    # the bid whist board shows its kitty
    assert "Kitty" in p.all_text


def test_puzzles_booklet(tmp_path):
    objs, p = _run_html(tmp_path, "book.html", ["puzzles", PUZZLES])
    text = p.all_text
    # the problems first, then the solutions, on a new page when printed
    assert text.index("Problems") < text.index("Solutions")
    assert ".solutions { break-before: page" in p.raw
    solutions = text[text.index("Solutions"):]
    problems = text[:text.index("Solutions")]
    for k, obj in enumerate(objs, 1):
        assert f"(problem {k})" in problems
        assert f"Solution {k}: board {obj['board']}" in solutions
        side = {"NS": "N-S", "EW": "E-W"}[obj["goal"]["side"]]
        assert f"{side} to take {obj['goal']['tricks']} of the {obj['tricks_left']}" in problems
    # no answer among the problems
    assert "Solved:" not in problems and "Solved:" in solutions


@pytest.mark.parametrize("command,source", [("solve", EXAMPLE), ("table", EXAMPLE),
                                            ("puzzles", PUZZLES)])
def test_html_cannot_write(tmp_path, command, source):
    """A page that cannot be written (no such folder, a directory) is a
    usage error before any board is solved, not a message after all of
    them."""
    for target, problem in [(tmp_path / "no" / "such" / "dir.html", "no directory"),
                            (tmp_path, "it is a directory")]:
        r = run([command, source, "--html", str(target)])
        assert r.exit_code == 2
        said = " ".join(r.stderr.replace("\u2502", " ").split())   # out of its box, unwrapped
        assert "cannot write the HTML page" in said and problem in said
        assert "Traceback" not in r.stderr
        assert r.stdout == ""                      # nothing solved


@pytest.mark.parametrize("command,source", [("solve", EXAMPLE), ("table", EXAMPLE)])
def test_html_cannot_write_a_loop_of_links(tmp_path, command, source):
    (tmp_path / "a.html").symlink_to(tmp_path / "b.html")
    (tmp_path / "b.html").symlink_to(tmp_path / "a.html")
    r = run([command, source, "--html", str(tmp_path / "a.html")])
    assert r.exit_code == 2
    said = " ".join(r.stderr.replace("\u2502", " ").split())
    assert "cannot write the HTML page" in said and "symbolic links" in said
    assert r.stdout == ""


@pytest.mark.parametrize("exists", [False, True])
def test_html_refused_where_writing_fails_whatever_the_permission_bits(tmp_path, monkeypatch,
                                                                        exists):
    """The permission bits do not say everything (a read-only file
    system, sysfs, the superuser): the folder is tried by making and
    removing a file in it, an existing page by opening it for appending,
    before any board is solved (a page in /sys/kernel was refused only
    after the whole run).  Where writing works the probe leaves nothing
    behind and an existing page as it was."""
    import errno

    import whist_solve.cli.options as options
    page = tmp_path / "page.html"
    if exists:
        page.write_text("kept")
    before = sorted(os.listdir(tmp_path))
    assert options.output_problem(str(page)) is None
    assert sorted(os.listdir(tmp_path)) == before
    if exists:
        assert page.read_text() == "kept"

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(options.tempfile, "mkstemp", read_only)
    monkeypatch.setattr(options, "open", read_only, raising=False)
    r = run(["table", EXAMPLE, "--html", str(page)])
    assert r.exit_code == 2
    said = " ".join(r.stderr.replace("\u2502", " ").split())
    assert "cannot write the HTML page" in said and "Read-only file system" in said
    assert r.stdout == ""                          # nothing solved
    if exists:
        assert page.read_text() == "kept"


def test_html_page_of_a_file_whose_name_is_not_utf8(tmp_path):
    """A file name the system gives as bytes that are not UTF-8: the page
    shows it with a replacement character instead of failing (it had left
    an empty page)."""
    import os
    import shutil
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"bad\xffname.pbn")
    shutil.copyfile(os.fsencode(EXAMPLE), name)
    page = tmp_path / "page.html"
    r = run(["solve", os.fsdecode(name), "--json", "--html", str(page)])
    assert r.exit_code == 0, r.stderr
    text = page.read_text(encoding="utf-8")
    assert "bad\ufffdname.pbn" in text


def test_a_page_that_fails_to_be_written_leaves_the_old_one(tmp_path, monkeypatch):
    """The page is written to a file beside it that then takes its name: a
    failure on the way (a full disk) leaves the last good page whole, and
    no file of its own behind."""
    import os
    page = tmp_path / "page.html"
    page.write_text("the old page")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    r = run(["solve", EXAMPLE, "--html", str(page)])
    assert r.exit_code == 2
    assert "cannot write the HTML page" in r.stderr and "No space left on device" in r.stderr
    assert page.read_text() == "the old page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_solve_page_shows_the_kitty_and_a_finished_play(tmp_path):
    page = tmp_path / "page.html"
    r = run(["solve", EXAMPLE, str(ROOT / "examples" / "played.pbn"), "--html", str(page)])
    assert r.exit_code == 0, r.stderr
    text = page.read_text()
    assert text.count("Kitty:") == 1                    # board 3 of the example has one
    assert "<b>The play is over:</b> N-S took 11, E-W 2." in text


def test_solve_page_says_what_the_header_says_of_the_contract(tmp_path):
    # the page never showed the contract, nor that an option set it aside
    played = str(ROOT / "examples" / "played.pbn")
    for options, said in ((["--after-trick", "3"], "Contract 3NT by S."),
                          ([], "Contract 3NT by S."),          # the play over
                          (["--after-trick", "2", "--trump", "H"],
                           "Contract 3NT by S set aside (--trump H)."),
                          (["--from-lead", "--leader", "N"],
                           "Contract 3NT by S set aside (--leader N).")):
        page = tmp_path / "page.html"
        r = run(["solve", played, *options, "--html", str(page)])
        assert r.exit_code == 0, r.stderr
        assert f'<p class="facts">{said}</p>' in page.read_text()
        header = " ".join(r.stdout.replace("\u2502", " ").split())
        if options:
            assert said[0].lower() + said[1:-1] in header


def test_a_finished_puzzle_and_the_bad_boards_are_on_the_page(tmp_path):
    """A puzzle whose Play section records every trick is in the booklet
    with its verdict (it was left out, even when it failed); a board that
    cannot be solved is listed in its place ("No boards." was all a page
    of bad boards said)."""
    src = tmp_path / "p.pbn"
    src.write_text('[Board "over"]\n[Deal "N:A... K... 2... 3..."]\n[Trump "NT"]\n[Leader "N"]\n'
                   '[Goal "NS 1"]\n[Play "N"]\nSA SK S2 S3\n*\n'
                   '[Board "bad"]\n[Deal "N:A... A... 2... 3..."]\n[Trump "NT"]\n[Leader "N"]\n'
                   '[Goal "NS 1"]\n'
                   '[Board "fine"]\n[Deal "N:A.2.. K.3.. 2.A.. 3.4.."]\n[Trump "NT"]\n'
                   '[Leader "N"]\n[Goal "NS 1"]\n')
    page_path = tmp_path / "b.html"
    r = run(["puzzles", str(src), "--json", "--html", str(page_path)])
    assert r.exit_code == 2
    assert [o["board"] for o in json_lines(r)] == ["over", "fine"]
    text = parse(page_path).all_text
    problems, solutions = text.split("Solutions", 1)
    assert "Board over (problem 1)" in problems and "The play is over: N-S took 1, E-W 0." in problems
    assert "N-S to take 1 more trick." in problems
    assert "Not solved:" in problems and "board bad" in problems
    assert "Board fine (problem 2)" in problems
    assert "Solution 1: board over The goal fails: no trick is left, and N-S needed 1 more." in solutions
    assert "Solution 2: board fine" in solutions
    r = run(["solve", str(src), "--html", str(page_path)])
    text = parse(page_path).all_text
    assert text.count("Not solved:") == 1 and "board bad" in text


def test_bad_boards_only_say_so(tmp_path):
    src = tmp_path / "bad.pbn"
    src.write_text('[Board "1"]\n[Deal "N:A... A... 2... 3..."]\n')
    page_path = tmp_path / "p.html"
    assert run(["table", str(src), "--html", str(page_path)]).exit_code == 2
    text = parse(page_path).all_text
    assert "No boards solved." in text and "Not solved:" in text


def test_the_page_is_not_written_over_the_standard_input_s_file(tmp_path):
    """`solve - --html x.pbn < x.pbn` replaced the PBN by the page."""
    import subprocess
    import sys
    src = tmp_path / "x.pbn"
    src.write_text(Path(EXAMPLE).read_text())
    before = src.read_bytes()
    with open(src, "rb") as stdin:
        r = subprocess.run([sys.executable, "-c", "from whist_solve.cli.main import main; main()",
                            "solve", "-", "--html", str(src)], stdin=stdin, capture_output=True,
                           text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert "it is the input file (the standard input)" in " ".join(r.stderr.replace("\u2502", " ").split())
    assert src.read_bytes() == before


def test_a_fifo_page_reaches_its_reader_whole(tmp_path):
    """--html naming a FIFO: the check before the run no longer opens it
    (its open and close gave the reader an end of file, and the page then
    waited for a reader that had gone)."""
    import threading
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(Path(fifo).read_bytes()), daemon=True)
    reader.start()
    r = run(["solve", EXAMPLE, "--html", str(fifo)])
    reader.join(30)
    assert r.exit_code == 0, r.stderr
    assert not reader.is_alive() and got and got[0].startswith(b"<!DOCTYPE html>")
    assert got[0].rstrip().endswith(b"</html>")


_SIGTERM_WHILE_WRITING = """
import os, signal, sys, time
import whist_solve.files as files
def stop():          # (asked for between the page's writing and its renaming)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    return 0o022
files._umask = stop
from whist_solve.cli.entry import main
sys.argv = ["whist-solve", "solve", sys.argv[1], "--html", sys.argv[2]]
main()
"""


def test_sigterm_while_the_page_is_written_leaves_no_temporary_file(tmp_path):
    import subprocess
    import sys
    page_path = tmp_path / "page.html"
    r = subprocess.run([sys.executable, "-c", _SIGTERM_WHILE_WRITING, EXAMPLE, str(page_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 143, r.stderr
    assert "terminated (SIGTERM)" in r.stderr
    assert os.listdir(tmp_path) == []


def test_the_page_s_line_counts_tricks_from_the_solved_position(tmp_path):
    # board 4 of the example: E-W won trick 1 before the position; the
    # page's running counts included it ("4 2" at the end, under a heading
    # of N-S 4, E-W 1), the terminal's and the JSON's do not
    text = (ROOT / "examples" / "deal.pbn").read_text().split("\n\n")
    b4 = next(g for g in text if '[Board "4"]' in g)
    src = tmp_path / "b4.pbn"
    src.write_text(b4 + "\n")
    page = tmp_path / "b4.html"
    r = run(["solve", str(src), "--html", str(page)])
    assert r.exit_code == 0, r.stderr
    (obj,) = json_lines(run(["solve", "--json", str(src)]))
    line = page.read_text().split('<table class="line">')[1].split("</table>")[0]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in line.split("<tr>")[2:]]
    assert rows[-1][-2:] == [str(obj["ns_tricks"]), str(obj["ew_tricks"])]
    assert obj["won"] == {"NS": 0, "EW": 1}


def test_table_page_shows_the_par(tmp_path):
    # the terminal, JSON and CSV gave the par; the page did not
    page = tmp_path / "t.html"
    bridge = str(ROOT / "tests" / "data" / "bridge_export.pbn")
    r = run(["table", bridge, "--html", str(page)])
    assert r.exit_code == 0, r.stderr
    text = page.read_text()
    objs = {o["board"]: o for o in json_lines(run(["table", "--json", bridge]))}
    shown = re.findall(r'<p class="facts">(Par [^<]*)</p>', text)
    assert len(shown) == 3
    for label, line in zip(("1", "2", "3"), shown):
        assert line.startswith(f"Par {objs[label]['par']['score']:+d}: ")
        assert "dealer" in line and "vulnerable" in line


def test_a_shared_label_has_its_place_in_the_page(tmp_path):
    # the two rooms of a team file: "Board 1" twice in the page before
    from support.cli_run import board, run
    good = "N:A... K... Q... J..."
    text = board("1", good, '[Trump "NT"]', '[Leader "W"]') * 2
    page = tmp_path / "t.html"
    r = run(["table", "--html", str(page), "-"], input=text)
    assert r.exit_code == 0, r.stderr
    html = page.read_text()
    assert "<bdi>1</bdi> (1st in the file)" in html and "<bdi>1</bdi> (2nd in the file)" in html
