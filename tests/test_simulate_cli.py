"""whist-solve simulate: the shipped examples, the JSON shape, the same bytes
whatever runs the samples (one process, a pool, a Dask cluster), agreement
with solve/bid/table when every hand is known, the errors (bad and
impossible constraints, bad tags, a question the board cannot answer), the
time budget, and the partial-knowledge message of the other commands."""
from __future__ import annotations

import json
import os
import time

import pytest

from support.cli_run import board, json_lines, run
from support import ROOT

EXAMPLE = os.path.join(str(ROOT), "examples", "simulate.pbn")

# A lead and a tricks problem, small enough to run many samples fast.
LEAD = board("L1", "W:KQ3.92.QJT7.A854 - - -", '[Declarer "S"]', '[Contract "4S"]',
             '[Constraint "length(E, H) >= 5"]')
TRICKS = board("T1", "N:AQ72.KJ5.A93.K84 - KJ953.A84.KQ2.76 -", '[Dealer "N"]')
FULL = board("F1", "N:AK32.Q94.T83.K72 QJT9.K872.A5.AJ6 8765.AJ.KQJ7.T54 4.T653.9642.Q983",
             '[Declarer "N"]', '[Contract "3NT"]')


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_example_file_json_shape():
    res = run(["simulate", EXAMPLE, "--json", "--count", "3", "--seed", "5"])
    assert res.exit_code == 0, res.stderr
    objs = json_lines(res)
    assert [o["question"] for o in objs] == ["bid", "lead", "tricks"]
    for o in objs:
        assert o["samples"] == 3 and o["seed"] == 5 and "partial" not in o
        assert "-" in o["deal"].split(":")[1].split()
    bid, lead, tricks = objs
    assert bid["bidder"] == "S" and len(bid["options"]) == 10
    for opt in bid["options"]:
        assert sum(opt["hist"].values()) == 3
        assert set(opt["make"]) == {str(lv) for lv in range(1, 8)}
        assert opt["mean"] is not None and opt["stderr"] is not None
    assert bid["best"]["contract"] and bid["best"]["level"] in range(1, 8)
    assert lead["leader"] == "W" and lead["contract"] == "4S" and lead["declarer"] == "S"
    assert lead["trump"] == "S" and lead["ranking"] == "up"
    assert set(lead["cards"]) == {"SK", "SQ", "S3", "H9", "H2", "DQ", "DJ", "DT", "D7",
                                  "CA", "C8", "C5", "C4"}
    for c, v in lead["cards"].items():
        assert sum(v["hist"].values()) == 3 and 0 <= v["set"] <= 1 and "stderr" in v
    assert lead["best"] in lead["cards"]
    assert ["DQ", "DJ", "DT"] in lead["groups"]
    assert set(tricks["table"]) == {"S", "H", "D", "C", "NT"}
    cell = tricks["table"]["S"]["up"]["N"]
    assert sum(cell["hist"].values()) == 3 and "mean" in cell and "stderr" in cell


def test_example_file_for_people():
    res = run(["simulate", EXAMPLE, "--count", "2"])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "Recommended bid:" in out and "Best lead:" in out and "95%" in out
    assert "2 samples, seed 1" in out


def test_same_bytes_for_jobs_1_and_2(tmp_path):
    path = write(tmp_path, "lt.pbn", LEAD + TRICKS)
    one = run(["simulate", path, "--json", "--count", "12", "--jobs", "1"])
    two = run(["simulate", path, "--json", "--count", "12", "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.stderr
    assert one.stdout == two.stdout
    assert [o["samples"] for o in json_lines(one)] == [12, 12]
    other = run(["simulate", path, "--json", "--count", "12", "--seed", "2"])
    assert other.stdout != one.stdout


def test_default_is_one_process_per_cpu(tmp_path, monkeypatch):
    """Without --jobs the samples go to one process per CPU, or CPUs //
    --threads when --threads is given (never fewer than one)."""
    import whist_solve.cli.simulate_cmd as cmd

    asked = []
    real = cmd.Run.backend

    def spy(self, jobs=1, scheduler=None):
        asked.append(jobs)
        return real(self, jobs, scheduler)

    monkeypatch.setattr(cmd.Run, "backend", spy)
    monkeypatch.setattr(cmd, "default_jobs", lambda: 4)
    path = write(tmp_path, "l.pbn", LEAD)
    outputs = []
    for extra in ([], ["--threads", "2"], ["--threads", "8"], ["--jobs", "1"]):
        res = run(["simulate", path, "--json", "--count", "3", *extra])
        assert res.exit_code == 0, res.stderr
        outputs.append(res.stdout)
    assert asked == [4, 2, 1, 1]
    assert len(set(outputs)) == 1


def test_same_bytes_on_a_dask_cluster(tmp_path, cluster):
    address, _client = cluster
    path = write(tmp_path, "lt.pbn", LEAD + TRICKS)
    one = run(["simulate", path, "--json", "--count", "10"])
    dask = run(["simulate", path, "--json", "--count", "10", "--scheduler", address])
    assert dask.exit_code == 0, dask.stderr
    assert one.stdout == dask.stdout
    people = run(["simulate", path, "--count", "10"])
    people_dask = run(["simulate", path, "--count", "10", "--scheduler", address])
    assert people.stdout == people_dask.stdout
    # --jobs with --scheduler: the cluster solves, and a warning says so
    # (none for simulate's own default --jobs)
    assert "--jobs" not in dask.stderr
    jobs = run(["simulate", path, "--json", "--count", "10", "--jobs", "2",
                "--scheduler", address])
    assert jobs.stdout == one.stdout
    assert "warning: --jobs: 2 not used: with --scheduler the cluster's workers solve" in jobs.stderr


def test_full_knowledge_agrees_with_solve_table_and_bid(tmp_path):
    path = write(tmp_path, "full.pbn", FULL)
    lead = json_lines(run(["simulate", path, "--json", "--count", "3"]))[0]
    solve = json_lines(run(["solve", path, "--json"]))[0]
    assert lead["question"] == "lead" and lead["leader"] == solve["turn"] == "E"
    assert {c: v["mean"] for c, v in lead["cards"].items()} == solve["cards"]
    assert all(len(v["hist"]) == 1 for v in lead["cards"].values())
    tricks = json_lines(run(["simulate", path, "--json", "--count", "2", "-q", "tricks",
                             "--ranking", "both"]))[0]
    table = json_lines(run(["table", path, "--json", "--ranking", "both"]))[0]
    for s, by_r in table["table"].items():
        for r, by_seat in by_r.items():
            for seat, v in by_seat.items():
                assert tricks["table"][s][r][seat]["hist"] == {str(v): 2}
    # bid whist, every hand and the kitty known
    bidfile = write(tmp_path, "bid.pbn", board(
        "B1", "N:AK.KQ.A.. Q2.A3.K.. JT.J2.Q.. 98.T9.J..", '[Kitty "3.4.2.2"]',
        '[Bidder "N"]', '[Variant "bid"]'))
    sim = json_lines(run(["simulate", bidfile, "--json", "--count", "2"]))[0]
    bid = json_lines(run(["bid", bidfile, "--json"]))[0]
    assert sim["question"] == "bid"
    got = {(o["trump"], o["ranking"]): o["hist"] for o in sim["options"]}
    want = {(o["trump"], o["ranking"]): {str(o["books"]): 2} for o in bid["options"]}
    assert got == want


def test_malformed_constraint_exit_2_with_position(tmp_path):
    path = write(tmp_path, "l.pbn", LEAD)
    res = run(["simulate", path, "--constraint", "hcp(E) >= 12 and length(E, X) > 4"])
    assert res.exit_code == 2
    assert "unknown suit 'X'" in res.stderr and "column 28" in res.stderr and "^" in res.stderr
    assert res.stdout == ""


def test_impossible_constraint_exit_2_says_how_many_tried(tmp_path):
    path = write(tmp_path, "lt.pbn", LEAD + TRICKS)
    res = run(["simulate", path, "--count", "5", "--constraint", "hcp(N) + hcp(E) > 40"])
    assert res.exit_code == 2
    assert "no deal satisfies the constraints" in res.stderr and "100000" in res.stderr
    assert "board L1" in res.stderr and "board T1" in res.stderr


def test_a_rare_constraint_keeps_the_samples_it_dealt(tmp_path):
    # hcp(E) >= 25: some 5 deals in 100,000.  With seed 3 sample 0 is dealt
    # and sample 1 finds none in its 100,000 tries: the run said "no deal
    # satisfies the constraints: 0 of 100000 tried", status 2, no result
    path = write(tmp_path, "r.pbn", board("lead", "W:KQ3.92.QJT7.A854 - - -", '[Dealer "S"]',
                                          '[Declarer "S"]', '[Contract "4S"]'))
    res = run(["simulate", path, "--json", "--count", "60", "--seed", "3", "--jobs", "1",
               "--constraint", "hcp(E) >= 25"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["partial"] is True and o["samples"] == 1
    assert ("board lead: sample 1: none of 100000 deals tried satisfies the constraints (they "
            "accept almost no deal): the result has the 1 sample dealt before it") in res.stderr
    assert "no deal satisfies" not in res.stderr


def test_bad_constraint_tag_is_a_board_error(tmp_path):
    path = write(tmp_path, "c.pbn", board("C1", "W:KQ3.92.QJT7.A854 - - -", '[Contract "4S"]',
                                          '[Declarer "S"]', '[Constraint "hcp(Q) > 3"]') + TRICKS)
    res = run(["simulate", path, "--json", "--count", "3"])
    assert res.exit_code == 2
    assert f"{path}: board C1:" in res.stderr
    assert [o["board"] for o in json_lines(res)] == ["T1"]


def test_overlong_constraints_are_refused_before_they_are_parsed(tmp_path):
    """The length of constraint text is bounded (MAX_LENGTH): a tag of
    400,000 terms once took gigabytes to parse, and hung when memory ran
    out.  The board is an error naming the file and the board, the next
    board is answered; the tags of a board and the --constraint options
    count together."""
    from whist_solve.constraints import MAX_LENGTH
    terms = MAX_LENGTH // len("hcp(N) >= 0 and ") + 1
    long_tag = '[Constraint "' + " and ".join(["hcp(N) >= 0"] * terms) + '"]'
    path = write(tmp_path, "long.pbn", board("Q1", "W:KQ3.92.QJT7.A854 - - -", '[Declarer "S"]',
                                             '[Contract "4S"]', long_tag) + TRICKS)
    res = run(["simulate", path, "--json", "--count", "2"])
    assert res.exit_code == 2
    assert f"{path}: board Q1: constraint 'hcp(N) >= 0" in res.stderr
    assert f"at most {MAX_LENGTH:,})" in res.stderr
    assert [o["board"] for o in json_lines(res)] == ["T1"]
    many = ['[Constraint "hcp(N) >= 0"]'] * (MAX_LENGTH // 11 + 1)
    path = write(tmp_path, "many.pbn", board("Q2", "W:KQ3.92.QJT7.A854 - - -", '[Declarer "S"]',
                                             '[Contract "4S"]', *many) + TRICKS)
    res = run(["simulate", path, "--json", "--count", "2"])
    assert res.exit_code == 2
    assert f"board Q2: constraints too long: {(MAX_LENGTH // 11 + 1) * 11:,} characters in " \
        f"{MAX_LENGTH // 11 + 1:,} constraints" in res.stderr
    assert [o["board"] for o in json_lines(res)] == ["T1"]
    half = " and ".join(["hcp(E) >= 0"] * (terms // 2 + 1))
    res = run(["simulate", write(tmp_path, "t.pbn", TRICKS), "-c", half, "-c", half])
    assert res.exit_code == 2 and res.stdout == ""
    assert "--constraint: constraints too long" in res.stderr


def test_every_constraint_tag_of_a_board_applies(tmp_path):
    """Two Constraint tags: both hold (the second was once dropped
    without a word).  East's hearts are at least 5 in every sample of the
    first board; with a second tag asking for fewer than 5 as well, no
    deal can be dealt."""
    first = '[Constraint "length(E, H) >= 5"]'
    ok = board("K1", "W:KQ3.92.QJT7.A854 - - -", '[Declarer "S"]', '[Contract "4S"]', first,
               '[Constraint "hcp(E) >= 4"]')
    path = write(tmp_path, "k1.pbn", ok)
    from whist_solve.pbn import read_pbn_file
    (b,) = list(read_pbn_file(path))
    assert b.constraint_tags() == ["length(E, H) >= 5", "hcp(E) >= 4"]
    res = run(["simulate", path, "--json", "--count", "3"])
    assert res.exit_code == 0, res.stderr
    none = board("K2", "W:KQ3.92.QJT7.A854 - - -", '[Declarer "S"]', '[Contract "4S"]', first,
                 '[Constraint "length(E, H) < 5"]')
    path = write(tmp_path, "k2.pbn", none + TRICKS)
    res = run(["simulate", path, "--json", "--count", "3"])
    assert res.exit_code == 2
    assert "board K2: no deal satisfies the constraints" in res.stderr
    assert "length(E, H) >= 5; length(E, H) < 5" in res.stderr
    assert [o["board"] for o in json_lines(res)] == ["T1"]


def test_board_that_gives_too_little(tmp_path):
    # lead question, the leader's (W's) hand unknown; the next board still runs
    path = write(tmp_path, "x.pbn", board("X1", "S:AKQ2.J53.AK84.53 - - -", '[Contract "4S"]',
                                          '[Declarer "S"]') + LEAD)
    res = run(["simulate", path, "--json", "--count", "3", "--question", "lead"])
    assert res.exit_code == 2
    assert f"{path}: board X1: the leader's (W) hand is not known" in res.stderr
    assert [o["board"] for o in json_lines(res)] == ["L1"]


@pytest.mark.parametrize("tags, message", [
    (['[Dealer "N"]', '[TrumpCard "SK"]'], "the TrumpCard SK is in W's hand"),
    (['[TrumpCard "H7"]'], "the TrumpCard H7 needs a Dealer tag"),
    (['[Unseen "AKQ.AKQ.AKQ.AKQ"]', '[Contract "4S"]', '[Declarer "S"]'], "bad Unseen tag: SK is also in W's hand"),
    (['[Unseen "S2 S2 H2"]'], "bad Unseen tag: card S2 appears twice"),
    (['[Variant "classic"]', '[Unseen "JH JL S2"]'],
     "bad Unseen tag: a joker in a game without jokers"),
])
def test_bad_tags_are_board_errors(tmp_path, tags, message):
    path = write(tmp_path, "t.pbn", board("Z", "W:KQ3.92.QJT7.A854 - - -", *tags) + TRICKS)
    res = run(["simulate", path, "--json", "--count", "2"])
    assert res.exit_code == 2
    assert f"board Z: {message}" in res.stderr, res.stderr
    assert [o["board"] for o in json_lines(res)] == ["T1"]


def test_trump_card_classic_whist_lead(tmp_path):
    # classic whist: S deals and turns H7; W leads (the dealer's left); trumps are hearts
    path = write(tmp_path, "w.pbn", board("W1", "W:KQ3.92.QJT7.A854 - - -", '[Dealer "S"]',
                                          '[TrumpCard "H7"]'))
    o = json_lines(run(["simulate", path, "--json", "--count", "4"]))[0]
    # (no one bids in classic whist: no contract, N-S need the majority)
    assert o["question"] == "lead" and o["leader"] == "W" and o["contract"] is None
    assert o["need"] == 7 and o["declarer"] == "S"
    assert o["trump"] == "H" and o["ranking"] == "up"      # (no contract says it)
    people = run(["simulate", path, "--count", "4"]).stdout
    words = " ".join(people.replace("│", " ").split())
    assert "W leads; E-W (the leader's side) need 7 of 13 tricks for the majority" in words
    assert "takes the majority in" in words


def test_time_budget_gives_partial(tmp_path):
    path = write(tmp_path, "l.pbn", LEAD)
    res = run(["simulate", path, "--json", "--count", "100000", "--time", "0.5"])
    assert res.exit_code == 0, res.stderr
    o = json_lines(res)[0]
    assert o["partial"] is True and 0 <= o["samples"] < 100000
    people = run(["simulate", path, "--count", "100000", "--time", "0.3"])
    assert "PARTIAL" in people.stdout


def test_the_time_budget_counts_the_first_sample_s_dealing(tmp_path, monkeypatch):
    # the first sample is dealt before the others as a check (a costly
    # constraint: 17 s), and --time 3 was counted only after it: 28 s
    import whist_solve.cli.simulate_cmd as sc
    real = sc.sample_deal

    def slow(spec, seed, index):
        time.sleep(0.3)
        return real(spec, seed, index)

    monkeypatch.setattr(sc, "sample_deal", slow)
    path = write(tmp_path, "l.pbn", LEAD)
    res = run(["simulate", path, "--json", "--jobs", "1", "--count", "50", "--time", "0.2"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["partial"] is True and o["samples"] == 0


@pytest.mark.parametrize("command", [["solve"], ["table"], ["bid"], ["puzzles"]])
def test_partial_file_with_other_commands(command):
    res = run([*command, EXAMPLE])
    assert res.exit_code == 2
    assert (f"{EXAMPLE}: board lead: the hands of N, E and S are not known ('-' in the Deal): "
            "use simulate") in res.stderr
    assert "use simulate" in res.stderr and "Traceback" not in res.stderr


def test_one_unknown_hand_message(tmp_path):
    path = write(tmp_path, "u.pbn", board("U", "N:A... K... Q... -"))
    res = run(["solve", path])
    assert res.exit_code == 2
    assert f"{path}: board U: W's hand is not known ('-' in the Deal): use simulate" in res.stderr


def test_bench_simulate_set():
    res = run(["bench", "--set", "simulate", "--limit", "1", "--json"])
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["sets"] == []
    assert [r["question"] for r in doc["simulate"]] == ["lead", "bid"]
    for r in doc["simulate"]:
        assert r["samples"] == 1 and r["nodes"] > 0 and r["samples_per_second"] > 0
    from whist_solve.bench import resolve_sets
    assert "simulate" not in [n for n, _p in resolve_sets(["all"])]


@pytest.mark.parametrize("signame, status, word", [
    ("SIGINT", 130, "interrupted"),
    ("SIGTERM", 143, "terminated (SIGTERM)"),   # was 130 and "interrupted"
])
def test_ctrl_c_prints_the_partial_result(tmp_path, signame, status, word):
    import signal
    import subprocess
    import sys
    import time
    path = write(tmp_path, "l.pbn", LEAD)
    proc = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", "simulate", path,
                             "--json", "--count", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(6)
        proc.send_signal(getattr(signal, signame))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err
    objs = [json.loads(ln) for ln in out.splitlines()]
    assert len(objs) == 1 and objs[0]["partial"] is True and objs[0]["samples"] < 1000000
    assert word in err and "Traceback" not in err


def test_bid_threads_same_bytes(tmp_path):
    path = write(tmp_path, "bid.pbn", '[Board "bid"]\n[Variant "bid"]\n[Dealer "W"]\n[Bidder "S"]\n'
                                      '[Deal "S:AKQ95.K3.A8.Q.HL - - -"]\n\n')
    one = run(["simulate", path, "--json", "--count", "2", "--threads", "1"])
    two = run(["simulate", path, "--json", "--count", "2", "--threads", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.stderr
    assert one.stdout == two.stdout and json_lines(one)[0]["samples"] == 2


def test_time_budget_nan_is_a_usage_error(tmp_path):
    """--time nan passed the range check (nan >= 0 is false) and set no budget."""
    path = write(tmp_path, "t.pbn", TRICKS)
    r = run(["simulate", path, "--json", "--count", "1", "--time", "nan"])
    assert r.exit_code == 2 and r.stdout == ""
    assert "nan: expected a number" in r.stderr


def test_jokers_among_the_unseen_cards_make_the_game_bid_whist(tmp_path):
    """A bid whist bidder who holds no joker: the jokers listed as unseen
    say the game (with no Variant tag), as jokers in the Deal would."""
    from whist_solve.cards import full_deck
    held = "SA SK SQ S9 S5 HK H3 DA D8 CQ CJ C2".split()
    unseen = ["JH", "JL"] + [c for c in full_deck(False) if c not in held]
    path = write(tmp_path, "u.pbn", board("U", "S:AKQ95.K3.A8.QJ2 - - -", '[Bidder "S"]',
                                          f'[Unseen "{" ".join(unseen)}"]'))
    res = run(["simulate", path, "--json", "--count", "4", "--seed", "3"])
    assert res.exit_code == 0, res.stderr
    o = json_lines(res)[0]
    assert o["question"] == "bid" and o["bidder"] == "S"
    assert len(o["options"]) == 10


@pytest.mark.parametrize("given", [False, True])
def test_worker_processes_that_cannot_start(tmp_path, monkeypatch, given):
    """No worker processes (no /dev/shm, fork refused): with the default
    --jobs the simulation goes on in this process, with a warning, and
    gives the same result as --jobs 1; with --jobs asked for, one error."""
    import concurrent.futures

    from whist_solve.cli import simulate_cmd
    path = write(tmp_path, "l.pbn", LEAD)
    args = ["simulate", path, "--json", "--count", "6", "--seed", "5"]
    one = json_lines(run(args + ["--jobs", "1"]))

    def no_pool(*a, **k):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    monkeypatch.setattr(simulate_cmd, "default_jobs", lambda: 2)
    res = run(args + (["--jobs", "2"] if given else []))
    if given:
        assert res.exit_code == 2
        assert ("error: --jobs: cannot start worker processes for --jobs 2: Read-only file "
                "system (try --jobs 1)") in res.stderr
        assert res.stdout == ""
    else:
        assert res.exit_code == 0, res.stderr
        assert ("warning: --jobs: cannot start worker processes (Read-only file system); the "
                "simulation goes on in this process") in res.stderr
        assert json_lines(res) == one


def test_bid_whist_lead_question_the_bidder_leads_and_declares(tmp_path):
    """Bid whist: the bidder declares and leads, and its discard is its
    side's first book, so 4S needs 9 tricks of 12; the share shown is the
    bidder's chance to make it.  Before: 'S leads against 4S by E, who
    needs 10 tricks', the set share counted for E-W."""
    path = write(tmp_path, "bw.pbn", board(
        "bw", "S:A9862.A3..A9762 - - -", '[Variant "bid"]', '[Dealer "W"]', '[Bidder "S"]',
        '[Contract "4S"]', '[Unseen "KQJT7543.KQT987642.AKQJT9873.KQJT8543.HL"]'))
    res = run(["simulate", path, "--json", "--count", "6", "--question", "lead"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["leader"] == "S" and o["declarer"] == "S" and o["need"] == 9
    for c in o["cards"].values():
        fails = sum(n for k, n in c["hist"].items() if int(k) < 9)
        assert c["set"] == round(fails / 6, 4)
    words = " ".join(run(["simulate", path, "--count", "6", "--question", "lead"]).stdout
                     .replace("│", " ").split())
    assert "S leads, 4S by S, who needs 9 tricks (10 books with the kitty's)" in words
    assert "makes 4S in" in words


def test_a_bid_question_with_no_kitty_left_is_refused(tmp_path):
    """The Unseen cards fill the unknown hands: the bidder has already
    exchanged, so there is no bid question (an exchange of nothing counted
    the discard's book); by default the board asks the lead question."""
    path = write(tmp_path, "bw.pbn", board(
        "bw", "S:A9862.A3..A9762 - - -", '[Variant "bid"]', '[Dealer "W"]', '[Bidder "S"]',
        '[Unseen "KQJT7543.KQT987642.AKQJT9873.KQJT8543.HL"]', '[Contract "4S"]'))
    res = run(["simulate", path, "--json", "--count", "2", "--question", "bid"])
    assert res.exit_code == 2 and "the bid question needs a kitty" in res.stderr
    res = run(["simulate", path, "--json", "--count", "2"])
    assert res.exit_code == 0, res.stderr
    assert json_lines(res)[0]["question"] == "lead"


def test_a_turned_up_trump_card_limits_the_tricks_question_to_its_suit(tmp_path):
    """Classic whist: the dealer's turned-up card names the trump, so the
    tricks question asks about that strain only (unless --strain says
    otherwise); before, all five strains."""
    path = write(tmp_path, "tc.pbn", board("tc", "N:AQ72.KJ5.A93.K84 - KJ953.A84.KQ2.76 -",
                                           '[Dealer "N"]', '[TrumpCard "C4"]'))
    (o,) = json_lines(run(["simulate", path, "--json", "--count", "2", "-q", "tricks"]))
    assert list(o["table"]) == ["C"]
    (o,) = json_lines(run(["simulate", path, "--json", "--count", "2", "-q", "tricks",
                           "--strain", "S,NT"]))
    assert list(o["table"]) == ["S", "NT"]


def test_bid_question_takes_the_scoring_variants():
    res = run(["simulate", EXAMPLE, "--json", "--count", "2", "--nt-double",
               "--boston", "5", "--min-bid-3"])
    assert res.exit_code == 0, res.stderr
    o = next(o for o in json_lines(res) if o["question"] == "bid")
    assert o["scoring"] == {"nt_double": True, "boston": 5, "min_bid": 3}
    assert o["best"]["level"] >= 3
    out = run(["simulate", EXAMPLE, "--count", "2", "--nt-double"]).stdout
    assert "no-trump double" in " ".join(out.replace("│", " ").split())


def test_bid_whist_lead_question_refusals(tmp_path):
    """In bid whist the bidder declares: a --declarer of another seat is
    refused, and so is a lead question with no bid to judge (it was judged
    as classic whist's majority, without the kitty's book)."""
    tags = ('[Variant "bid"]', '[Dealer "W"]', '[Bidder "S"]',
            '[Unseen "KQJT7543.KQT987642.AKQJT9873.KQJT8543.HL"]')
    path = write(tmp_path, "bw.pbn", board("bw", "S:A9862.A3..A9762 - - -", *tags,
                                           '[Contract "4S"]'))
    res = run(["simulate", path, "--count", "1", "-q", "lead", "--declarer", "E"])
    assert res.exit_code == 2
    assert "--declarer E, but the bidder is S (in bid whist the bidder declares)" in res.stderr
    path = write(tmp_path, "nc.pbn", board("bw", "S:A9862.A3..A9762 - - -", *tags,
                                           '[Trump "S"]'))
    res = run(["simulate", path, "--count", "1", "-q", "lead"])
    assert res.exit_code == 2 and "needs the bid (a Contract tag or --contract)" in res.stderr
    res = run(["simulate", path, "--count", "1", "-q", "lead", "--contract", "2S", "--json"])
    assert res.exit_code == 0, res.stderr
    assert json_lines(res)[0]["need"] == 7          # 8 books, the Kitty counted as the bidder's discard


def test_bid_whist_lead_question_takes_the_bidder_from_the_option(tmp_path):
    """Bid whist with no Bidder, Declarer or Leader tag: --bidder names the
    bidder, who declares and leads (it was ignored: 'N leads against 4H by
    W, who needs 10 tricks', the dealer's left leading and the kitty's book
    dropped); without it the question is refused."""
    path = write(tmp_path, "bo.pbn", board(
        "bo", "N:A76.Q732.A93.Q.L - KJT8.96.KT85.K7 -", '[Variant "bid"]', '[Dealer "W"]',
        '[Contract "4H"]'))
    res = run(["simulate", path, "--json", "-n", "4", "-q", "lead", "--bidder", "S"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert (o["leader"], o["declarer"], o["need"]) == ("S", "S", 9)
    res = run(["simulate", path, "-n", "4", "-q", "lead"])
    assert res.exit_code == 2
    assert "the lead question in bid whist needs the bidder, who leads" in res.stderr
    res = run(["simulate", path, "-n", "4", "-q", "lead", "--bidder", "S", "--declarer", "N"])
    assert res.exit_code == 2 and "--declarer N and --bidder S differ" in res.stderr


def test_majority_without_a_contract_counts_a_tie_for_nobody(tmp_path):
    """No contract (classic whist's question) on a 2-card ending: W's side
    taking 1 of 2 tricks is a tie, not its majority.  Before: 'takes the
    majority in 100%' where W's side took 2 tricks in 30% of the deals."""
    path = write(tmp_path, "even.pbn", board("even", "W:A.K.. - - -", '[Trump "S"]',
                                             '[Leader "W"]', '[Unseen "KQ.AQ.A.A"]'))
    res = run(["simulate", path, "--json", "-n", "200"])
    assert res.exit_code == 0, res.stderr
    (o,) = json_lines(res)
    assert o["contract"] is None and o["need"] == 2
    for c in o["cards"].values():
        wins = sum(n for k, n in c["hist"].items() if int(k) == 2)
        ties = sum(n for k, n in c["hist"].items() if int(k) == 1)
        assert 0 < wins < 200 and ties > 0
        assert c["majority"] == round(wins / 200, 4)
        assert c["set"] == round((wins + ties) / 200, 4)     # N-S miss their majority
    best = o["cards"][o["best"]]
    words = " ".join(run(["simulate", path, "-n", "200"]).stdout.replace("│", " ").split())
    assert f"takes the majority in {round(100 * best['majority'])}%" in words
    assert "Majority" in words


def test_options_a_question_does_not_use_are_said_or_refused(tmp_path):
    p = tmp_path / "q.pbn"
    bid = board("B1", "S:AKQ95.K3.A8.Q.HL - - -", '[Variant "bid"]', '[Dealer "W"]',
                '[Bidder "S"]')
    p.write_text(bid + TRICKS)
    # a contract asks the lead question, even on a board whose default is bid
    r = run(["simulate", "--json", "-n", "2", "--contract", "3NT", str(p)])
    assert r.exit_code == 2       # board T1: its leader (E, the dealer N's left) is not known
    objs = json_lines(r)
    assert objs[0]["question"] == "lead" and objs[0]["contract"] == "3NT"
    # a leader whose hand is not known: said, not answered with another question
    r = run(["simulate", "--json", "-n", "2", "--contract", "3NT", "--leader", "W", str(p)])
    assert r.exit_code == 2 and json_lines(r) == []
    assert "the leader's (W) hand is not known" in r.stderr
    # contradictions are refused before anything runs
    for args in (["--contract", "3NT", "--trump", "H"], ["--strain", "H", "--trump", "S"]):
        r = run(["simulate", "--json", "-n", "2", *args, str(p)])
        assert r.exit_code == 2 and r.stdout == "", args
    # options of another question: a warning each, once
    r = run(["simulate", "--json", "-n", "2", "--min-bid-3", "--strain", "H", str(p)])
    assert r.exit_code == 0, r.stderr
    b, t = json_lines(r)
    assert b["question"] == "bid" and t["question"] == "tricks"
    assert r.stderr.count("--strain: not used by the bid question (board B1)") == 1
    assert "--min-bid-3: not used by the tricks question (board T1)" in r.stderr
    assert list(t["table"]) == ["H"]
    # --contract and --bidder where the question is tricks: said too
    r = run(["simulate", "--json", "-n", "2", "--question", "tricks", "--contract", "3NT",
             "--bidder", "S", str(p)])
    assert r.exit_code == 0, r.stderr
    assert "--contract: not used by the tricks question (board B1)" in r.stderr
    assert "--bidder: not used by the tricks question (board B1)" in r.stderr
    # a contract that names its ranking, and another --ranking: refused
    r = run(["simulate", "-n", "2", "--contract", "4S down", "--ranking", "up", str(p)])
    assert r.exit_code == 2
    assert "the contract gives the ranking" in " ".join(r.stderr.replace("\u2502", " ").split())
    # --trump names the tricks question's strain, as in table
    r = run(["simulate", "--json", "-n", "2", "--question", "tricks", "--trump", "D", str(p)])
    assert r.exit_code == 0, r.stderr
    assert [list(o["table"]) for o in json_lines(r)] == [["D"], ["D"]]


def test_time_and_table_size_are_checked_before_the_run(tmp_path):
    path = write(tmp_path, "l.pbn", LEAD + TRICKS)
    for value in ("0", "-1"):                # (0 gave a result of no sample, exit 0)
        r = run(["simulate", "--time", value, path])
        assert r.exit_code == 2 and r.stdout == "" and "above 0" in r.stderr
    # a table larger than the memory: refused once, as by the other commands
    # (it was an error on every board)
    r = run(["simulate", "--tt-mb", "99999999", path])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.count("99,999,999 MB") == 1


def test_every_card_known_is_solved_once(tmp_path, monkeypatch):
    """A board whose hands (and kitty) are all known has one deal: it is
    solved once and counted for every sample, the same output as solving
    it each time (a bid question took 100 times bid's time)."""
    import whist_solve.simulate as sim
    calls = []
    real = sim.BidQuestion.solve_sample

    def counted(self, solver, deal):
        calls.append(1)
        return real(self, solver, deal)

    monkeypatch.setattr(sim.BidQuestion, "solve_sample", counted)
    src = (ROOT / "examples" / "deal.pbn").read_text().split("\n\n")
    bw = next(g for g in src if '[Variant "bid"]' in g)
    path = write(tmp_path, "bw.pbn", bw + "\n")
    r = run(["simulate", path, "--json", "-n", "30", "--jobs", "1"])
    assert r.exit_code == 0, r.stderr
    (obj,) = json_lines(r)
    assert obj["question"] == "bid" and obj["samples"] == 30 and len(calls) == 1
    best = next(o for o in obj["options"] if (o["trump"], o["ranking"]) == ("NT", "down"))
    assert best["hist"] == {"13": 30} and best["stderr"] == 0.0
    # the library's simulate() too
    calls.clear()
    from whist_solve.pbn import read_pbn_file
    from whist_solve.cli.simulate_cmd import build_problem
    problem = build_problem(read_pbn_file(path)[0])
    agg = sim.simulate(problem, 12, seed=1)
    assert agg.samples == 12 and len(calls) == 1


def test_a_negative_seed_is_refused_as_deal_refuses_it():
    example = str(ROOT / "examples" / "simulate.pbn")
    for command in (["simulate", "-n", "2", example], ["deal"]):
        r = run([*command, "--seed", "-5"])
        assert r.exit_code == 2 and "--seed" in r.stderr


def test_a_leader_whose_hand_is_not_known_is_said(tmp_path):
    # a lead board (W's hand known, W on lead) asked with --leader S: no
    # lead can be chosen for S's unknown hand, so the tricks question is
    # answered for S's lead; it was answered without a word
    path = write(tmp_path, "l.pbn", LEAD)
    res = run(["simulate", path, "--json", "--count", "3", "--leader", "S"])
    assert res.exit_code == 0, res.stderr
    assert json_lines(res)[0]["question"] == "tricks"
    assert ("--leader S: that hand is not known, so no lead is chosen for it: the tricks "
            "question is answered, with S leading") in res.stderr
    for args in (["--leader", "W"], ["--leader", "S", "--question", "tricks"]):
        res = run(["simulate", path, "--json", "--count", "3", *args])
        assert res.exit_code == 0 and "not known" not in res.stderr, res.stderr


def test_a_time_budget_that_solves_nothing_is_said(tmp_path):
    path = write(tmp_path, "l.pbn", LEAD)
    res = run(["simulate", path, "--json", "--jobs", "1", "--time", "0.000001"])
    assert res.exit_code == 0, res.stderr
    assert json_lines(res)[0]["samples"] == 0
    assert ("board L1: --time 1e-06: the time ran out before the first sample was solved: "
            "no estimate") in res.stderr


def test_a_view_of_no_sample_has_no_table():
    # each question's view of a run stopped before its first sample: the
    # lead view showed a table of empty rows headed "tricks 0..0"
    example = str(ROOT / "examples" / "simulate.pbn")
    res = run(["simulate", example, "--jobs", "1", "--time", "0.000001"])
    assert res.exit_code == 0, res.stderr
    flat = " ".join(res.stdout.replace("\u2502", " ").split())
    assert flat.count("No sample solved.") == 3 and flat.count("0 samples, seed 1") == 3
    assert "0..0" not in flat and "(95%)" not in flat
