"""Hostile input and hostile endings: options, signals, pipes, resource
limits, large or strange files.  Whatever happens, the command ends with a
one-line message and a documented exit status, never a traceback:

    0 success, 1 a negative verdict, 2 bad usage, bad input or an internal
    error, 130 interrupted (Ctrl-C), 141 standard output closed by its reader.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import ROOT
from support.cli_run import board, json_lines, run

from whist_solve.board import Board
from whist_solve.errors import WhistError
from whist_solve.pbn import read_pbn, read_pbn_file
from whist_solve.vocab import parse_contract

# A two-card ending at no-trump, North to lead (N-S take 2 with SA, S2).
TWO = "N:A2... K..2. ...32 ..43."
GOOD = board("1", TWO, '[Trump "NT"]', '[Leader "N"]')
HUGE = "9" * 5000


def cli(*args, stdin=subprocess.DEVNULL, env=None, timeout=120, shell=None):
    """The installed command in a process of its own: (status, stdout, stderr)."""
    cmd = [sys.executable, "-m", "whist_solve.cli.main", *args]
    e = dict(os.environ, **(env or {}))
    if shell is not None:
        cmd = ["sh", "-c", " ".join(f"'{c}'" for c in cmd) + " " + shell]
    p = subprocess.run(cmd, stdin=stdin, capture_output=True, timeout=timeout, env=e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "Error:" not in text.replace("error:", ""), text


def write(tmp_path, name, data):
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return str(path)


# ---- 1: the transposition table and the memory -----------------------------

@pytest.mark.parametrize("command", ["solve", "table"])
def test_tt_larger_than_memory_is_a_clear_error(tmp_path, command):
    path = write(tmp_path, "a.pbn", GOOD)
    status, out, err = cli(command, path, "--tt-mb", "100000000")
    no_traceback(err)
    assert status == 2, err
    assert err.count("memory available") == 1, err


def test_tt_larger_than_memory_in_the_library():
    from whist_solve.engine import Solver
    with pytest.raises(WhistError, match="memory"):
        Solver(tt_mb=100_000_000)


def test_a_big_table_is_not_touched_up_front(tmp_path):
    """--tt-mb 3000 on a 2-card ending: the table's pages are given by the
    system as they are used, so the process stays small."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs /proc")
    code = ("from whist_solve.engine import Solver; "
            "from whist_solve.cards import Position; "
            "s = Solver(tt_mb=3000); "
            "p = Position.make([['SA','S2'],['SK','D2'],['C3','C2'],['D4','D3']], None, 'up', 0); "
            "assert s.solve(p).tricks == 2; "
            # VmHWM, the peak of this process image (ru_maxrss would keep
            # the peak of the forking test process across exec)
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])")
    from whist_solve.engine import available_memory_mb
    if available_memory_mb() is not None and available_memory_mb() < 3200:
        pytest.skip("not enough memory for a 3000 MB table")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) < 300_000, out.stdout   # kB: far below 3000 MB


# ---- 2: numbers too big ------------------------------------------------------

def test_more_jobs_than_a_number_can_count_is_the_machine_s_cores(tmp_path):
    """--jobs past sys.maxsize: no pool has more workers than CPUs anyway."""
    path = write(tmp_path, "a.pbn", GOOD)
    status, out, err = cli("table", path, "--jobs", "1" + "0" * 30, "--json")
    assert status == 0, err
    assert json.loads(out.splitlines()[0])["table"]


@pytest.mark.parametrize("args", [["deal", "--variant", "x" * 100000],
                                  ["table", "--strain", "y" * 100000, "-"]])
def test_a_huge_bad_option_value_is_cut_in_the_message(args):
    status, out, err = cli(*args)
    assert status == 2, err
    assert "\u2026" in err and len(err) < 2000, err[:3000]


def test_huge_level_is_a_parse_error():
    with pytest.raises(WhistError):
        parse_contract(HUGE + "S")
    status, out, err = cli("check", str(ROOT / "puzzles" / "bidwhist.pbn"), "--contract", HUGE + "S")
    no_traceback(err)
    assert status == 2, err


def test_huge_numbers_in_contract_and_goal_tags():
    b = read_pbn(board("1", TWO, f'[Contract "{HUGE}S"]', f'[Goal "NS {HUGE}"]'))[0]
    with pytest.raises(WhistError):
        b.contract()
    with pytest.raises(WhistError):
        b.goal()
    b = read_pbn(board("1", TWO, f'[Contract "99999999999999999999S"]', '[Goal "NS 99999999999999999"]'))[0]
    with pytest.raises(WhistError):
        b.contract()
    with pytest.raises(WhistError):
        b.goal()


def test_huge_goal_in_puzzles_is_reported_as_bad_input(tmp_path):
    path = write(tmp_path, "g.pbn", board("1", TWO, '[Trump "NT"]', '[Leader "N"]', f'[Goal "NS {HUGE}"]'))
    result = run(["puzzles", path])
    assert result.exit_code == 2
    assert "internal error" not in result.stderr and "Goal" in result.stderr, result.stderr


# ---- 3: standard input closed ---------------------------------------------------

def test_play_with_stdin_closed(tmp_path):
    path = write(tmp_path, "a.pbn", GOOD)
    status, out, err = cli("play", path, shell="<&-")
    no_traceback(err)
    assert "AttributeError" not in err
    assert status == 2, (status, err)
    assert "standard input" in err


def test_play_input_its_encoding_cannot_decode(tmp_path):
    """Bytes that are not ASCII typed under PYTHONIOENCODING=ascii: lines
    that are not cards (the play goes on to the card after them), not an
    internal error."""
    path = write(tmp_path, "a.pbn", GOOD)
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "play", path],
                       input=b"\xff\xfe\n\xc3\xa9\nSA\nquit\n", capture_output=True, timeout=120,
                       env=dict(os.environ, PYTHONIOENCODING="ascii"))
    out, err = p.stdout.decode("ascii", "replace"), p.stderr.decode("ascii", "replace")
    no_traceback(err)
    assert p.returncode == 0, err
    assert "internal error" not in err
    assert "Summary: 1 card played" in out, out


@pytest.mark.parametrize("command", ["solve", "table"])
def test_reading_a_closed_stdin(command):
    status, out, err = cli(command, "-", shell="<&-")
    no_traceback(err)
    assert "AttributeError" not in err and "standard input" in err, err
    assert status == 2


# ---- 4: bench baselines -----------------------------------------------------------

def _bench(*args):
    return cli("bench", "--set", str(ROOT / "benchmarks" / "data" / "endings.pbn"),
               "--limit", "2", *args)


def test_bench_baseline_that_is_not_one(tmp_path):
    for text in ("[1, 2]", '{"sets": 3}', '{"sets": {"endings": {"per_deal": 5}}}', "not json"):
        path = write(tmp_path, "b.json", text)
        status, out, err = _bench("--baseline", path)
        no_traceback(err)
        assert status == 2, err
        assert "baseline" in err


def _deals(time, nodes=1):
    per = ", ".join(f'{{"board": "{b}", "nodes": {nodes}, "time": {time}}}' for b in ("1", "2"))
    return '{"sets": {"endings": {"per_deal": [' + per + ']}}}'


@pytest.mark.parametrize("time", ["Infinity", "NaN", "-1", "true", "1e308", "1" + "0" * 400])
def test_bench_baseline_times_that_are_not_times(tmp_path, time):
    """JSON's parser takes NaN and Infinity; times that add up to more
    than a float holds would give Infinity in the --json report."""
    path = write(tmp_path, "b.json", _deals(time))
    status, out, err = _bench("--baseline", path)
    no_traceback(err)
    assert status == 2, err
    assert "baseline" in err


def test_bench_baseline_of_tiny_times_gives_valid_json(tmp_path):
    path = write(tmp_path, "b.json", _deals("1e-320"))
    status, out, err = _bench("--baseline", path, "--json")
    assert status in (0, 1), err
    for line in out.splitlines():
        doc = json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in {line}"))
    assert doc["baseline"]["sets"][0]["time_ratio"] is None, doc["baseline"]


def test_bench_baseline_too_big_to_be_one(tmp_path, monkeypatch):
    from whist_solve import bench
    from whist_solve.bench import BenchError, read_baseline
    monkeypatch.setattr(bench, "MAX_BASELINE_BYTES", 1000)
    path = write(tmp_path, "big.json", '{"sets": {}, "pad": "' + "x" * 2000 + '"}')
    with pytest.raises(BenchError, match="more than"):
        read_baseline(path)
    if os.path.exists("/dev/zero"):
        with pytest.raises(BenchError, match="/dev/zero: more than"):
            read_baseline("/dev/zero")


def test_bench_baseline_nested_too_deep(tmp_path):
    from whist_solve.bench import BenchError, read_baseline
    deep = write(tmp_path, "deep.json", "[" * 100000 + "]" * 100000)
    with pytest.raises(BenchError, match="nested too deep"):
        read_baseline(deep)


def test_bench_save_baseline_to_a_folder_or_a_missing_folder(tmp_path):
    for target in (str(tmp_path), str(tmp_path / "no" / "such" / "b.json")):
        status, out, err = _bench("--save-baseline", target)
        no_traceback(err)
        assert status == 2, err
        assert "cannot write the baseline" in " ".join(err.replace("\u2502", " ").split())
        assert out == "", "refused before the benchmark runs"


# ---- 6: closed pipe, interrupt, the error boundary ---------------------------------

@pytest.mark.parametrize("args", [["table", "--json"], ["solve"], ["table"]])
def test_closed_pipe_exit_status(tmp_path, args):
    """--json writes with print, the views with rich: both end with 141."""
    path = str(ROOT / "puzzles" / "classic.pbn")
    p = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", args[0], path, *args[1:]],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert first.strip()
    assert err == "", err
    assert p.returncode == 141


@pytest.mark.parametrize("args", [["--help"], ["table", "--help"]])
def test_help_into_a_closed_pipe_exits_141(args):
    """The help (printed by Typer with rich) into a pipe whose reader has
    gone: 141 and nothing on stderr, as for the results, not rich's own
    status 1.  The reader is gone before the command starts, so the
    first write fails whatever the size of the pipe's buffer."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", *args], cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(w)
    assert p.stderr.decode() == ""
    assert p.returncode == 141


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["bench", "--set", "endings", "--limit", "2"],
                                  ["table", "examples/deal.pbn"],
                                  ["puzzles", "puzzles/classic.pbn"]])
def test_a_stderr_that_cannot_be_written_loses_only_the_messages(args):
    """2>/dev/full: the results on stdout and the exit status are those of a
    run whose stderr works."""
    def once(stderr):
        with open(stderr, "w") as f:
            p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", *args], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=f,
                               timeout=300)
        return p.returncode, p.stdout
    full, null = once("/dev/full"), once(os.devnull)
    assert full[0] == null[0] == 0
    assert full[1].count(b"\n") == null[1].count(b"\n") > 0


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["table", "examples/deal.pbn", "examples/bidwhist.pbn", "--json"],
                                  ["table", "examples/deal.pbn", "examples/bidwhist.pbn",
                                   "--jobs", "2"],
                                  ["table", "examples/deal.pbn", "--csv"],
                                  ["solve", "examples/deal.pbn"],
                                  ["review", "examples/played.pbn", "--json"],
                                  ["deal", "--count", "3"]])
def test_a_stdout_that_cannot_be_written_stops_the_run_with_one_message(args):
    """>/dev/full: one message naming standard output, status 2; no board
    is blamed for it and the run does not go on to solve the rest."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", *args], cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=full, stderr=subprocess.PIPE,
                           timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert err.strip().splitlines() == [
        "error: cannot write standard output (No space left on device)"], err


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGXFSZ"), reason="needs RLIMIT_FSIZE")
def test_a_file_size_limit_on_stdout_stops_the_run(tmp_path):
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
    out = tmp_path / "out.jsonl"
    with open(out, "w") as f:
        p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "table",
                            "examples/deal.pbn", "examples/bidwhist.pbn", "--json"], cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.PIPE,
                           timeout=300, preexec_fn=limit)
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert err.strip().splitlines() == ["error: cannot write standard output (File too large)"], err
    assert out.stat().st_size <= 200


def test_help_into_dev_null_is_a_success():
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "--help"], cwd=ROOT,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=120)
    assert p.returncode == 0, p.stderr.decode()


def _entry(*args, env):
    """The command as the console script starts it (whist_solve.cli.entry)."""
    p = subprocess.run([sys.executable, "-c", "from whist_solve.cli.entry import main; main()",
                        *args], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=120, env=dict(os.environ, **env))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


@pytest.mark.parametrize("columns", ["0", "1", "3"])
def test_a_terminal_too_narrow_still_gets_the_results(columns):
    """At COLUMNS of 0 to 3 rich drew the boxes without their contents."""
    narrow = _entry("solve", "examples/deal.pbn", env={"COLUMNS": columns})
    forty = _entry("solve", "examples/deal.pbn", env={"COLUMNS": "40"})
    assert narrow[0] == 0 and narrow[1] == forty[1]
    assert forty[1].count("\n") > 50


@pytest.mark.parametrize("name,value", [("COLUMNS", "10000000000"), ("COLUMNS", "9" * 30),
                                        ("TERMINAL_WIDTH", "10000000000"),
                                        ("TERMINAL_WIDTH", "abc")])
def test_a_terminal_width_out_of_reason_keeps_the_help_small(name, value):
    """At COLUMNS=10**10 the help's memory grew until the machine ran out;
    a TERMINAL_WIDTH that is not a number failed when Typer was imported."""
    status, out, err = _entry("--help", env={name: value})
    assert status == 0, err
    assert err == "" and 0 < len(out) < 100_000
    status, out, err = _entry("solve", "--bogus", env={name: value})
    assert status == 2 and len(err) < 20_000, err[:500]


# Run as the console script does, with Ctrl-C arriving while the commands'
# modules are imported (here: when Typer is).
_INTERRUPT_AT_IMPORT = """
import builtins, sys
real = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "typer":
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = importing
sys.argv = ["whist-solve", "--version"]
from whist_solve.cli.entry import main
sys.exit(main())
"""


def test_interrupt_while_starting_is_not_a_traceback():
    p = subprocess.run([sys.executable, "-c", _INTERRUPT_AT_IMPORT], cwd=ROOT,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert p.stderr.decode() == "interrupted\n"
    assert p.returncode == 130


def test_the_console_script_starts_at_the_entry_module():
    from importlib.metadata import entry_points
    (script,) = entry_points(group="console_scripts", name="whist-solve")
    assert script.value == "whist_solve.cli.entry:main"


def test_importing_the_package_imports_none_of_its_modules():
    """What runs before the entry's error boundary is only the package's
    __init__; its names are still all there, imported when asked for."""
    code = ("import sys, whist_solve; "
            "print(sorted(m for m in sys.modules if m.startswith('whist_solve.'))); "
            "from whist_solve import *; print(Solver.__module__, summarize.__module__)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=True)
    assert p.stdout.decode().splitlines() == ["[]", "whist_solve.engine whist_solve.bid"]


@pytest.mark.parametrize("args", [["solve", "puzzles/classic.pbn"], ["solve", "no/such.pbn"],
                                  ["--help"]])
def test_closed_stdout_is_one_error(args):
    """Started with standard output closed (`>&-`): one line, status 2."""
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", *args], cwd=ROOT,
                       stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                       preexec_fn=lambda: os.close(1))
    err = p.stderr.decode()
    assert err.splitlines() == ["error: standard output is closed"], err
    assert p.returncode == 2


def test_interrupt_says_so_and_exits_130():
    p = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", "deal", "--count", "100000000",
                          "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import select
    try:
        ready, _, _ = select.select([p.stdout], [], [], 30)
        assert ready, "nothing written in 30 s: the deals are not written as they are made"
        first = p.stdout.readline()
        time.sleep(0.5)
    except BaseException:
        p.kill()
        p.communicate()
        raise
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert first.startswith(b"% PBN")
    assert p.returncode == 130
    assert err.decode().strip() == "interrupted"
    assert (first + out).decode().rstrip().endswith("]") or b"[Deal" in out


def test_unexpected_error_is_one_line(monkeypatch, tmp_path):
    """Whatever escapes a command is one line on stderr and exit 2; the
    traceback only with WHIST_SOLVE_DEBUG=1."""
    import whist_solve.cli.solve_cmd as solve_cmd

    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(solve_cmd, "map_prepared", boom)
    monkeypatch.delenv("WHIST_SOLVE_DEBUG", raising=False)
    path = write(tmp_path, "a.pbn", GOOD)
    result = run(["solve", path])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "boom" in result.stderr, result.stderr
    monkeypatch.setenv("WHIST_SOLVE_DEBUG", "1")
    with pytest.raises(RuntimeError):
        run(["solve", path])


def test_sigterm_that_escapes_a_command_exits_143(monkeypatch, tmp_path):
    """SIGTERM or SIGHUP met where no command catches it (batch.Terminated
    reaching the error boundary) ends as the README says: 128 + the
    signal's number and "terminated", not 130 and "interrupted"."""
    import whist_solve.cli.simulate_cmd as simulate_cmd
    from whist_solve.batch import Terminated

    def term(*a, **k):
        raise Terminated(signal.SIGTERM)

    monkeypatch.setattr(simulate_cmd, "build_problem", term)
    result = run(["simulate", write(tmp_path, "a.pbn", GOOD)])
    assert result.exit_code == 143
    assert result.stderr.strip() == "terminated (SIGTERM)", result.stderr


def test_worker_errors_come_back_as_messages(tmp_path):
    """--jobs 2: a failure in a worker is that board's one-line error."""
    path = write(tmp_path, "a.pbn", GOOD + board("2", TWO, '[Trump "NT"]', '[Leader "N"]'))
    status, out, err = cli("solve", path, "--jobs", "2", "--json", "--tt-mb", "100000000")
    no_traceback(err)
    assert status == 2 and "memory" in err


# ---- 8: bounded error output -----------------------------------------------------

def test_errors_are_capped_per_file(tmp_path):
    text = "".join(board(str(i), "N:AKQ. JT9. 876. 543.") for i in range(1, 101)) + GOOD
    path = write(tmp_path, "many.pbn", text)
    result = run(["solve", path, "--json"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) <= 21, len(lines)
    assert "and 80 more errors in" in lines[-1]
    assert len(json_lines(result)) == 1        # the good board is still solved


def test_warnings_are_capped_per_file(tmp_path):
    """review of many unplayed boards: 20 warnings, then a count."""
    text = "".join(board(str(i), TWO, '[Trump "NT"]', '[Leader "N"]')
                   for i in range(1, 51))
    path = write(tmp_path, "unplayed.pbn", text)
    result = run(["review", path, "--json"])
    lines = result.stderr.strip().splitlines()
    assert sum(ln.startswith("warning:") for ln in lines) == 21, lines
    assert lines[-1] == f"warning: ... and 30 more warnings in {path}"


def test_long_tag_values_are_cut_in_messages(tmp_path):
    long = "x" * 100_000
    path = write(tmp_path, "long.pbn", board("1", TWO, f'[Trump "{long}"]', '[Leader "N"]'))
    result = run(["solve", path])
    assert result.exit_code == 2
    assert len(result.stderr) < 400, len(result.stderr)
    assert "\u2026" in result.stderr


def test_random_text_is_bounded(tmp_path):
    import random
    rng = random.Random(5)
    alphabet = "[]\"{};% \n\tabcNSEW0123456789AKQJT.:-"
    text = "".join(rng.choice(alphabet) for _ in range(2_000_000))
    path = write(tmp_path, "noise.pbn", text)
    status, out, err = cli("solve", path, "--json", timeout=120)
    no_traceback(err)
    assert status == 2
    assert len(err.splitlines()) <= 25


# ---- 9: deal streams -------------------------------------------------------------

def test_deal_is_written_as_it_goes(monkeypatch):
    from whist_solve import dealing
    parts = list(dealing.iter_deal_pbn(3, 7, "classic"))
    assert "".join(parts) == dealing.deal_pbn(3, 7, "classic")
    assert len(parts) >= 3


# ---- 11: silently accepted ---------------------------------------------------------

def test_jokers_in_a_classic_deal():
    deal = "N:A2... K..2. ...32 ..4..H"      # W holds the big joker
    b = read_pbn(board("1", deal, '[Variant "classic"]', '[Trump "NT"]', '[Leader "N"]'))[0]
    assert b.errors or _raises(b.position)
    b = read_pbn(board("1", deal, '[Trump "NT"]', '[Leader "N"]'))[0]
    assert b.game() == "bid"                   # no Variant tag: jokers make it bid whist


def _raises(f):
    try:
        f()
    except WhistError:
        return True
    return False


def test_unknown_variant_with_a_leader_tag():
    b = read_pbn(board("1", TWO, '[Variant "poker"]', '[Trump "NT"]', '[Leader "N"]'))[0]
    with pytest.raises(WhistError, match="Variant"):
        b.position()


def test_table_empty_strain_is_a_usage_error(tmp_path):
    path = write(tmp_path, "a.pbn", GOOD)
    for value in ("", " ", ","):
        result = run(["table", path, "--strain", value])
        assert result.exit_code == 2, (value, result.stdout)
        assert "internal error" not in result.stderr and "expected" in result.stderr


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\n\n\n"])
def test_empty_files_are_bad_input(tmp_path, text):
    path = write(tmp_path, "e.pbn", text)
    result = run(["solve", path])
    assert result.exit_code == 2
    assert "e.pbn" in result.stderr and "empty" in result.stderr


def test_utf16_file_is_read(tmp_path):
    text = "\ufeff" + GOOD
    for enc in ("utf-16-le", "utf-16-be"):
        data = text.encode(enc)
        path = write(tmp_path, f"u16{enc}.pbn", data)
        result = run(["solve", path, "--json"])
        assert result.exit_code == 0, result.stderr
        assert json_lines(result)[0]["tricks"] == 2


def test_lowercase_board_tag():
    b = read_pbn('[board "B7"]\n[Deal "' + TWO + '"]\n')[0]
    assert b.label == "B7"


def test_bench_does_not_repeat_the_file_name(tmp_path):
    path = write(tmp_path, "hello.pbn", "hello\n")
    status, out, err = cli("bench", "--set", path)
    assert status == 2
    assert err.count("hello.pbn") == 1, err
    status, out, err = cli("bench", "--set", str(tmp_path / "none.pbn"))
    assert status == 2
    assert err.count("none.pbn") == 1, err


def test_table_ranking_message_mentions_both(tmp_path):
    path = write(tmp_path, "a.pbn", GOOD)
    result = run(["table", path, "--ranking", "sideways"])
    assert result.exit_code == 2
    assert "both" in result.stderr


# ---- 12: good boards, then garbage ---------------------------------------------------

def test_good_boards_then_binary_bytes(tmp_path):
    good = GOOD + board("2", TWO, '[Trump "NT"]', '[Leader "N"]')
    data = good.encode() + bytes(range(256)) * 40
    path = write(tmp_path, "trunc.pbn", data)
    result = run(["solve", path, "--json"])
    assert result.exit_code == 2
    assert [o["board"] for o in json_lines(result)] == ["1", "2"]
    n_lines = good.count("\n") + 1
    assert f"line {n_lines}" in result.stderr and "binary" in result.stderr, result.stderr


def test_a_board_cut_by_binary_bytes_is_not_answered(tmp_path):
    # the binary data starts inside board 2 (no empty line before it): its
    # tags after the cut (here its Leader) are lost, so it is an error, not
    # answered without them; board 1 is answered
    good = GOOD + board("2", TWO, '[Trump "NT"]', '[Leader "N"]')
    cut = good.rstrip("\n").rsplit("\n", 1)[0] + "\n"
    path = write(tmp_path, "cut.pbn", cut.encode() + b'[Leader "N\x00"]\n')
    result = run(["solve", path, "--json"])
    assert result.exit_code == 2
    assert [o["board"] for o in json_lines(result)] == ["1"]
    n_lines = cut.count("\n") + 1
    assert (f"cut.pbn: board 2: cut short by the binary data at line {n_lines} (the rest of "
            "the board is not read)") in result.stderr, result.stderr
    # a comment line last, after an empty line, is no board cut short
    path = write(tmp_path, "after.pbn", good.encode() + b"% the end\n\x00\x01")
    result = run(["solve", path, "--json"])
    assert [o["board"] for o in json_lines(result)] == ["1", "2"]
    assert "cut short" not in result.stderr


def test_nul_padding_after_the_last_board_is_left_out_with_a_warning(tmp_path):
    # a copy that preallocated its file (or a disk image) pads the text
    # with NUL bytes to the end of a block: the last board, whole, was
    # refused as cut short by binary data
    good = GOOD + board("2", TWO, '[Trump "NT"]', '[Leader "N"]')
    text = good.rstrip("\n") + "\n"          # (no empty line after the last board)
    path = write(tmp_path, "pad.pbn", text.encode() + b"\x00" * 3000)
    n_lines = text.count("\n") + 1
    for args, name in (([path], "pad.pbn"), (["-"], "<stdin>")):
        result = run(["solve", *args, "--json"], input=(text.encode() + b"\x00" * 3000)
                     if args == ["-"] else None)
        assert result.exit_code == 0, result.stderr
        assert [o["board"] for o in json_lines(result)] == ["1", "2"]
        assert (f"{name}: line {n_lines}: 3000 NUL bytes of padding to the end of the "
                "file, left out") in " ".join(result.stderr.split()), result.stderr
    # NUL bytes and then anything else, or a text that stops inside a line:
    # binary data, as before (a board cut short is not answered)
    for tail, cut in ((b"\x00" * 3000 + b"x", text), (b"\x00" * 3000, text[:-4])):
        path = write(tmp_path, "bad.pbn", cut.encode() + tail)
        result = run(["solve", path, "--json"])
        assert result.exit_code == 2 and "binary data" in result.stderr, result.stderr
        assert [o["board"] for o in json_lines(result)] == ["1"]
        assert "board 2: cut short by the binary data" in result.stderr
        assert "NUL bytes of padding" not in result.stderr


# ---- 13: inputs too big, or without end ------------------------------------------------

def test_good_boards_then_a_long_binary_tail_is_not_read_to_its_end(tmp_path):
    # 8 MB of NUL bytes after the boards (a sparse file), with a 1 MB limit:
    # the reading stops at the first NUL, so the limit is never reached, and
    # the message still counts the bytes left unread
    good = GOOD + board("2", TWO, '[Trump "NT"]', '[Leader "N"]')
    path = tmp_path / "tail.pbn"
    path.write_bytes(good.encode())
    with open(path, "r+b") as f:
        f.truncate(len(good.encode()) + (8 << 20))
    status, out, err = cli("solve", str(path), "--json", env={"WHIST_SOLVE_MAX_INPUT_MB": "1"})
    assert status == 2, err
    assert [json.loads(line)["board"] for line in out.splitlines()] == ["1", "2"]
    assert f"{8 << 20} bytes not read" in err and "binary" in err, err
    assert "more than" not in err
    no_traceback(err)


def test_a_file_over_the_input_limit_is_refused_and_the_others_are_solved(tmp_path):
    small = write(tmp_path, "small.pbn", GOOD)
    big = write(tmp_path, "big.pbn", (GOOD + "\n") * 20000)      # about 1.6 MB
    status, out, err = cli("solve", big, small, "--json", env={"WHIST_SOLVE_MAX_INPUT_MB": "1"})
    assert status == 2
    assert "big.pbn: more than 1 MB: not read" in err, err
    assert [json.loads(line)["board"] for line in out.splitlines()] == ["1"]
    no_traceback(err)
    # the same file within the default limit is read whole
    assert len(read_pbn_file(big)) == 20000


def test_endless_standard_input_stops_at_the_limit():
    # 4.8 MB offered; the reader leaves at 2 MB (the rest of the input is
    # never taken: the command does not wait for an end)
    p = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "solve", "-"],
                       input=b'[Board "1"]\n' * 400000, capture_output=True, timeout=120,
                       env=dict(os.environ, WHIST_SOLVE_MAX_INPUT_MB="2"))
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "<stdin>: more than 2 MB: not read" in err, err
    no_traceback(err)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_binary_devices_are_refused_at_once(device):
    status, out, err = cli("solve", device, timeout=60)
    assert status == 2
    assert f"{device}: not a PBN text file (binary data)" in err, err
    assert "UTF-16" not in err
    no_traceback(err)


def test_utf16_file_longer_than_a_read_is_read_whole(tmp_path):
    # NUL bytes are text in a UTF-16 file with its byte order mark: the
    # reading does not stop at them (the file is several read pieces long)
    boards = "".join(board(str(i), TWO, '[Trump "NT"]', '[Leader "N"]') for i in range(1, 12001))
    data = ("\ufeff" + boards).encode("utf-16-le")
    assert len(data) > 1 << 20            # the size of one read
    path = write(tmp_path, "long16.pbn", data)
    got = read_pbn_file(path)
    assert len(got) == 12000 and not got.problems


@pytest.mark.parametrize("value", ["lots", "0", "-3", "nan", "inf", "1e400"])
def test_bad_input_limit_setting_is_a_clear_error(tmp_path, value):
    path = write(tmp_path, "a.pbn", GOOD)
    status, out, err = cli("solve", path, env={"WHIST_SOLVE_MAX_INPUT_MB": value})
    assert status == 2
    assert "WHIST_SOLVE_MAX_INPUT_MB" in err, err
    no_traceback(err)


@pytest.mark.parametrize("value", ["abc", "nan", "-1"])
def test_bad_alternatives_budget_setting_is_a_clear_error(tmp_path, value):
    """Read when the lines module was imported, a bad value once made every
    command that imports it (even --help) an internal error."""
    path = write(tmp_path, "a.pbn", GOOD)
    env = {"WHIST_SOLVE_ALTERNATIVES_NODES": value}
    status, out, err = cli("solve", path, env=env)
    assert status == 2
    assert "WHIST_SOLVE_ALTERNATIVES_NODES" in err and "internal error" not in err, err
    no_traceback(err)
    assert cli("--help", env=env)[0] == 0
    assert cli("table", path, env=env)[0] == 0


@pytest.mark.parametrize("value", ["0", "inf", " 2500 ", "1_000_000"])
def test_alternatives_budget_setting(tmp_path, monkeypatch, value):
    from whist_solve.lines import alternatives_budget
    monkeypatch.setenv("WHIST_SOLVE_ALTERNATIVES_NODES", value)
    assert alternatives_budget() == float(value.replace("_", ""))
    monkeypatch.delenv("WHIST_SOLVE_ALTERNATIVES_NODES")
    path = write(tmp_path, "a.pbn", GOOD)
    status, out, err = cli("solve", path, env={"WHIST_SOLVE_ALTERNATIVES_NODES": value})
    assert status == 0, err


@pytest.mark.parametrize("command", ["solve", "table", "puzzles"])
def test_html_page_over_an_input_file_is_refused(tmp_path, command):
    """--html naming an input file (by another path too) replaced the PBN
    with the page; an empty name wrote nothing and said nothing."""
    path = write(tmp_path, "a.pbn", GOOD)
    other = os.path.join(str(tmp_path), ".", "a.pbn")
    for page in (path, other):
        status, out, err = cli(command, "--html", page, path)
        assert status == 2, err
        assert "input file" in err and out == ""
        assert Path(path).read_text() == GOOD
    status, out, err = cli(command, "--html", "", path)
    assert status == 2 and "empty file name" in err, err
    status, out, err = cli(command, "--html", "-", path)
    assert status == 2 and "cannot write the HTML page to '-'" in err, err


def test_standard_input_given_twice_says_so(tmp_path):
    with open(ROOT / "examples" / "deal.pbn", "rb") as f:
        status, out, err = cli("table", "-", "-", "--json", stdin=f)
    assert status == 2
    assert len(out.splitlines()) == 4                       # the first read's boards
    assert "error: <stdin>: standard input given more than once" in err
    no_traceback(err)


def test_a_loop_of_links_as_the_first_word_is_a_file(tmp_path):
    """`whist-solve LOOP`: the file's own problem, not "no command"."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    status, out, err = cli(str(tmp_path / "a"))
    assert status == 2
    assert "no command" not in err and "symbolic links" in err, err
    no_traceback(err)


def test_a_very_long_path_is_cut_in_messages(tmp_path):
    folder = tmp_path
    for letter in "def":
        folder = folder / (letter * 200)
    folder.mkdir(parents=True)
    path = write(folder, "x.pbn", board("1", "N:AKQ. JT9. 876. 543."))
    result = run(["solve", path, "--json"])
    line = result.stderr.strip().splitlines()[0]
    assert "\u2026" in line and line.endswith("needs 4 suit groups S.H.D.C (and an optional "
                                              "joker group)")
    assert len(line) < 400, len(line)


def test_a_long_board_label_is_cut_in_messages(tmp_path):
    label = "L" * 220
    path = write(tmp_path, "l.pbn", board(label, TWO, '[Leader "N"]'))
    result = run(["solve", path, "--json"])
    assert result.exit_code == 2
    assert f"board {'L' * 60}\u2026: missing trump" in result.stderr, result.stderr
    assert "L" * 61 not in result.stderr


def test_no_arguments_is_a_usage_error_with_the_help_on_stderr():
    # the help, as the usage error it is: exit 2 and on standard error
    # (it went to standard output, with status 2); --help stays on stdout
    status, out, err = _entry(env={})
    assert status == 2 and out == ""
    assert "Usage: whist-solve" in err and "simulate" in err
    status, out, err = _entry("--help", env={})
    assert status == 0 and "Usage: whist-solve" in out


def test_the_alternatives_analysed_do_not_depend_on_time():
    """The alternatives along the line are valued within a budget of search
    nodes, not of seconds: a slow machine (here a solver that sleeps at
    each call) lists the same choices.  With seconds the output of solve
    and puzzles changed with the machine's load."""
    import time as _time
    from whist_solve.cards import Position, parse_hand
    from whist_solve.engine import Solver
    from whist_solve.lines import analyse_line
    hands = [parse_hand(h) for h in "AQ73.9.T963.QJ96 86.T732.AQ52.A85 T92.K864.KJ74.73 "
                                     "KJ54.AQJ5.8.KT42".split()]
    pos = Position.make(hands, "H", "up", 3)

    def run(solver):
        solver.clear()
        res = solver.solve(pos, cards=True, line=True)
        first = {c: int(n) for c, n in res.cards.items()}
        return analyse_line(solver, pos, list(res.line), first, budget=1_000_000)

    class Slow(Solver):
        def solve(self, *a, **k):
            _time.sleep(0.05)
            return super().solve(*a, **k)

    rows, decisions, cut = run(Solver())
    assert cut is not None and 1 < cut <= 13          # the budget ran out mid-line
    assert run(Slow()) == (rows, decisions, cut)
