"""The batch commands through --scheduler (a real LocalCluster of two worker
processes, loopback only) and --jobs 2 print, byte for byte, what one
process prints, bad boards included; a worker killed mid-run loses nothing;
an unreachable scheduler is an error at once; SIGTERM leaves no process
behind; --jobs is capped by the boards."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from support.cli_run import board, run
from support.cluster import wait_workers
from support.procs import pool_children
from support import BENCH_DATA, ROOT, TEST_DATA
from whist_solve.cards import full_deck
from whist_solve.dealing import shuffled_deck, split_deck
from whist_solve.pbn import format_deal

CLI = [sys.executable, "-c", "from whist_solve.cli.main import main; main()"]


def _random_deals(n: int, cards: int, seed: int) -> str:
    rng = random.Random(seed)
    text = ""
    for i in range(n):
        deck = full_deck()
        rng.shuffle(deck)
        text += board(str(i + 1), format_deal([deck[k * cards:(k + 1) * cards] for k in range(4)]))
    return text


def _bid_deals(n: int, seed: int) -> str:
    """Reduced bid whist deals: hands of 4, a kitty of 2, the bidder rotating."""
    rng = random.Random(seed)
    text = ""
    for i in range(n):
        deck = shuffled_deck(rng, jokers=True)
        hands = split_deck(deck, 4)
        text += board(str(i + 1), format_deal(hands), f'[Kitty "{" ".join(deck[16:18])}"]',
                      f'[Bidder "{"NESW"[i % 4]}"]')
    return text


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cluster_cli")
    bad = (TEST_DATA / "bad.pbn").read_text()
    tables = d / "tables.pbn"
    tables.write_text(_random_deals(12, 7, 1) + bad)
    deals = d / "deals.pbn"
    dealt = run(["deal", "--variant", "classic", "--count", "8", "--seed", "77"])
    assert dealt.exit_code == 0
    deals.write_text(dealt.stdout)
    bids = d / "bids.pbn"
    bids.write_text(_bid_deals(6, 2) + '[Board "x"]\n[Deal "N:AK.. QJ.. T9.. 8..."]\n'
                    '[Kitty "7 6"]\n\n')
    return {"table": tables, "bid": bids, "deals": deals}


def _commands(files):
    return {
        "table": ["table", str(files["table"]), "--json", "--ranking", "both"],
        # (classic deals too, several of one trump in a row: a board's node
        # count, which is printed, must not depend on the boards its
        # process solved before it)
        "solve": ["solve", str(TEST_DATA / "whist.pbn"), str(files["deals"]), str(TEST_DATA / "bad.pbn"),
                  "--json"],
        "bid": ["bid", str(files["bid"]), "--json"],
        "check": ["check", str(files["bid"]), "--json", "--contract", "1 S up"],
        "puzzles": ["puzzles", str(BENCH_DATA.parent.parent / "puzzles" / "classic.pbn"),
                    str(TEST_DATA / "bad.pbn"), "--json"],
        # (boards with a play, bad boards, boards with none: errors and
        # warnings interleaved)
        "review": ["review", str(BENCH_DATA.parent.parent / "examples" / "played.pbn"),
                   str(TEST_DATA / "bad.pbn"), str(files["deals"]), "--json"],
    }


def _messages(stderr: str) -> list:
    """The errors and warnings, in order (the summary line, with its time, left out)."""
    return [ln for ln in stderr.splitlines() if ln.startswith(("error:", "warning:"))]


@pytest.fixture(scope="module")
def one_process(files):
    out = {}
    for name, args in _commands(files).items():
        res = run(args)
        out[name] = res
    return out


@pytest.mark.parametrize("name", ["table", "solve", "bid", "check", "puzzles", "review"])
def test_same_output_everywhere(cluster, files, one_process, name):
    """The results, and the messages in the same order: the boards a pool
    or a cluster prepares ahead of their results once had their messages
    said ahead of the results' (review's warnings before earlier boards'
    errors)."""
    address, _ = cluster
    one = one_process[name]
    assert one.exit_code == 2 and one.stdout.count("\n") >= 1
    errors = [ln for ln in _messages(one.stderr) if ln.startswith("error:")]
    assert errors and all("board" in ln for ln in errors)
    for extra in (["--jobs", "2"], ["--scheduler", address]):
        res = run(_commands(files)[name] + extra)
        assert res.exit_code == one.exit_code, res.stderr
        assert res.stdout == one.stdout, extra
        assert _messages(res.stderr) == _messages(one.stderr), extra


def test_table_threads_same_output(files, one_process):
    res = run(_commands(files)["table"] + ["--threads", "3"])
    assert res.stdout == one_process["table"].stdout


def test_unreachable_scheduler_is_an_error_at_once(files):
    start = time.monotonic()
    proc = subprocess.run(CLI + ["table", str(files["table"]), "--json",
                                 "--scheduler", "tcp://127.0.0.1:1"],
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - start < 20
    assert proc.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_simulate_stops_at_an_unreachable_scheduler():
    # the three boards of the example: one message, the run stopped (each
    # board waited for the scheduler in turn, an error on each)
    proc = subprocess.run(CLI + ["simulate", str(ROOT / "examples" / "simulate.pbn"), "--json",
                                 "-n", "2", "--scheduler", "tcp://127.0.0.1:1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("cannot reach the Dask scheduler at tcp://127.0.0.1:1") == 1
    assert proc.stderr.startswith("error: --scheduler: ")


def test_bad_scheduler_option():
    res = run(["table", str(TEST_DATA / "whist.pbn"), "--scheduler", "nonsense"])
    assert res.exit_code == 2 and "not an address" in res.stderr


@pytest.mark.parametrize("command", ["table", "simulate"])
@pytest.mark.parametrize("address", ["", "  "])
def test_an_empty_scheduler_address_is_refused(command, address):
    """An empty --scheduler (an unset "$ADDR") ran locally without a word."""
    res = run([command, str(TEST_DATA / "whist.pbn"), "--scheduler", address])
    assert res.exit_code == 2 and res.stdout == ""
    assert "an empty address" in " ".join(res.stderr.replace("\u2502", " ").split())


@pytest.mark.parametrize("order", ["tt first", "scheduler first"])
def test_tt_mb_is_checked_against_the_workers_not_this_machine(cluster, order, caplog):
    """With --scheduler the tables are the workers': a --tt-mb larger than
    this machine's memory is not refused up front (it was, so a client
    smaller than its cluster could not ask for big tables).  The run warns
    that the workers' limits leave too little room, and each board says
    that its worker could not make the table."""
    address, _ = cluster
    huge = ["--tt-mb", str(10 ** 8)]
    sched = ["--scheduler", address]
    args = huge + sched if order == "tt first" else sched + huge
    # (the warning is the library's logger's: on standard error in a
    # command, under pytest in its log capture)
    with caplog.at_level("WARNING", logger="whist_solve.batch"):
        res = run(["table", str(TEST_DATA / "whist.pbn"), *args])
    assert res.exit_code == 2
    assert "tables of 100,000,000 MB per thread may not fit the memory limit of" in caplog.text
    err = " ".join(res.stderr.replace("\u2502", " ").split())
    assert "cannot make a solver with a 100,000,000 MB transposition table" in err
    local = run(["table", str(TEST_DATA / "whist.pbn"), *huge])
    assert local.exit_code == 2 and local.stdout == ""
    assert "more than the memory available" in " ".join(local.stderr.replace("\u2502", " ").split())


@pytest.mark.parametrize("address, says", [
    ("garbage://", "unknown address scheme 'garbage'"),
    ("foo://host:1", "unknown address scheme 'foo'"),
    ("tcp://", "not an address"),
    ("tcp://127.0.0.1:notaport", "not an address"),
    ("127.0.0.1:", "not an address"),
    ("tcp://127.0.0.1:99999", "port 99999 out of range"),
    ("inproc://x", "inside one process"),
    ("tls://127.0.0.1:1", "TLS"),                # fails in the Client, half made
])
def test_malformed_scheduler_address_is_a_clean_error(address, says):
    # A Dask Client that fails on such an address is left half made, and
    # its finaliser printed a traceback at exit after waiting 10 s: the
    # whole process is run to see its last words.
    proc = subprocess.run(CLI + ["solve", str(TEST_DATA / "whist.pbn"), "--scheduler", address],
                          capture_output=True, text=True, timeout=120)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(lines) == 1 and lines[0].startswith(f"error: scheduler {address}: "), lines
    assert says in lines[0]


def test_worker_killed_mid_run(cluster, tmp_path):
    address, client = cluster
    wait_workers(client)
    deals = tmp_path / "deals.pbn"
    deals.write_text(_random_deals(60, 9, 3))
    args = ["table", str(deals), "--json", "--ranking", "both"]
    expected = run(args).stdout
    pids = list(client.run(os.getpid).values())
    proc = subprocess.Popen(CLI + args + ["--scheduler", address], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()               # the run is going: kill a worker
    os.kill(pids[0], signal.SIGKILL)
    # read on from the pipe's buffer (communicate() would skip what
    # readline() has already buffered past the first line)
    rest = proc.stdout.read()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == 0, err
    assert first + rest == expected
    wait_workers(client)                         # the nanny starts a new worker


def test_interrupt_leaves_the_cluster_usable(cluster, files, one_process, tmp_path):
    address, client = cluster
    wait_workers(client)
    deals = tmp_path / "deals.pbn"
    deals.write_text(_random_deals(300, 10, 6))
    proc = subprocess.Popen(CLI + ["table", str(deals), "--json", "--scheduler", address],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()                       # running
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    deadline = time.monotonic() + 30
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
        assert time.monotonic() < deadline, "tasks left on the scheduler"
        time.sleep(0.1)
    res = run(_commands(files)["table"] + ["--scheduler", address])
    assert res.stdout == one_process["table"].stdout


@pytest.mark.parametrize("sig,status,message", [
    ("SIGTERM", 143, "terminated (SIGTERM)"),
    ("SIGHUP", 129, "terminated (SIGHUP)"),
    ("SIGINT", 130, "interrupted"),
])
def test_signal_leaves_no_process_behind(tmp_path, sig, status, message):
    psutil = pytest.importorskip("psutil")
    deals = tmp_path / "deals.pbn"
    deals.write_text(_random_deals(400, 11, 4))
    proc = subprocess.Popen(CLI + ["table", str(deals), "--json", "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        children = pool_children(psutil, proc.pid)      # the workers are in their tasks
        proc.send_signal(getattr(signal, sig))
        err = proc.communicate(timeout=30)[1]
        assert proc.returncode == status
        assert message in err and "Traceback" not in err
        gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, f"left behind: {[p.pid for p in alive]}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_jobs_capped_by_the_boards(tmp_path, monkeypatch):
    import concurrent.futures
    started = []
    real = concurrent.futures.ProcessPoolExecutor

    def recording(*a, max_workers=None, **kw):
        started.append(max_workers)
        return real(*a, max_workers=max_workers, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", recording)
    two = tmp_path / "two.pbn"
    two.write_text(_random_deals(2, 6, 5))
    res = run(["table", str(two), "--json", "--jobs", "64"])
    assert res.exit_code == 0 and res.stdout.count("\n") == 2
    assert started and max(started) <= 2


@pytest.mark.parametrize("cpus", [1, 2, 8])
def test_threads_per_deal_share_the_cpus(cpus, monkeypatch):
    """The default and any number asked for: at most the CPUs over the
    local processes (64 threads on 2 cores once ran 10 searches side by
    side); on a cluster, as asked."""
    import whist_solve.cli.runner as runner
    from whist_solve.batch import backend_for
    monkeypatch.setattr(runner, "default_jobs", lambda: cpus)
    worker_threads = runner.worker_threads
    assert worker_threads(None, backend_for()) == cpus
    assert worker_threads(None, backend_for(jobs=2)) == max(1, cpus // min(2, cpus))
    assert worker_threads(None, backend_for(jobs=64)) == 1
    assert worker_threads(None, backend_for(scheduler="tcp://127.0.0.1:8786")) == 1
    assert worker_threads(3, backend_for(jobs=2)) == min(3, max(1, cpus // min(2, cpus)))
    assert worker_threads(64, backend_for()) == cpus
    assert worker_threads(1, backend_for()) == 1
    assert worker_threads(64, backend_for(jobs=64)) == 1
    assert worker_threads(64, backend_for(scheduler="tcp://127.0.0.1:8786")) == 64
