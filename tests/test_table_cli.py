"""``whist-solve table`` for bridge files, and the headers (issue: what
players do with their files).

(a) par: shown under the table and in JSON for 52-card boards with Dealer
    and Vulnerable, equal to the library's par of the table and to DDS's
    par (endplay); none for endings or when a strain is left out;
(b) a passed-out board gets its table and a note; solve names the missing
    trump;
(c) a deal that comes twice (two rooms) is solved once and reported twice;
(d) --csv read back with the csv module; the summary line on stderr;
(e) the headers: both blocks N E S W, 'W to lead', plurals, no stale
    contract after --trump, the jokers row.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from whist_solve.engine import dd_table
from whist_solve.par import par
from whist_solve.pbn import read_pbn, read_pbn_file

from support import TEST_DATA, needs_dds
from support.cli_run import board, json_lines, run

BRIDGE = str(TEST_DATA / "bridge_export.pbn")
WHIST = str(TEST_DATA / "whist.pbn")
SUMMARY = re.compile(r"^(\d+) boards? (tabulated|analysed), (\d+) errors?( \(.*\))? in \d+\.\d\d s$")


def _flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_par_in_json_equals_the_library_par_of_the_table():
    r = run(["table", "--json", BRIDGE])
    assert r.exit_code == 0, r.stderr
    objs = {o["board"]: o for o in json_lines(r)}
    boards = {b.label: b for b in read_pbn_file(BRIDGE)}
    for label in ("1", "2", "3"):
        b = boards[label]
        want = par(dd_table(b.hands), b.dealer(), b.tags["Vulnerable"]).as_json()
        assert objs[label]["par"] == want
    assert objs["1"]["par"]["score"] == -500
    assert objs["1"]["par"]["contracts"][0]["contract"] == "7HX-NS-3"
    assert "par" not in objs["4"]            # a three-card ending
    r = run(["table", "--json", "--strain", "S,H,D,C", BRIDGE])
    assert all("par" not in o for o in json_lines(r))


def test_par_under_the_table():
    r = run(["table", BRIDGE])
    flat = _flat(r.stdout)
    assert "Par -500: 7HX-NS-3 (dealer N, vulnerable None; scores for N-S)" in flat
    assert "Par +430: 3NT-NS+1 (dealer W, vulnerable EW" in flat


@needs_dds
def test_par_equals_dds_par_on_real_boards():
    from endplay.dds import calc_dd_table, par as ep_par
    from endplay.types import Player, Vul
    from support.dds_helpers import make_deal
    vmap = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    denoms = {0: "NT", 1: "S", 2: "H", 3: "D", 4: "C"}
    r = run(["table", "--json", BRIDGE])
    boards = {b.label: b for b in read_pbn_file(BRIDGE)}
    checked = 0
    for obj in json_lines(r):
        if "par" not in obj:
            continue
        b = boards[obj["board"]]
        data = ep_par(calc_dd_table(make_deal(b.hands, "NT", 0)),
                      vmap[b.tags["Vulnerable"]], Player(b.dealer()))._data
        theirs = []
        for i in range(data.number):
            c = data.contracts[i]
            seats = ["N", "S"] if c.seats == 4 else ["E", "W"] if c.seats == 5 else ["NESW"[c.seats]]
            theirs.append((c.level, denoms[c.denom], seats, c.overTricks, c.underTricks))
        ours = [(c["level"], c["strain"], c["declarer"], c["overtricks"], c["undertricks"])
                for c in obj["par"]["contracts"]]
        assert obj["par"]["score"] == data.score, obj["board"]
        assert sorted(ours) == sorted(theirs), obj["board"]
        checked += 1
    assert checked == 3


def test_a_passed_out_board_gets_its_table_and_a_note():
    r = run(["table", "--json", BRIDGE])
    three = next(o for o in json_lines(r) if o["board"] == "3")
    assert three["note"] == "passed out" and three["table"]["NT"]["up"]["N"] == 11
    assert "Passed out" in run(["table", BRIDGE]).stdout
    r = run(["solve", BRIDGE])
    assert "board 3: missing trump: the board was passed out" in r.stderr
    text = Path(BRIDGE).read_text(encoding="latin-1")
    board3 = '[Board "3"]' + text.split('[Board "3"]')[1].split("{ Board 4")[0]
    r = run(["solve", "--trump", "NT", "-"], input=board3)
    assert r.exit_code == 0, r.stderr
    assert "N to lead · passed out" in r.stdout


TWO_ROOMS = (board("1", "N:JT64.AQT93.962.5 AK7.J65.AK74.J98 Q985.K8742..QT63 32..QJT853.AK742",
                   '[Room "Open"]', '[Dealer "N"]', '[Vulnerable "None"]')
             + board("1", "E:AK7.J65.AK74.J98 Q985.K8742..QT63 32..QJT853.AK742 JT64.AQT93.962.5",
                     '[Room "Closed"]', '[Dealer "N"]', '[Vulnerable "None"]')
             + board("2", "N:AQ.63.AJT4.KJ865 T42.9842.9863.32 J85.AJ7.K752.T74 K9763.KQT5.Q.AQ9",
                     '[Dealer "E"]', '[Vulnerable "NS"]'))


def test_a_repeated_deal_is_solved_once_and_reported_twice(monkeypatch):
    from whist_solve.cli import table_cmd
    calls = []

    def counting(hands, **kw):
        calls.append(hands)
        return dd_table(hands, **kw)

    monkeypatch.setattr(table_cmd, "dd_table", counting)
    r = run(["table", "--json", "-"], input=TWO_ROOMS)
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert [o["board"] for o in objs] == ["1", "1", "2"]
    assert len(calls) == 2
    assert objs[0]["table"] == objs[1]["table"] and objs[0]["par"] == objs[1]["par"]
    assert "(1 board repeats an earlier deal, not solved again)" in r.stderr
    # the same output as each board alone
    for text, obj in ((TWO_ROOMS.split('[Board "2"]')[0].split("\n\n")[1] + "\n\n", objs[1]),):
        alone = json_lines(run(["table", "--json", "-"], input=text))[0]
        assert alone == obj


def test_csv_read_back():
    r = run(["table", "--csv", "--ranking", "both", BRIDGE])
    assert r.exit_code == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert list(rows[0]) == ["board", "deal", "strain", "ranking", "N", "E", "S", "W",
                             "par_score", "par", "file"]
    assert len(rows) == 4 * 5 * 2
    objs = {o["board"]: o for o in json_lines(run(["table", "--json", "--ranking", "both", BRIDGE]))}
    for row in rows:
        o = objs[row["board"]]
        assert row["deal"] == o["deal"] and row["file"] == o["file"] == BRIDGE
        assert {s: int(row[s]) for s in "NESW"} == o["table"][row["strain"]][row["ranking"]]
        if "par" in o:
            assert int(row["par_score"]) == o["par"]["score"]
            assert row["par"] == " ".join(c["contract"] for c in o["par"]["contracts"])
        else:
            assert row["par_score"] == row["par"] == ""
    r = run(["table", "--csv", "--json", BRIDGE])
    assert r.exit_code == 2


def test_csv_board_labels_a_spreadsheet_would_run_as_formulas_are_quoted(tmp_path):
    # a label from someone else's file that starts like a formula gets a
    # leading apostrophe (shown as text); a number such as -3 does not
    p = tmp_path / "f.pbn"
    deal = '[Deal "N:A... K... Q... J..."]\n'
    labels = ['=HYPERLINK("http://x","a")', "+1+1", "@sum", "-3", "1", "Round 2"]
    # (PBN escapes a quote in a value with a backslash)
    p.write_text("\n".join(f'[Board "{x.replace(chr(34), chr(92) + chr(34))}"]\n{deal}'
                           for x in labels))
    r = run(["table", "--csv", "--strain", "S", str(p)])
    assert r.exit_code == 0, r.stderr
    got = [row["board"] for row in csv.DictReader(io.StringIO(r.stdout))]
    assert got == ["'" + labels[0], "'+1+1", "'@sum", "-3", "1", "Round 2"]


def test_summary_lines():
    r = run(["table", BRIDGE])
    last = r.stderr.strip().splitlines()[-1]
    m = SUMMARY.match(last)
    assert m and m.group(1) == "4" and m.group(3) == "0", last
    bad = board("9", "N:AK... Q... 2... 3...")       # unequal hands
    r = run(["table", "-"], input=bad + board("10", "N:A... K... Q... J..."))
    m = SUMMARY.match(r.stderr.strip().splitlines()[-1])
    assert m and m.group(1) == "1" and m.group(3) == "1"
    assert "1 board tabulated, 1 error in" in r.stderr
    r = run(["bid", WHIST])
    m = SUMMARY.match(r.stderr.strip().splitlines()[-1])
    assert m and m.group(2) == "analysed" and m.group(3) == "2"


# --------------------------------------------------------------------------
# headers


def test_both_blocks_of_the_table_in_the_order_n_e_s_w():
    r = run(["table", BRIDGE])
    heads = [ln for ln in r.stdout.splitlines() if re.search(r"\bN\s+E\s+S\s+W\b", ln)]
    assert heads and all(len(re.findall(r"\bN\s+E\s+S\s+W\b", ln)) == 2 for ln in heads)
    assert not re.search(r"\bN\s+S\s+E\s+W\b", r.stdout)
    # by declarer, spades of board 1: N 7, E 5, S 8, W 5
    assert re.search(r"♠\s+8\s+7\s+8\s+8\s+♠\s+7\s+5\s+8\s+5", r.stdout)


def test_bid_whist_right_block_is_by_bidder_who_leads(tmp_path):
    """Bid whist: the bidder leads, so the right block gives the tricks of
    the bidder's side with the bidder leading (before: the bridge block,
    its left-hand opponent leading)."""
    deal = "N:53.92.K3.K843.HL QT.KT876.AQ98.J A9862.A3..A9762 KJ74.Q4.JT7.QT5"
    path = tmp_path / "bw.pbn"
    path.write_text(board("bw", deal, '[Variant "bid"]', '[Kitty ".J5.6542."]'))
    out = run(["table", str(path), "--strain", "S,NT"]).stdout
    assert "by bidder" in out and "by declarer" not in out
    # the PBN table of --pbn reads the same: each declarer leads
    pbn = run(["table", str(path), "--strain", "S,NT", "--pbn"]).stdout
    rows = {tuple(ln.split()[:2]): int(ln.split()[2]) for ln in pbn.splitlines()
            if re.fullmatch(r"[NESW] +(NT|S) +\d+", ln.strip())}
    assert len(rows) == 8
    (o,) = json_lines(run(["table", str(path), "--strain", "S,NT", "--json"]))
    for (seat, strain), won in rows.items():
        ns = o["table"][strain]["up"][seat]
        assert won == (ns if seat in "NS" else 12 - ns)
    for strain, sym in (("S", "♠"), ("NT", "NT")):
        ns = o["table"][strain]["up"]
        want = [ns["N"], 12 - ns["E"], ns["S"], 12 - ns["W"]]
        rows = [ln for ln in out.splitlines() if ln.strip("│ ").startswith(sym + " ")]
        nums = next(n for n in ([int(x) for x in re.findall(r"\b\d+\b", ln)] for ln in rows)
                    if len(n) == 8)
        assert nums[:4] == [ns[x] for x in "NESW"] and nums[4:8] == want


def test_the_header_names_the_contract_as_whist_solve_does():
    """A Contract tag written '4 S down' is shown as 4S↓ (it was echoed
    as written)."""
    src = board("5", "N:AK... QJ... T9... 87...", '[Contract "2 s down"]', '[Declarer "S"]')
    out = _flat(run(["solve", "-"], input=src).stdout)
    assert "contract 2S\u2193 by S" in out and "2 s down" not in out


def test_solve_refuses_a_bidder_and_a_declarer_that_differ():
    """In bid whist the bidder declares: solve refused nothing and showed
    'contract 4S by E' with S leading (the other commands refused)."""
    src = board("7", "N:AK... QJ... T9... 87...", '[Variant "bid"]', '[Contract "1S"]',
                '[Bidder "S"]', '[Declarer "E"]')
    res = run(["solve", "-"], input=src)
    assert res.exit_code == 2
    assert "the Bidder (S) and the Declarer (E) differ" in res.stderr
    ok = run(["solve", "-"], input=src.replace('[Declarer "E"]', ""))
    assert ok.exit_code == 0 and "contract 1S by S" in _flat(ok.stdout)


def test_headers_say_what_happened():
    src = board("5", "N:AK... QJ... T9... 87...", '[Trump "NT"]', '[Leader "W"]',
                '[Contract "3NT"]', '[Declarer "S"]')
    out = _flat(run(["solve", "-"], input=src).stdout)
    assert "W to lead" in out and "led the first trick" not in out
    assert "contract 3NT by S" in out
    out = _flat(run(["solve", "--trump", "S", "-"], input=src).stdout)
    assert "contract 3NT by S set aside (--trump S)" in out and "Trump ♠ spades" in out
    played = src.replace('[Leader "W"]', '[Play "W"]\nS8 SA SQ ST\n')
    out = _flat(run(["solve", "-"], input=played).stdout)
    assert "W led the first trick" in out and "4 cards already played" in out
    one = src.replace('[Leader "W"]', '[Play "W"]\nS8 SA - -\n')
    out = _flat(run(["solve", "-"], input=one).stdout)
    assert "2 cards already played" in out
    one = src.replace('[Leader "W"]', '[Play "W"]\nS8 - - -\n')
    out = _flat(run(["solve", "-"], input=one).stdout)
    assert "1 card already played" in out and "card(s)" not in out


def test_the_jokers_row_is_not_a_row_of_jacks():
    r = run(["solve", WHIST])
    assert "Jokers JH" in r.stdout and "Jokers JL" in r.stdout
    assert not re.search(r"\bJ (JH|JL|—)", r.stdout)


def test_solve_solves_a_repeated_position_once(monkeypatch):
    from whist_solve.cli import solve_cmd
    from whist_solve.cli.runner import Repeat
    real = solve_cmd.solve_work
    searched = []

    def counting(solver, item):
        if not isinstance(item, Repeat):
            searched.append(item)
        return real(solver, item)

    monkeypatch.setattr(solve_cmd, "solve_work", counting)
    rooms = TWO_ROOMS.replace('[Dealer "N"]', '[Dealer "N"]\n[Contract "4S"]\n[Declarer "S"]')
    r = run(["solve", "--json", "-"], input=rooms.split('[Board "2"]')[0])
    assert r.exit_code == 0, r.stderr
    a, b = json_lines(r)
    assert len(searched) == 1
    assert a == b
    # the same object as the board solved alone
    alone = json_lines(run(["solve", "--json", "-"], input=rooms.split("\n\n")[0] + "\n\n"))[0]
    assert alone == a


def test_pbn_output_drops_other_programs_double_dummy_tags():
    # a deal's DoubleDummyTricks and OptimumScore of another program were
    # copied beside the new OptimumResultTable, stale ones too; the par is
    # now the OptimumScore (N-S's score)
    src = Path(BRIDGE).read_text().replace(
        '[Board "2"]', '[Board "2"]\n[DoubleDummyTricks "00000000000000000000"]\n'
        '[OptimumScore "NS 9999"]\n[ParContract "NS 7NT"]', 1)
    r = run(["table", "--pbn", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "DoubleDummyTricks" not in out and "9999" not in out and "ParContract" not in out
    objs = {o["board"]: o for o in json_lines(run(["table", "--json", BRIDGE]))}
    boards = {b.label: b for b in read_pbn_file(BRIDGE)}
    written = {b.label: b for b in read_pbn(out)}
    for label in ("1", "2", "3"):
        assert written[label].tags["OptimumScore"] == f"NS {objs[label]['par']['score']}"
    assert "OptimumScore" not in written["4"].tags     # an ending: no par
    assert set(written) == set(boards)


def test_a_dealer_or_vulnerability_that_is_none_or_disagrees_costs_the_par_only():
    # such a board was an error, its table not given (nor written by --pbn)
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    src = "\n".join(f'[Board "{i}"]\n{tags}\n[Deal "{deal}"]\n' for i, tags in enumerate((
        '[Dealer "N"]\n[Vul "NS"]\n[Ability "N:11111"]\n[Minimax "7NE2220"]\n'
        '[OptimumPlayTable "x"]',
        '[Dealer "N"]\n[Vulnerable "banana"]',
        '[Dealer "Q"]\n[Vulnerable "None"]',
        '[Dealer "N"]\n[Vulnerable "None"]\n[Vul "All"]',
        '[Dealer "N"]\n[Vulnerable "None"]\n[Vul "love"]'), start=1))
    r = run(["table", "--json", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    objs = json_lines(r)
    assert [("par" in o) for o in objs] == [True, False, False, False, True]
    assert objs[0]["par"]["score"] == 2210 and objs[0]["par"]["vulnerable"] == "NS"  # (the Vul tag)
    assert all(o["table"] == objs[0]["table"] for o in objs)
    assert "board 2: unknown vulnerability 'banana' (expected None, NS, EW or All): no par" in r.stderr
    assert "board 3: bad Dealer tag: unknown seat 'Q'" in r.stderr
    assert "board 4: the Vulnerable (None) and Vul (All) tags differ: no par" in r.stderr
    assert "board 3: board 3" not in r.stderr and "board 5" not in r.stderr
    r = run(["table", "--pbn", "-"], input=src)
    written = read_pbn(r.stdout)
    assert [b.label for b in written] == ["1", "2", "3", "4", "5"]
    assert not {"Ability", "Minimax", "OptimumPlayTable"} & set(written[0].tags)


def test_pbn_output_keeps_the_notes_after_their_sections():
    # the Auction's =1= and the Play's referred to Note tags --pbn dropped
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    src = (f'[Board "1"]\n[Deal "{deal}"]\n[Declarer "N"]\n[Contract "7S"]\n[Auction "N"]\n'
           '1C =1= Pass 7S =2= AP\n[Note "1:strong"]\n[Note "2:why not"]\n[Play "E"]\n'
           'H2 =1= S2 D2 C2\n*\n[Note "1:a play note"]\n')
    r = run(["table", "--pbn", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    at = lines.index('[Auction "N"]')
    assert lines[at + 1:at + 4] == ["1C =1= Pass 7S =2= AP", '[Note "1:strong"]', '[Note "2:why not"]']
    at = lines.index('[Play "E"]')
    assert lines[at + 1:at + 4] == ["H2 =1= S2 D2 C2", "*", '[Note "1:a play note"]']
    (b,) = read_pbn(r.stdout)
    assert b.notes == ["1:strong", "2:why not", "1:a play note"]


def test_other_programs_double_dummy_tags_are_dropped_in_any_case():
    src = Path(BRIDGE).read_text().replace(
        '[Board "2"]', '[Board "2"]\n[doubledummytricks "00000000000000000000"]\n'
        '[parContract "NS 7NT"]\n[MINIMAX "7NE2220"]', 1)
    r = run(["table", "--pbn", "-"], input=src)
    low = r.stdout.lower()
    assert "doubledummytricks" not in low and "parcontract" not in low and "minimax" not in low


def test_a_note_before_every_section_stays_first():
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    src = f'[Note "about the deal"]\n[Board "1"]\n[Deal "{deal}"]\n[Auction "N"]\nPass =1= AP\n[Note "1:a"]\n'
    r = run(["table", "--pbn", "-"], input=src)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("[")]
    assert lines[0] == '[Note "about the deal"]'
    (b,) = read_pbn(r.stdout)
    assert b.notes == ["about the deal", "1:a"]


def test_pbn_output_keeps_the_comments_in_their_places():
    # a board's {...} comments (a diagram's, an alert's) were dropped
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    src = (f'{{before the board}}\n[Board "1"]\n[Deal "{deal}"]\n{{the diagram:\n  two lines}}\n'
           '[Auction "N"]\nPass {why} Pass Pass Pass\n')
    r = run(["table", "--pbn", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[lines.index('[Board "1"]') - 1] == "{before the board}"
    at = lines.index(f'[Deal "{deal}"]')
    assert lines[at + 1:at + 3] == ["{the diagram:", "  two lines}"]
    at = lines.index('[Auction "N"]')
    assert lines[at + 2] == "{why}"
    (before,) = read_pbn(src)
    (after,) = read_pbn(r.stdout)
    assert after.comments == before.comments
    assert after.comment_places == before.comment_places == [None, "Deal", "Auction"]


def test_pbn_output_keeps_every_board_and_what_opens_the_file():
    """table --pbn writes a file that loses nothing of the one read: a
    board it cannot tabulate (hands not known, a duplicate card) written
    back as it was read, in its place; the escape lines that open the
    file (a program's settings), the charset they name now UTF-8; ';'
    comments; a backslash in a value written as PBN's strings write it."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    src = ("% PBN 2.1\n% EXPORT\n%Content-type: text/x-pbn; charset=ISO-8859-1\n"
           "%BCOptions Center GutterH\n"
           f'[Board "1"]\n[Deal "{deal}"]\n[Event "C:\\\\club\\\\night"] ; the club\n\n'
           '[Board "2"]\n[Deal "S:AKQ.J53.AK84.532 - - -"]\n{kept}\n\n'
           f'[Board "3"]\n[Deal "{deal.replace("AKQJ.T98", "AAQJ.T98", 1)}"]\n\n'
           f'[Board "4"]\n[Deal "{deal}"]\n')
    r = run(["table", "--pbn", "-"], input=src)
    assert r.exit_code == 2
    assert "board 2: the hands of" in r.stderr and "board 3: bad hand for N" in r.stderr
    out = r.stdout
    assert out.startswith("% PBN 2.1\n%Content-type: text/x-pbn; charset=UTF-8\n"
                          "%BCOptions Center GutterH\n[")
    assert "% EXPORT" not in out        # (export format is CRLF lines and every mandatory tag)
    assert '[Event "C:\\\\club\\\\night"]\n; the club\n' in out
    again = read_pbn(out)
    assert [b.label for b in again] == ["1", "2", "3", "4"]
    assert [("OptimumResultTable" in b.tags) for b in again] == [True, False, False, True]
    assert again[0].tags["Event"] == "C:\\club\\night"
    assert again[1].tags["Deal"] == "S:AKQ.J53.AK84.532 - - -" and again[1].comments == ["kept"]
    # the same with jobs: the boards in their places
    assert run(["table", "--pbn", "--jobs", "2", "-"], input=src).stdout == out


def test_pbn_and_csv_output_are_utf8_whatever_the_locale(tmp_path):
    import os
    import subprocess
    import sys
    path = tmp_path / "l.pbn"
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    path.write_text(f'[Event "Caf\u00e9 Z\u00fcrich"]\n[Board "\u00e9t\u00e9"]\n[Deal "{deal}"]\n',
                    encoding="latin-1")
    for option in ("--pbn", "--csv"):
        p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "table", option,
                            "--strain", "NT", str(path)], capture_output=True,
                           env=dict(os.environ, PYTHONIOENCODING="ascii"))
        assert p.returncode == 0, p.stderr
        text = p.stdout.decode("utf-8")         # (a '?' for each letter before)
        assert "\u00e9t\u00e9" in text and "?" not in text, text


def test_pbn_output_keeps_a_bad_board_as_written():
    # what the reader could not take in (an unquoted value, a tag given
    # twice, a comment never closed) was lost from the file written again,
    # and with it the error; a quoted charset is UTF-8 too
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    bad = (f'[Board "2"]\n[Deal "{deal}"]\n[Contract 4S]\n[Dealer "N"]\n{{never closed\n'
           '[Dealer "E"]\n')
    src = ('%x charset="ISO-8859-1"\n' + f'[Board "1"]\n[Deal "{deal}"]\n\n' + bad + "\n"
           + f'[Board "3"]\n[Deal "{deal}"]\n')
    r = run(["table", "--pbn", "--strain", "NT", "-"], input=src)
    assert r.exit_code == 2
    assert r.stdout.startswith('% PBN 2.1\n%x charset="UTF-8"\n')
    # (the comment never closed is closed where the board ends: else it ran
    # on into the next boards of the file written)
    assert "\n\n" + bad + "}\n\n[Board \"3\"]" in r.stdout
    again = run(["table", "--pbn", "--strain", "NT", "-"], input=r.stdout)
    assert again.stdout == r.stdout
    assert "board 2: line 13: bad tag '[ Contract 4S ]'" in again.stderr
    assert "1 error" in again.stderr and again.stdout.count("OptimumResultTable") == 2


def test_pbn_output_bad_boards_keep_their_text_and_inherited_tags():
    """From a third look: a bad board's comment with an empty line in it
    was cut there; games with no empty line between them were written as
    parsed (their faults lost); a bad board lost the tags a '##' header
    gave it."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    src = ('[Event "##Club Cup"]\n\n'
           f'[Board "1"]\n[Deal "{deal}"]\n\n'
           '[Board "2"]\n[Deal "S:AKQ.J53.AK84.532 - - -"]\n{first paragraph\n\nsecond}\n\n'
           f'[Board "3"]\n[Deal "{deal}"]\n[Dealer N]\n'
           f'[Board "4"]\n[Deal "{deal}"]\n')
    r = run(["table", "--pbn", "--strain", "NT", "-"], input=src)
    assert r.exit_code == 2
    out = r.stdout
    assert "{first paragraph\n\nsecond}" in out
    assert '[Board "3"]\n[Deal "' + deal + '"]\n[Dealer N]\n' in out
    assert out.count('[Event "Club Cup"]') == 4
    again = run(["table", "--pbn", "--strain", "NT", "-"], input=out)
    assert again.stdout == out and again.stderr.count("error:") == r.stderr.count("error:")


def test_pbn_output_keeps_the_header_games():
    """A header game (## defaults, no deal) is written back before the board
    that followed it, with its plain tags and its comments: they were in no
    board, and were lost (a Generator, a note on the whole file); so is a
    header given in mid-file (the next day's date)."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    head = '[Event "##Club night"]\n[Generator "BridgeComposer 5.9"]\n{Dealt by hand}'
    mid = '[Date "##2026.12.07"]'
    src = (f'{head}\n\n[Board "1"]\n[Deal "{deal}"]\n\n[Board "2"]\n[Deal "{deal}"]\n\n'
           f'{mid}\n\n[Board "3"]\n[Deal "{deal}"]\n')
    r = run(["table", "--pbn", "--strain", "NT", "-"], input=src)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert out.startswith(f"% PBN 2.1\n{head}\n\n[Event \"Club night\"]\n[Board \"1\"]"), out
    assert f'\n\n{mid}\n\n[Event "Club night"]\n[Date "2026.12.07"]\n[Board "3"]' in out
    assert out.count("Generator") == 1 and out.count('[Date "2026.12.07"]') == 1
    again = run(["table", "--pbn", "--strain", "NT", "-"], input=out)
    assert again.stdout == out
    # boards left out by --board pass their headers on to the next board
    r = run(["table", "--pbn", "--strain", "NT", "--board", "2", "-"], input=src)
    assert r.stdout.startswith(f"% PBN 2.1\n{head}\n\n[Event \"Club night\"]\n[Board \"2\"]")
    r = run(["table", "--pbn", "--strain", "NT", "--board", "3", "-"], input=src)
    assert r.stdout.startswith(f"% PBN 2.1\n{head}\n\n{mid}\n\n[Event \"Club night\"]\n"), \
        r.stdout
