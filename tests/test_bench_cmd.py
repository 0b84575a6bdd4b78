"""The `bench` command on small slices of the committed sets."""
from __future__ import annotations

import json
import os

import pytest

from whist_solve import bench, dds_bridge
from whist_solve.cards import format_hand
from whist_solve.dealing import random_deal

from support import BENCH_DATA, needs_dds
from support.cli_run import board, run
from support.procs import pool_children

DATA = str(BENCH_DATA)


@pytest.fixture(autouse=True)
def _sets(monkeypatch):
    """The committed sets of this checkout, however the package is installed."""
    monkeypatch.setenv("WHIST_SOLVE_BENCH_DATA", DATA)


def _bench(*args):
    return run(["bench", *args])


def test_sets_found_in_the_installed_package_away_from_a_checkout(monkeypatch, tmp_path):
    # an installed package (no source tree beside it, no override), run in
    # a folder that has a benchmarks/data of its own: the sets are the
    # package's whist_solve.bench_sets, not that folder's (taken silently
    # before, a set it lacked being "no such file")
    from whist_solve import bench_sets
    monkeypatch.delenv("WHIST_SOLVE_BENCH_DATA")
    monkeypatch.setattr(bench, "_REPO", tmp_path / "no-checkout")
    (tmp_path / "benchmarks" / "data").mkdir(parents=True)
    (tmp_path / "benchmarks" / "data" / "random.pbn").write_text("")
    monkeypatch.chdir(tmp_path)
    here = os.path.dirname(os.path.realpath(bench_sets.__file__))
    assert os.path.realpath(bench.data_dir()) == here
    for name in bench.SET_NAMES:
        assert bench.load_set(name), name


def test_sets_load():
    for name in bench.SET_NAMES:
        tasks = bench.load_set(name)
        assert tasks, name
    ex = bench.load_set("exchange")
    assert [t.label for t in ex] == [f"seed {s}" for s in bench.EXCHANGE_SEEDS]
    assert all(t.kind == "exchange" and len(t.kitty) == 6 and all(len(h) == 12 for h in t.hands)
               for t in ex)
    assert [t.bidder for t in ex] == [s % 4 for s in bench.EXCHANGE_SEEDS]
    assert all(t.kind == "table" and t.ranking == "down" for t in bench.load_set("downtown"))
    assert all(t.kind == "value" and t.jokers for t in bench.load_set("bid"))


def test_bench_json_and_baseline(tmp_path):
    base = tmp_path / "base.json"
    r = _bench("--set", "endings,bid", "--limit", "3", "--json", "--save-baseline", str(base))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    sets = {s["set"]: s for s in doc["sets"]}
    assert sets["endings"]["deals"] == 3 and sets["bid"]["deals"] == 3
    assert sets["endings"]["nodes"] == sum(d["nodes"] for d in sets["endings"]["per_deal"])
    # same deals again: same nodes; a huge threshold so timing noise never fails
    r = _bench("--set", "endings,bid", "--limit", "3", "--json", "--baseline", str(base),
               "--threshold", "100000")
    assert r.exit_code == 0, r.output
    cmp = json.loads(r.stdout.strip().splitlines()[-1])["baseline"]["sets"]
    assert all(not c["nodes_changed"] and not c["values_changed"] and not c["regression"] for c in cmp)


def test_bench_regression_exit_status(tmp_path):
    base = tmp_path / "base.json"
    assert _bench("--set", "random,endings", "--limit", "2",
                  "--save-baseline", str(base)).exit_code == 0
    doc = json.loads(base.read_text())
    for name in ("random", "endings"):
        for d in doc["sets"][name]["per_deal"]:
            d["time"] /= 1000
    base.write_text(json.dumps(doc))
    # two random deals (a second or so) a thousand times slower: a regression
    r = _bench("--set", "random", "--limit", "2", "--baseline", str(base))
    assert r.exit_code == 1 and "REGRESSION random" in r.stderr
    # two endings (a millisecond) a thousand times slower: under the floor
    # of MIN_REGRESSION_SECONDS, the noise of a short set (identical runs
    # of the whole endings set were "regressions" of 11% and 31%)
    r = _bench("--set", "endings", "--limit", "2", "--json", "--baseline", str(base))
    assert r.exit_code == 0, r.stderr
    (c,) = json.loads(r.stdout.strip().splitlines()[-1])["baseline"]["sets"]
    assert c["time_ratio"] > 100 and not c["regression"]
    assert c["time_now"] - c["time_before"] < bench.MIN_REGRESSION_SECONDS


def test_a_baseline_that_compares_nothing_fails(tmp_path):
    """A check against a baseline that holds none of the sets run, or
    other deals, compared nothing and passed (status 0, nothing said)."""
    base = tmp_path / "base.json"
    assert _bench("--set", "endings", "--limit", "2", "--save-baseline", str(base)).exit_code == 0
    r = _bench("--set", "bid", "--limit", "1", "--baseline", str(base))
    assert r.exit_code == 2
    assert f"error: --baseline {base}: nothing was compared (bid: not in the baseline)" in r.stderr
    doc = json.loads(base.read_text())
    doc["sets"]["endings"]["per_deal"][0]["board"] = "elsewhere"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(doc))
    r = _bench("--set", "endings", "--limit", "2", "--baseline", str(other))
    assert r.exit_code == 2 and "endings: the baseline has other deals: not compared" in r.stderr
    # one set compared, one not: the other is warned of
    r = _bench("--set", "endings,bid", "--limit", "1", "--baseline", str(base),
               "--threshold", "100000")
    assert r.exit_code == 0, r.stderr
    assert f"warning: --baseline {base}: bid: not in the baseline" in r.stderr


def test_changed_values_are_the_verdict(tmp_path):
    # the run failed (status 1, VALUES CHANGED on stderr) while the table's
    # verdict said "ok"
    base = tmp_path / "base.json"
    assert _bench("--set", "endings", "--limit", "2", "--save-baseline", str(base)).exit_code == 0
    doc = json.loads(base.read_text())
    doc["sets"]["endings"]["per_deal"][0]["values"][0] += 1
    base.write_text(json.dumps(doc))
    r = _bench("--set", "endings", "--limit", "2", "--baseline", str(base),
               "--threshold", "100000")
    assert r.exit_code == 1 and "VALUES CHANGED endings: boards 1" in r.stderr
    row = next(ln for ln in r.stdout.splitlines() if "endings" in ln and "same" in ln)
    assert "same, values differ: 1" in row and "VALUES CHANGED" in row and " ok " not in row


def test_a_baseline_of_other_settings_is_no_regression(tmp_path):
    """A baseline records its settings: another table size makes other node
    counts (not "the search changed"), another --jobs other times; neither
    is called a regression, and the report says why."""
    base = tmp_path / "base.json"
    assert _bench("--set", "random", "--limit", "2", "--tt-mb", "1",
                  "--save-baseline", str(base)).exit_code == 0
    doc = json.loads(base.read_text())
    for d in doc["sets"]["random"]["per_deal"]:
        d["time"] /= 1000                     # "much faster" then
    base.write_text(json.dumps(doc))
    r = _bench("--set", "random", "--limit", "2", "--json", "--baseline", str(base))
    assert r.exit_code == 0, r.output
    (c,) = json.loads(r.stdout.strip().splitlines()[-1])["baseline"]["sets"]
    assert c["settings_changed"] == [f"--tt-mb 1 (now {bench.DEFAULT_TT_MB:g})"]
    assert not c["nodes_comparable"] and not c["regression"] and not c["values_changed"]
    assert c["nodes_changed"]                 # a 1 MB table searches more
    assert "node counts and times are not comparable" in r.stderr
    assert "the search changed" not in r.stderr
    # same table size, other jobs: the nodes compare, the times do not
    r = _bench("--set", "random", "--limit", "2", "--tt-mb", "1", "--jobs", "2", "--json",
               "--baseline", str(base))
    assert r.exit_code == 0, r.output
    (c,) = json.loads(r.stdout.strip().splitlines()[-1])["baseline"]["sets"]
    assert c["settings_changed"] == ["--jobs 1 (now 2)"]
    assert c["nodes_comparable"] and not c["nodes_changed"] and not c["regression"]
    # settings of the wrong kind: not a baseline (an internal error, or
    # "false" read as true)
    for where, key, value in (("set", "tt_mb", "16"), ("set", "symmetry", "false"),
                              ("top", "jobs", 0)):
        odd = json.loads(base.read_text())
        (odd["sets"]["random"] if where == "set" else odd)[key] = value
        bad = tmp_path / f"odd_{key}.json"
        bad.write_text(json.dumps(odd))
        r = _bench("--set", "random", "--limit", "2", "--baseline", str(bad))
        assert r.exit_code == 2 and "not a baseline saved by --save-baseline" in r.stderr, key
        assert f"'{key}' is {value!r}" in r.stderr
    # the same settings: the regression is called
    r = _bench("--set", "random", "--limit", "2", "--tt-mb", "1", "--baseline", str(base))
    assert r.exit_code == 1 and "REGRESSION" in r.stderr


@needs_dds
def test_bench_compare_dds():
    r = _bench("--set", "endings,bid", "--limit", "4", "--compare-dds", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    sets = {s["set"]: s for s in doc["sets"]}
    assert sets["endings"]["dds"]["checked"] == 4 and not sets["endings"]["dds"]["mismatches"]
    assert "jokers" in sets["bid"]["dds_note"]


@needs_dds
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_bench_signal_ends_the_dds_process(sig):
    import signal
    import subprocess
    import sys
    psutil = pytest.importorskip("psutil")
    proc = subprocess.Popen([sys.executable, "-c", "from whist_solve.cli.main import main; main()",
                             "bench", "--set", "hard", "--compare-dds"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        # the DDS process, started at once
        children = pool_children(psutil, proc.pid, n=1, timeout=10, settle=0.5)
        proc.send_signal(getattr(signal, sig))
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + getattr(signal, sig), err
    assert b"Traceback" not in err
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive                          # it left no DDS process behind


def test_bench_unknown_file():
    assert _bench("--set", "no/such/file.pbn").exit_code == 2


@needs_dds
def test_bench_dds_mismatch_is_loud(monkeypatch):
    real = dds_bridge.dds_solve_task

    def wrong(task):
        values, secs = real(task)
        return [v + 1 for v in values], secs

    monkeypatch.setattr(dds_bridge, "dds_solve_task", wrong)
    r = _bench("--set", "endings", "--limit", "2", "--compare-dds")
    assert r.exit_code == 1
    assert "MISMATCH" in r.output


@pytest.fixture
def fast_exchange(monkeypatch):
    """The exchange set starting with a deal that takes a fraction of a
    second (seed 13); returns the books of its ten options by analyse_bid."""
    from whist_solve.bid import analyse_bid
    monkeypatch.setattr(bench, "EXCHANGE_SEEDS", (13, 0))
    return [ex.books for ex in analyse_bid(*random_deal(13))]


def test_bench_exchange_json_and_baseline(tmp_path, fast_exchange):
    base = tmp_path / "base.json"
    r = _bench("--set", "exchange", "--limit", "1", "--json", "--save-baseline", str(base))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    (s,) = doc["sets"]
    assert s["set"] == "exchange" and s["deals"] == 1 and s["kind"] == ["exchange"]
    assert s["tt_mb"] == bench.EXCHANGE_TT_MB
    (deal,) = s["per_deal"]
    assert deal["board"] == "seed 13"
    assert deal["values"] == fast_exchange          # the ten options' books
    assert deal["nodes"] == s["nodes"] > 0
    assert s["median"] == s["p90"] == s["max"] and abs(s["max"] - deal["time"]) < 1e-5
    assert s["deals_per_s"] > 0
    saved = json.loads(base.read_text())["sets"]["exchange"]
    assert saved["per_deal"][0]["values"] == fast_exchange
    # the same deal again: the same nodes and books
    r = _bench("--set", "exchange", "--limit", "1", "--json", "--baseline", str(base),
               "--threshold", "100000")
    assert r.exit_code == 0, r.output
    (cmp,) = json.loads(r.stdout.strip().splitlines()[-1])["baseline"]["sets"]
    assert cmp["set"] == "exchange" and cmp["nodes_now"] == cmp["nodes_before"]
    assert not cmp["nodes_changed"] and not cmp["values_changed"] and not cmp["regression"]


def test_bench_exchange_report(fast_exchange):
    r = _bench("--set", "exchange", "--limit", "1")
    assert r.exit_code == 0, r.output
    row = [ln for ln in r.stdout.splitlines() if "exchange" in ln and "│" in ln]
    assert len(row) == 1 and row[0].split("│")[2].strip() == "1"      # deals


@needs_dds
def test_bench_exchange_compare_dds_does_not_apply(fast_exchange):
    r = _bench("--set", "exchange", "--limit", "1", "--compare-dds", "--json")
    assert r.exit_code == 0, r.output
    (s,) = json.loads(r.stdout.strip().splitlines()[-1])["sets"]
    assert "does not apply" in s["dds_note"] and "dds" not in s


def _make_sets():
    import importlib.util
    path = os.path.join(os.path.dirname(DATA), "make_sets.py")
    spec = importlib.util.spec_from_file_location("make_sets", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_make_sets_random_set_and_committed_files(capsys):
    from whist_solve.pbn import read_pbn
    make_sets = _make_sets()
    assert make_sets.main(["--random", "2026", "3"]) == 0
    text = capsys.readouterr().out
    boards = read_pbn(text, "seed 2026")
    assert len(boards) == 3
    for b in boards:
        b.check()
        cards = [c for h in b.hands for c in h]
        assert len(cards) == 52 and len(set(cards)) == 52
    # the same seed gives the same deals; another seed others
    assert make_sets.main(["--random", "2026", "3"]) == 0
    assert capsys.readouterr().out == text
    assert make_sets.main(["--random", "2027", "3"]) == 0
    assert capsys.readouterr().out != text
    # the committed sets are the ones their seeds give
    assert make_sets.main(["--check"]) == 0


def test_bench_bad_board_is_named_and_the_others_run(tmp_path):
    # SPEC: bad input names the file and the board; the other boards of the
    # file are still run; exit status 2
    tasks = bench.load_set("random")[:2]
    good = "".join(board(i + 1, "N:" + " ".join(format_hand(h) for h in t.hands))
                   for i, t in enumerate(tasks))
    path = tmp_path / "mixed.pbn"
    path.write_text(good + board(3, "N:AKQJ.. 2.. 3.. 4.."))
    r = run(["bench", "--set", str(path), "--json"])
    assert r.exit_code == 2
    assert "mixed.pbn" in r.stderr and "board 3" in r.stderr
    doc = json.loads(r.stdout)
    assert doc["status"] == 2
    assert doc["sets"][0]["deals"] == 2
    assert len(doc["bad_boards"]) == 1 and "board 3" in doc["bad_boards"][0]


def test_bench_no_symmetry_searches_every_result(tmp_path):
    # a composed deal that turns into itself by one seat (each hand the
    # previous seat's, the suits renamed S->H->D->C->S): by default its
    # table is read off one of each family, --no-symmetry searches all
    path = tmp_path / "turned.pbn"
    path.write_text(board(1, "N:AT.K.Q.J J.AT.K.Q Q.J.AT.K K.Q.J.AT")
                    + board(2, "N:" + " ".join(format_hand(h) for h in bench.load_set("endings")[0].hands)))
    runs = {flag: run(["bench", "--set", str(path), "--json", *flag]) for flag in ((), ("--no-symmetry",))}
    docs = {flag: json.loads(r.stdout) for flag, r in runs.items()}
    assert all(r.exit_code == 0 for r in runs.values()), [r.stderr for r in runs.values()]
    on, off = (docs[f]["sets"][0] for f in ((), ("--no-symmetry",)))
    assert on["symmetry"] is True and off["symmetry"] is False
    assert [d["values"] for d in on["per_deal"]] == [d["values"] for d in off["per_deal"]]
    assert 0 < on["per_deal"][0]["nodes"] < off["per_deal"][0]["nodes"]
    assert on["per_deal"][1]["nodes"] == off["per_deal"][1]["nodes"]     # no symmetry there
    text = run(["bench", "--set", str(path), "--no-symmetry"])
    assert "every result searched" in text.stdout


# --------------------------------------------------------------------------
# --compare-bridge-solver, with a stand-in for the binary: a script that
# reads bridge-solver's input file and prints its output format, the values
# taken from our own dd_table (``wrong``: one value off; ``fail``: exit 1)

_FAKE_BS = '''#!{python}
import sys
from whist_solve import dd_table

mode = {mode!r}
if mode == "hang":
    import time
    time.sleep(120)
if mode == "fail":
    sys.stderr.write("cannot solve this deal\\n")
    sys.exit(1)
if mode == "flood":
    while True:
        sys.stdout.write("x" * 65536)
if mode == "child":                   # a child that outlives it, holding its pipes
    import subprocess
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", sys.argv[0]])
path = sys.argv[sys.argv.index("-f") + 1]
lines = [ln for ln in open(path).read().splitlines() if ln.strip()]
west, east = lines[1].split("    ", 1)
def hand(text):
    return [s + r for s, ranks in zip("SHDC", text.split()) if ranks != "-" for r in ranks]
hands = [hand(lines[0]), hand(east), hand(lines[2]), hand(west)]      # N E S W
table = dd_table(hands)
for letter, strain in (("N", "NT"), ("S", "S"), ("H", "H"), ("D", "D"), ("C", "C")):
    ns = table[strain]["up"]                   # North-South's tricks by leader
    # declarer South, North, West, East: leaders West, East, North, South
    row = [ns["W"], ns["E"], 13 - ns["N"], 13 - ns["S"]]
    if mode == "wrong" and letter == "H":
        row[0] = (row[0] + 1) % 14
    print(letter, *row, " 0.01 s  1.0 M")
'''


def _fake_bs(tmp_path, mode="right"):
    import stat
    import sys
    path = tmp_path / f"bridge-solver-{mode}"
    path.write_text(_FAKE_BS.format(python=sys.executable, mode=mode))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def test_bridge_solver_input_and_output_format():
    from whist_solve import bridge_solver as bs
    (task,) = bench.load_set("random")[:1]
    assert bs.applies(task)
    text = bs.input_text(task.hands)
    north, middle, south = text.splitlines()
    west, east = middle.split("    ", 1)
    for line, hand in zip((north, east.strip(), south, west), task.hands):
        suits = line.split()
        assert len(suits) == 4
        assert sorted(s + r for s, ranks in zip("SHDC", suits) if ranks != "-" for r in ranks) \
            == sorted(hand)
    out = ("  heading\nN  7  6  6  6  0.12 s  14.7 M\nS  6  6  7  7  0.21 s  14.9 M\n"
           "H  6  6  7  7  0.23 s\nD  7  7  6  6\nC  7  7  6  5  0.35 s  14.9 M\n")
    values = bs.parse_output(out)
    got = dict(zip(task.keys(), values))
    # declarer South/North/West/East = leader West/East/North/South
    assert [got[f"NT {s}"] for s in "WENS"] == [7, 6, 13 - 6, 13 - 6]
    assert [got[f"C {s}"] for s in "WENS"] == [7, 7, 13 - 6, 13 - 5]
    assert len(values) == 20
    with pytest.raises(bs.BridgeSolverError):
        bs.parse_output(out.replace("D  7", "X  7"))           # a strain missing
    with pytest.raises(bs.BridgeSolverError):
        bs.parse_output("")
    assert not any(bs.applies(t) for name in ("downtown", "bid", "endings")
                   for t in bench.load_set(name)[:3])


def test_bridge_solver_that_hangs_is_stopped(tmp_path):
    psutil = pytest.importorskip("psutil")
    from whist_solve import bridge_solver as bs
    (task,) = bench.load_set("random")[:1]
    fake = _fake_bs(tmp_path, "hang")
    peer = bs.BridgeSolver(fake, timeout=1.0)
    with pytest.raises(bs.BridgeSolverError, match="no answer on board .* within 1 s"):
        peer.solve(task)
    # this test's own fake only (the tests may run side by side: pytest -n)
    assert not _still_running(psutil, fake)


def test_bridge_solver_that_floods_is_stopped(tmp_path):
    from whist_solve import bridge_solver as bs
    (task,) = bench.load_set("random")[:1]
    peer = bs.BridgeSolver(_fake_bs(tmp_path, "flood"), timeout=60.0)
    with pytest.raises(bs.BridgeSolverError, match="printed more than 1 MB on board"):
        peer.solve(task)


def test_bridge_solver_children_end_with_its_run(tmp_path):
    # the run is read until the binary exits, not until its child closes
    # the pipes, and the child is stopped with it
    psutil = pytest.importorskip("psutil")
    from whist_solve import bridge_solver as bs
    (task,) = bench.load_set("random")[:1]
    fake = _fake_bs(tmp_path, "child")
    values, _seconds = bs.BridgeSolver(fake, timeout=60.0).solve(task)
    right, _ = bs.BridgeSolver(_fake_bs(tmp_path), timeout=60.0).solve(task)
    assert values == right
    assert not _still_running(psutil, fake)


def _still_running(psutil, fake):
    """The processes of the fake binary `fake` that are still alive a few
    seconds after its run ended.  (They were sent SIGKILL when the run
    ended; a process acts on it when it next runs: on a busy machine one
    was still 'running' the moment the call returned.)"""
    procs = [p for p in psutil.process_iter(["cmdline"])
             if any(fake in a for a in (p.info["cmdline"] or []))]
    _gone, alive = psutil.wait_procs(procs, timeout=10)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_bench_stops_a_bridge_solver_that_hangs(tmp_path):
    r = _bench("--set", "random", "--limit", "1", "--compare-bridge-solver",
               _fake_bs(tmp_path, "hang"), "--peer-timeout", "1")
    assert r.exit_code == 2 and "within 1 s" in r.stderr and "Traceback" not in r.stderr


def test_bench_compare_bridge_solver_json(tmp_path):
    fake = _fake_bs(tmp_path)
    r = _bench("--set", "random,endings", "--limit", "2", "--compare-bridge-solver", fake, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    assert fake in doc["bridge_solver"] and doc["status"] == 0
    sets = {s["set"]: s for s in doc["sets"]}
    b = sets["random"]["bridge_solver"]
    assert b["checked"] == 2 and b["mismatches"] == []
    assert set(b) == {"time", "median", "p90", "max", "ratio", "checked", "mismatches"}
    assert set(b["ratio"]) == {"total", "median", "p90", "max"}
    assert 0 < b["median"] <= b["p90"] <= b["max"] <= b["time"]
    assert "bridge_solver_note" not in sets["random"]
    assert "bridge_solver" not in sets["endings"]
    assert "does not apply" in sets["endings"]["bridge_solver_note"]


def test_bench_compare_bridge_solver_table(tmp_path):
    fake = _fake_bs(tmp_path)
    r = _bench("--set", "random,downtown", "--limit", "1", "--compare-bridge-solver", fake)
    assert r.exit_code == 0, r.output
    assert "ours / bridge-solver" in r.stdout
    rows = {ln.split("│")[1].strip(): [c.strip() for c in ln.split("│")[2:-1]]
            for ln in r.stdout.split("ours / bridge-solver")[1].splitlines() if ln.count("│") > 3}
    assert rows["random"][0] == "1" and rows["random"][-1] == "all 20 equal"
    assert all(c.endswith("x") for c in rows["random"][2:6])
    assert rows["downtown"][0] == "0" and rows["downtown"][-1] == "not comparable"
    assert "downtown: --compare-bridge-solver does not apply" in " ".join(r.stdout.split())


def test_bench_bridge_solver_mismatch_is_loud(tmp_path):
    fake = _fake_bs(tmp_path, "wrong")
    r = _bench("--set", "random", "--limit", "2", "--compare-bridge-solver", fake, "--json")
    assert r.exit_code == 1
    assert "MISMATCH" in r.stderr and "bridge-solver" in r.stderr
    (s,) = json.loads(r.stdout.strip().splitlines()[-1])["sets"]
    m = s["bridge_solver"]["mismatches"]
    assert len(m) == 2 and all(x["what"] == "H W" for x in m)
    assert all(x["bridge_solver"] == (x["ours"] + 1) % 14 for x in m)


def test_bench_bridge_solver_missing_or_failing(tmp_path):
    for binary, words in ((str(tmp_path / "no-such-solver"), "no such file"),
                          (str(tmp_path), "folder"),
                          (_fake_bs(tmp_path, "fail"), "cannot solve this deal")):
        r = _bench("--set", "random", "--limit", "1", "--compare-bridge-solver", binary)
        assert r.exit_code == 2, (binary, r.output)
        assert "error:" in r.stderr and words in r.stderr and "Traceback" not in r.output
    plain = tmp_path / "not-executable"
    plain.write_text("")
    plain.chmod(0o644)
    r = _bench("--set", "random", "--limit", "1", "--compare-bridge-solver", str(plain))
    assert r.exit_code == 2 and "not executable" in r.stderr


@needs_dds
def test_bench_both_peers_in_one_table(tmp_path):
    r = _bench("--set", "random", "--limit", "1", "--compare-dds",
               "--compare-bridge-solver", _fake_bs(tmp_path))
    assert r.exit_code == 0, r.output
    peers = [ln.split("│")[2].strip() for ln in r.stdout.split("ours / peers")[1].splitlines()
             if ln.count("│") > 3]
    assert peers == ["DDS", "bridge-solver"]


@pytest.mark.parametrize("args, words", [
    (["--peer-timeout", "nan"], "nan: expected a number"),      # was: ValueError from the run
    (["--peer-timeout", "inf"], "--peer-timeout"),              # was: OverflowError from the run
    (["--peer-timeout", "1e300"], "--peer-timeout"),
    (["--threshold", "nan"], "nan: expected a number"),         # was: no regression ever
])
def test_bench_time_options_that_are_no_number_are_usage_errors(args, words):
    r = run(["bench", "--limit", "1", "--compare-bridge-solver", "/bin/true", *args])
    assert r.exit_code == 2
    assert words in " ".join(r.stderr.split()) and "Error" not in r.stdout
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("where,problem", [("dir", "it is a directory"),
                                           ("no/such/base.json", "no directory")])
def test_bench_baseline_that_cannot_be_written_is_refused_before_the_run(tmp_path, where,
                                                                         problem):
    target = tmp_path if where == "dir" else tmp_path / where
    r = _bench("--set", "endings", "--limit", "2", "--save-baseline", str(target))
    assert r.exit_code == 2
    said = " ".join(r.stderr.replace("\u2502", " ").split())
    assert "cannot write the baseline" in said and problem in said
    assert "deal(s)" not in r.stderr and r.stdout == ""      # nothing was measured


def _two_deals(tmp_path, name, labels=("1", "2"), seed=3):
    import random
    from whist_solve.cards import full_deck
    rng = random.Random(seed)
    text = ""
    for label in labels:
        deck = full_deck()
        rng.shuffle(deck)
        text += board(label, "N:" + " ".join(format_hand(deck[k * 5:(k + 1) * 5]) for k in range(4)))
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_baseline_is_not_written_over_an_input_or_the_output(tmp_path):
    """--save-baseline naming the input file replaced the PBN by the
    baseline; /dev/stdout mixed it with the table."""
    path = _two_deals(tmp_path, "deals.pbn")
    before = path.read_text()
    r = _bench("--set", str(path), "--save-baseline", str(path))
    assert r.exit_code == 2 and "it is the input file" in r.stderr
    assert path.read_text() == before


def test_repeated_labels_are_compared_deal_by_deal(tmp_path):
    """Two deals labelled 1 in one file: the second took the first's place
    in the baseline's index, and the same code and file were said to have
    changed values (exit 1)."""
    path = _two_deals(tmp_path, "dup.pbn", labels=("1", "1"))
    base = tmp_path / "base.json"
    assert _bench("--set", str(path), "--save-baseline", str(base)).exit_code == 0
    # (times of milliseconds: any threshold of time would make this a test
    # of the machine's load)
    r = _bench("--set", str(path), "--baseline", str(base), "--json", "--threshold", "1000000")
    assert r.exit_code == 0, r.stderr
    (cmp,) = json.loads(r.stdout)["baseline"]["sets"]
    assert cmp["values_changed"] == [] and cmp["nodes_changed"] == []
    assert "VALUES CHANGED" not in r.stdout + r.stderr


def test_two_files_of_one_name_are_both_run(tmp_path):
    """a/deals.pbn and b/deals.pbn: the second was dropped without a word;
    a user's random.pbn is not the shipped random set."""
    a = _two_deals(tmp_path, "a/deals.pbn", seed=1)
    b = _two_deals(tmp_path, "b/deals.pbn", seed=2)
    r = _bench("--set", str(a), "--set", str(b), "--json")
    assert r.exit_code == 0, r.stderr
    sets = json.loads(r.stdout)["sets"]
    names = [s["set"] for s in (sets if isinstance(sets, list) else sets.values())]
    assert len(names) == 2 and len(set(names)) == 2
    mine = _two_deals(tmp_path, "other/random.pbn", seed=4)
    assert bench.resolve_sets([str(mine)])[0][0] == str(mine)


def test_baseline_options_with_only_the_simulate_set_are_refused(tmp_path):
    r = _bench("--set", "simulate", "--limit", "2", "--save-baseline", str(tmp_path / "b.json"))
    assert r.exit_code == 2 and "the simulate set is measured apart" in r.stderr
    assert not (tmp_path / "b.json").exists()


def test_a_bridge_solver_named_without_a_folder_is_the_one_here(tmp_path, monkeypatch):
    from whist_solve.bridge_solver import BridgeSolver
    monkeypatch.chdir(tmp_path)
    here = tmp_path / "solver"
    here.write_text("#!/bin/sh\n")
    here.chmod(0o755)
    assert BridgeSolver("solver").path == str(here)


def test_asking_whether_dds_is_there_does_not_load_it():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", "import sys; from whist_solve.dds_bridge import "
                        "dds_available; dds_available(); print('endplay.dds' in sys.modules)"],
                       capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "False", r.stderr


def test_a_copy_of_a_shipped_set_keeps_its_name(tmp_path, monkeypatch):
    """The checkout's benchmarks/data/endings.pbn, run by an installed
    package whose sets live elsewhere, is still the endings set (its
    baseline was 'not in the baseline' from a fresh clone)."""
    import shutil
    installed = tmp_path / "installed"
    installed.mkdir()
    shutil.copy(os.path.join(DATA, "endings.pbn"), installed)
    monkeypatch.setenv("WHIST_SOLVE_BENCH_DATA", str(installed))
    assert bench.resolve_sets([os.path.join(DATA, "endings.pbn")])[0][0] == "endings"


def test_an_unknown_set_name_lists_the_sets(tmp_path):
    r = _bench("--set", "randon")
    assert r.exit_code == 2
    assert ("randon: no such file (a set is one of random, downtown, bid, endings, margin, "
            "hard, exchange, simulate and all, or a PBN file; did you mean random?)") in r.stderr
    r = _bench("--set", str(tmp_path / "gone.pbn"))
    assert r.exit_code == 2 and "no such file" in r.stderr and "a set is one of" not in r.stderr
