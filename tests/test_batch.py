"""whist_solve.batch: the same results in the same order in this process, on
a local pool and on a real Dask cluster (a LocalCluster of two worker
processes on the loopback interface); errors in place; a worker killed
mid-run loses nothing; an unreachable scheduler is an error at once; the
pool's workers end with their parent; --jobs is capped."""
from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from whist_solve import batch
from whist_solve.batch import (BatchError, SolverUnavailable, backend_for, chunked,
                               pool_workers, run_map)
from whist_solve.cards import WhistError, full_deck
from whist_solve.engine import dd_table

from support.cluster import needs_dask
from support.cluster import wait_workers as _wait_workers
from support.procs import pool_children

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---- the work (module-level: the workers import it by name)

def _deals(n, cards=4, seed=7):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = full_deck()
        rng.shuffle(deck)
        hands = [deck[k * cards:(k + 1) * cards] for k in range(4)]
        if i % 5 == 3:                 # a bad board: a card held twice
            hands[1][0] = hands[0][0]
        out.append(hands)
    return out


def _table(solver, hands):
    """The double-dummy table of a deal (PositionError for a bad deal)."""
    return dd_table(hands, rankings=("up", "down"), solver=solver)


def _slow_table(solver, hands):
    time.sleep(0.15)
    return _table(solver, hands)


@contextlib.contextmanager
def _without_gc():
    """No garbage collection while a test sends this process a signal: the
    signal's exception, raised inside a collector callback (Hypothesis
    installs one), would be printed as "Exception ignored" and never reach
    the code under test."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _nap(solver, seconds):
    time.sleep(seconds)
    return seconds


def _pid(solver, item):
    import psutil
    return item, {p.pid for p in psutil.Process(os.getppid()).children()}


def _same(a, b):
    """Results equal, exceptions of the same type with the same message."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if isinstance(x, Exception):
            assert type(x) is type(y) and str(x) == str(y)
        else:
            assert x == y


# ---- the cluster: the `cluster` fixture of tests/conftest.py (tests/support/cluster.py)

# ---- the same everywhere

@pytest.fixture(scope="module")
def expected():
    items = _deals(15)
    return items, list(run_map(_table, items, backend_for()))


def test_inline_results_and_errors_in_place(expected):
    items, inline = expected
    bad = [i for i, r in enumerate(inline) if isinstance(r, Exception)]
    assert bad == [3, 8, 13]
    assert all(isinstance(inline[i], WhistError) and "duplicate card" in str(inline[i]) for i in bad)
    good = inline[0]
    assert set(good) == {"S", "H", "D", "C", "NT"}
    assert all(0 <= v <= 4 for row in good.values() for r in row.values() for v in r.values())


@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_pool_same_as_inline(expected, chunk):
    items, inline = expected
    _same(list(run_map(_table, items, backend_for(jobs=2), chunk=chunk)), inline)


@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_cluster_same_as_inline(cluster, expected, chunk):
    address, _ = cluster
    items, inline = expected
    _same(list(run_map(_table, items, backend_for(scheduler=address), chunk=chunk)), inline)


def test_cluster_through_a_scheduler_file(cluster, expected, tmp_path):
    address, _ = cluster
    items, inline = expected
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"type": "Scheduler", "address": address}))
    _same(list(run_map(_table, items[:5], backend_for(scheduler=str(path)))), inline[:5])


def test_raise_at_the_failing_item(expected):
    items, _ = expected
    it = run_map(_table, items, backend_for(jobs=2), return_exceptions=False)
    assert [next(it) for _ in range(3)] and True
    with pytest.raises(WhistError, match="duplicate card"):
        next(it)


def test_generator_input_is_streamed():
    seen = []

    def gen():
        for hands in _deals(200):
            seen.append(1)
            yield hands

    it = run_map(_table, gen(), backend_for(jobs=2), chunk=2, window=1)
    next(it)
    # the tasks held (running, or finished and waiting for the first) times
    # the chunk, and one more chunk: far from the whole input
    assert len(seen) <= batch.BACKLOG * 2 * 1 * 2 + 2 < 200
    it.close()


def _wait_for_later(solver, item):
    """Item 0 waits (up to 60 s) for the file that item ``later`` writes:
    it sees it only if that item was sent to a worker while item 0 ran."""
    i, later, path = item
    if i == later:
        open(path, "w").close()
    elif i == 0:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if os.path.exists(path):
                return True
            time.sleep(0.01)
        return False
    return i


def test_long_head_task_does_not_hold_the_other_workers(tmp_path):
    # 2 workers, tasks of one item, 4 in flight: item 12 is reached only if
    # the next task is sent whenever any task ends, not only the oldest
    flag = str(tmp_path / "reached")
    items = [(i, 12, flag) for i in range(20)]
    out = list(run_map(_wait_for_later, items, backend_for(jobs=2), chunk=1, window=2))
    assert out[0] is True
    assert out[1:12] == list(range(1, 12)) and out[13:] == list(range(13, 20))


def test_chunks_shrink_towards_the_end_of_a_run_of_known_length():
    sizer = batch._Sizer(None, seconds=1.0, total=130, threads=2)
    assert sizer.size() == 1                 # nothing measured yet
    sizer.took(30)
    sizer.record(30, 0.3)                    # 0.01 s an item: 100 items would make 1 s
    sizes = []
    while sizer.left > 0:
        n = min(sizer.size(), sizer.left)
        sizes.append(n)
        sizer.took(n)
    assert sizes[0] == 25                    # the 100 left over twice the 2 threads
    assert sizes == sorted(sizes, reverse=True) and sizes[-3:] == [1, 1, 1]
    assert sum(sizes) == 100
    unknown = batch._Sizer(None, seconds=1.0)
    unknown.took(60)
    unknown.record(60, 0.6)
    assert unknown.size() == 100             # no length: the time alone


def test_chunks_grow_at_most_twofold():
    # the first task to end is the shortest: its time alone must not make
    # one huge chunk
    sizer = batch._Sizer(None, seconds=0.5)
    sizer.took(1)
    sizer.record(1, 0.006)                   # alone it would make 83 items
    assert sizer.size() == 2
    sizes = []
    for _ in range(8):
        n = sizer.size()
        sizes.append(n)
        sizer.took(n)
        sizer.record(n, 0.03 * n)            # the items really take 30 ms
    # from there on the measured time rules: 0.5 s over the mean time so far
    assert sizes[:4] == [2, 4, 8, 16] and all(n <= 2 * m for m, n in zip(sizes, sizes[1:]))
    assert 15 <= sizes[-1] <= 17


def test_chunked():
    assert list(chunked(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunked([], 3)) == []
    with pytest.raises(ValueError):
        list(chunked([1], 0))


# ---- a solver that cannot be made

@pytest.mark.parametrize("jobs", [1, 2])
def test_solver_too_large_is_an_error_per_item(jobs):
    out = list(run_map(_table, _deals(3), backend_for(jobs=jobs), tt_mb=10 ** 9))
    assert len(out) == 3
    for r in out:
        assert isinstance(r, SolverUnavailable) and "transposition table" in str(r)


def test_solver_too_large_on_the_cluster(cluster):
    address, _ = cluster
    out = list(run_map(_table, _deals(2), backend_for(scheduler=address), tt_mb=10 ** 9))
    assert [type(r) for r in out] == [SolverUnavailable, SolverUnavailable]


# ---- faults

def test_worker_killed_mid_run(cluster, expected, capfd):
    address, client = cluster
    _wait_workers(client)
    items, inline = expected
    items, inline = items * 2, inline * 2          # 30 tasks of ~0.2 s on 2 workers
    pids = list(client.run(os.getpid).values())
    assert len(pids) == 2
    out = []
    for r in run_map(_slow_table, items, backend_for(scheduler=address), chunk=1):
        out.append(r)
        if len(out) == 3:                          # tasks are in flight on both workers
            os.kill(pids[0], signal.SIGKILL)
    _same(out, inline)
    _wait_workers(client)                          # the nanny starts a new worker
    assert pids[0] not in client.run(os.getpid).values()
    assert capfd.readouterr().out == ""            # stdout is the results' channel


def test_interrupt_cancels_and_leaves_the_cluster_usable(cluster, expected):
    import _thread
    address, client = cluster
    _wait_workers(client)
    items, inline = expected
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt), _without_gc():
        for _ in run_map(_slow_table, items * 4, backend_for(scheduler=address), chunk=1):
            pass
    timer.cancel()
    deadline = time.monotonic() + 30
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
        assert time.monotonic() < deadline, "tasks left on the scheduler"
        time.sleep(0.1)
    _same(list(run_map(_table, items, backend_for(scheduler=address))), inline)


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def test_ctrl_c_while_the_client_waits_for_its_busy_event_loop(cluster, monkeypatch):
    """Ctrl-C that comes while a call of the run's Dask client waits for
    the client's event loop, busy (as on a loaded machine): the run stops
    with KeyboardInterrupt and nothing is logged.  distributed's clean-up
    for an interrupted call that had not started yet fails, and tornado
    logged a NameError with its traceback on standard error (2026.8)."""
    address, client = cluster
    _wait_workers(client)
    logged = _Records()          # distributed's handler holds the stderr of its import
    tornado_log = logging.getLogger("tornado.application")
    tornado_log.addHandler(logged)
    monkeypatch.setattr(tornado_log, "level", logging.ERROR)
    clients = []
    real_connect = batch.connect
    monkeypatch.setattr(batch, "connect", lambda b: clients.append(real_connect(b)) or clients[-1])
    main = threading.main_thread().ident

    def ctrl_c():
        while not clients:
            time.sleep(0.01)
        time.sleep(0.5)                              # the run waits for its only task
        clients[0].loop.add_callback(time.sleep, 2.5)   # its event loop busy
        time.sleep(1.5)                              # a call waits for the loop
        signal.pthread_kill(main, signal.SIGINT)

    thread = threading.Thread(target=ctrl_c)
    thread.start()
    try:
        with pytest.raises(KeyboardInterrupt), _without_gc():
            list(run_map(_nap, [10.0], backend_for(scheduler=address)))
    finally:
        thread.join()
        time.sleep(0.5)                              # the loop's callbacks have run
        tornado_log.removeHandler(logged)
    assert [r.getMessage() for r in logged.records] == []


def test_unreachable_scheduler():
    with pytest.raises(BatchError, match="127.0.0.1:1"):
        list(run_map(_table, _deals(2), backend_for(scheduler="tcp://127.0.0.1:1",
                                                    connect_timeout=1)))


@contextlib.contextmanager
def _server(reply: bytes):
    """A TCP server on loopback that accepts every connection and sends
    ``reply`` (nothing: it stays silent); its address."""
    import socket
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    conns = []

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            conns.append(c)
            if reply:
                try:
                    c.sendall(reply)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        srv.close()
        for c in conns:
            c.close()


@pytest.mark.parametrize("reply,words", [(b"", "cannot reach the Dask scheduler"),
                                         (b"\0" * 8 + b"\xff" * 64, "not a Dask scheduler"),
                                         (b"HTTP/1.0 200 OK\r\n\r\nhello", "not a Dask scheduler")])
def test_a_port_that_is_not_a_scheduler(reply, words):
    """A port that accepts and stays silent once kept the Client's
    constructor waiting for ever, with the signals held; one that answered
    with other bytes took 10 s and ended in an internal error."""
    with _server(reply) as address:
        start = time.monotonic()
        with pytest.raises(BatchError, match=words):
            list(run_map(_table, _deals(2), backend_for(scheduler=address, connect_timeout=1)))
        assert time.monotonic() - start < 30


def test_a_worker_s_address_is_not_a_scheduler(cluster):
    address, client = cluster
    _wait_workers(client)
    worker = sorted(client.scheduler_info()["workers"])[0]
    with pytest.raises(BatchError, match="a Dask Worker answers there"):
        list(run_map(_table, _deals(2), backend_for(scheduler=worker, connect_timeout=5)))


def test_a_signal_noted_while_a_held_block_fails_is_not_lost():
    """_signals_held notes a signal and raises it as the block ends; a block
    that ended by raising (a wait's timeout) once dropped it, and the run
    went on to its end."""
    from whist_solve.batch import Terminated, _signals_held, terminate_on_signals
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")
    with _without_gc(), terminate_on_signals():
        with pytest.raises(Terminated):
            with _signals_held():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)
                raise TimeoutError
        with pytest.raises(TimeoutError):       # no signal: the block's own error
            with _signals_held():
                raise TimeoutError


# A cluster in a process of its own (threads, so that killing the process
# ends all of it), killed after the run's third result.
_CLUSTER = """
import time
from distributed import LocalCluster
c = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                 host="127.0.0.1", dashboard_address=None)
print(c.scheduler_address, flush=True)
time.sleep(600)
"""

_LOSE_THE_SCHEDULER = """
import subprocess, sys, time
from whist_solve.batch import BatchError, backend_for, run_map

def nap(solver, seconds):
    time.sleep(seconds)
    return seconds

cluster = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True)
address = cluster.stdout.readline().strip()
assert address.startswith("tcp://"), address
got = []
try:
    for r in run_map(nap, [0.2] * 60, backend_for(scheduler=address), chunk=1):
        got.append(r)
        if len(got) == 3:
            cluster.kill()
    print("finished", len(got))
except BatchError as e:
    print("stopped", len(got) >= 3, e)
finally:
    cluster.kill()
    cluster.wait()
"""


def test_a_scheduler_lost_mid_run_stops_it_with_one_error():
    """Killed mid-run, the scheduler once gave every board left its own
    two-line error from Dask, and Dask's log line on stderr."""
    pytest.importorskip("distributed")
    p = subprocess.run([sys.executable, "-c", _LOSE_THE_SCHEDULER, _CLUSTER], capture_output=True,
                       text=True, timeout=300)
    assert p.stdout.startswith("stopped True lost the connection to the Dask scheduler"), (
        p.stdout, p.stderr[-2000:])
    assert "Failed to reconnect" not in p.stderr, p.stderr[-2000:]


def test_bad_scheduler_files(tmp_path):
    missing = tmp_path / "nothing.json"
    with pytest.raises(BatchError, match="no such file"):
        list(run_map(_table, [], backend_for(scheduler=str(missing))))
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    with pytest.raises(BatchError, match="not a Dask scheduler file"):
        list(run_map(_table, [], backend_for(scheduler=str(junk))))
    big = tmp_path / "big.json"
    big.write_text('{"address": "tcp://127.0.0.1:1", "pad": "' + "x" * (1 << 20) + '"}')
    with pytest.raises(BatchError, match="not a Dask scheduler file"):
        list(run_map(_table, [], backend_for(scheduler=str(big))))
    if os.path.exists("/dev/zero"):         # an endless file: not read for ever
        with pytest.raises(BatchError, match="not a Dask scheduler file"):
            list(run_map(_table, [], backend_for(scheduler="/dev/zero")))
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    with pytest.raises(BatchError, match="no scheduler address"):
        list(run_map(_table, [], backend_for(scheduler=str(empty))))
    with pytest.raises(BatchError, match="not an address"):
        list(run_map(_table, [], backend_for(scheduler="nonsense")))


# ---- the pool: capped, and no orphan

def test_jobs_capped_by_items_and_cpus():
    assert pool_workers(64, [1, 2]) <= 2
    assert pool_workers(64, range(100)) <= len(os.sched_getaffinity(0))
    assert pool_workers(64, list(range(10)), chunk=5) <= 2
    psutil = pytest.importorskip("psutil")
    before = {p.pid for p in psutil.Process().children()}
    out = list(run_map(_pid, [0, 1], backend_for(jobs=64)))
    assert [i for i, _ in out] == [0, 1]
    for _, children in out:                        # the pool's processes seen by a worker
        assert 1 <= len(children - before) <= 2


_PARENT = textwrap.dedent("""
    import sys, time
    from whist_solve.batch import backend_for, run_map, Terminated

    def slow(solver, item):
        time.sleep(60)
        return item

    if __name__ == "__main__":
        try:
            for r in run_map(slow, range(8), backend_for(jobs=2)):
                print(r, flush=True)
        except Terminated as e:
            sys.exit(128 + e.signum)
        except KeyboardInterrupt:
            sys.exit(130)
""")


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT", "SIGKILL"])
def test_pool_workers_end_with_their_parent(tmp_path, sig):
    psutil = pytest.importorskip("psutil")
    script = tmp_path / "parent.py"
    script.write_text(_PARENT)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(tmp_path))
    try:
        children = pool_children(psutil, proc.pid)      # the workers are in their tasks
        proc.send_signal(getattr(signal, sig))
        proc.wait(timeout=30)
        gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, f"orphans after {sig}: {[p.pid for p in alive]}"
        if sig != "SIGKILL":
            assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _raise_unpicklable(solver, n):
    if n == 1:
        e = ValueError("bad 1")
        e.lock = threading.Lock()          # cannot be pickled
        raise e
    return n


def test_unpicklable_exception_comes_back_as_batch_error():
    out = list(run_map(_raise_unpicklable, range(3), backend_for(jobs=2)))
    assert out[0] == 0 and out[2] == 2
    assert isinstance(out[1], BatchError) and str(out[1]) == "ValueError: bad 1"


def test_a_worker_of_another_version_says_so():
    from whist_solve.batch import _run_chunk
    results, _ = _run_chunk(_table, _deals(2), 1, version="0.0.0-other")
    assert [type(v) for ok, v in results] == [BatchError, BatchError]
    assert "same version" in str(results[0][1])


@needs_dask
def _run_until_warned(address, caplog, words):
    """Tables of three deals on the cluster at ``address``, run in a thread
    until this module's logger says ``words`` (within 30 s, the run still
    waiting): (the thread, the list its results go to)."""
    got: list = []
    it = run_map(_table, _deals(3), backend_for(scheduler=address))
    runner = threading.Thread(target=lambda: got.extend(it))
    with caplog.at_level(logging.WARNING, logger="whist_solve.batch"):
        runner.start()
        deadline = time.monotonic() + 30
        while words not in caplog.text:
            assert time.monotonic() < deadline, "no warning in 30 s"
            assert runner.is_alive()
            time.sleep(0.1)
    return runner, got


def test_a_cluster_without_workers_is_said_and_waited_for(monkeypatch, caplog):
    """No worker: the run says so (a warning) and waits; a worker that
    joins then does the work."""
    import logging

    import distributed

    monkeypatch.setattr(batch, "NO_WORKERS_WARN", 0.5)
    with distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0") as lc:
        runner, got = _run_until_warned(lc.scheduler_address, caplog, "has had no worker")
        lc.scale(1)
        runner.join(60)
        assert not runner.is_alive()
        assert [isinstance(r, WhistError) for r in got] == [False, False, False]
        assert got == [_table(None, h) for h in _deals(3)]


def _held_runs():
    return sorted(held[2] for held in batch._SOLVERS.values())


def test_a_run_s_tables_are_let_go_on_every_worker_at_its_end(cluster, expected):
    """Each worker thread keeps its Solver during a run; at the end the
    workers let go of that run's tables (their memory goes back to the
    system), whether the run finished or was stopped."""
    address, client = cluster
    items, inline = expected
    seen = []

    def table_and_look(solver, hands):
        seen.append(1)
        return _table(solver, hands)

    it = run_map(_table, items[:4], backend_for(scheduler=address))
    _same(list(it), inline[:4])
    assert all(not runs for runs in client.run(_held_runs).values())
    it = run_map(_table, items, backend_for(scheduler=address), chunk=1)
    next(it)
    held = client.run(_held_runs)
    assert any(runs for runs in held.values())       # the run's tables, while it goes on
    it.close()                                       # stopped before its end
    assert all(not runs for runs in client.run(_held_runs).values())


def test_free_run_tables_lets_go_of_that_run_s_solvers_only():
    mine = batch.worker_solver(1, run="a")
    other = threading.Thread(target=batch.worker_solver, args=(1, "b"))
    other.start()
    other.join()
    assert batch.free_run_tables("a") == 1
    assert batch.worker_solver(1, run="a") is not mine   # made again
    # the thread of run "b" has ended: its Solver goes when the next one is made
    batch._SOLVERS.clear()
    batch.worker_solver(1, run="c")
    assert _held_runs() == ["c"]
    assert batch.free_run_tables("c") == 1 and _held_runs() == []


def test_tables_over_the_workers_memory_limits():
    mb = 1 << 20
    workers = {
        "tcp://a:1": {"nthreads": 2, "memory_limit": 1000 * mb, "metrics": {"memory": 200 * mb}},
        "tcp://b:1": {"nthreads": 1, "memory_limit": 4000 * mb, "metrics": {"memory": 100 * mb}},
        "tcp://c:1": {"nthreads": 8, "memory_limit": 0},              # no limit
    }
    # (0.8 * 1000 - 200) / 2 = 300 MB per thread; (0.8 * 4000 - 100) = 3100
    assert batch.tables_over_limits(workers, 300, 0.8) == []
    assert batch.tables_over_limits(workers, 301, 0.8) == [("tcp://a:1", 300, 1000, 2)]
    assert [w[0] for w in batch.tables_over_limits(workers, 4000, 0.8)] == ["tcp://a:1", "tcp://b:1"]
    assert batch.tables_over_limits(workers, 4000, None) == []       # no pausing, no ending
    over = {"tcp://d:1": {"nthreads": 1, "memory_limit": 100 * mb, "metrics": {"memory": 90 * mb}}}
    assert batch.tables_over_limits(over, 1, 0.8) == [("tcp://d:1", 0.0, 100, 1)]


def _pause(dask_worker):
    from distributed.core import Status
    dask_worker.status = Status.paused


def _resume(dask_worker):
    from distributed.core import Status
    dask_worker.status = Status.running


@needs_dask
def test_a_worker_short_of_memory_and_a_paused_cluster_are_said(monkeypatch, caplog):
    """Tables larger than a worker's memory limit allows: a warning at the
    start.  Every worker paused (Dask pauses a worker whose memory passes
    a share of its limit): a warning, the run waits, and goes on when a
    worker resumes."""
    import dask
    import distributed

    monkeypatch.setattr(batch, "NO_WORKERS_WARN", 0.5)
    # (the worker does not pause or resume by itself: its memory is not watched)
    with dask.config.set({"distributed.worker.memory.pause": False,
                          "distributed.worker.memory.terminate": False}):
        lc = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      memory_limit="1GB", host="127.0.0.1",
                                      dashboard_address="127.0.0.1:0")
    with lc, distributed.Client(lc.scheduler_address, set_as_default=False) as client:
        with caplog.at_level(logging.WARNING, logger="whist_solve.batch"):
            got = list(run_map(_table, _deals(2), backend_for(scheduler=lc.scheduler_address),
                               tt_mb=4096))
        assert got == [_table(None, h) for h in _deals(2)]
        assert "tables of 4,096 MB per thread may not fit the memory limit of the Dask worker" in caplog.text
        assert "limit 954 MB, paused at 80%" in caplog.text
        caplog.clear()

        client.run(_pause)
        runner, got = _run_until_warned(lc.scheduler_address, caplog, "has been paused")
        assert "every worker of the Dask cluster at" in caplog.text
        assert "Dask pauses a worker whose memory passes a share of its limit" in caplog.text
        assert "may not fit" not in caplog.text            # 44 MB tables fit
        client.run(_resume)
        runner.join(60)
        assert not runner.is_alive()
        assert got == [_table(None, h) for h in _deals(3)]


def test_worker_solver_is_kept_within_a_run_and_emptied_for_the_next():
    hands = _deals(1, cards=7)[0]

    def nodes(solver):      # one strain: the table is not emptied between the calls
        n0 = solver.nodes
        dd_table(hands, strains=("NT",), solver=solver)
        return solver.nodes - n0

    solver = batch.worker_solver(16, run="first")
    first = nodes(solver)
    assert batch.worker_solver(16, run="first") is solver
    assert nodes(solver) < first                 # the kept table answers
    assert batch.worker_solver(16, run="second") is solver
    assert nodes(solver) == first                # emptied: searched as new


_CTRL_C_IN_A_FORK = """
import os, signal, time
from whist_solve.batch import backend_for, run_map

def nap(solver, seconds):
    time.sleep(seconds)
    return seconds

sent = []

def after_fork_in_parent():          # a Ctrl-C while the parent runs its after-fork callbacks
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.SIGINT)

os.register_at_fork(after_in_parent=after_fork_in_parent)
try:
    out = list(run_map(nap, [0.3] * 6, backend_for(jobs=2)))
    print("finished", len(out))
except KeyboardInterrupt:
    print("interrupted")
"""


def test_a_ctrl_c_while_the_pool_forks_is_not_lost():
    """Raised inside an after-fork callback, the KeyboardInterrupt was
    dropped ("Exception ignored") and the run went on to its end."""
    from whist_solve.batch import pool_workers
    if pool_workers(2, range(6)) < 2:
        pytest.skip("one CPU: no pool")
    p = subprocess.run([sys.executable, "-c", _CTRL_C_IN_A_FORK], capture_output=True,
                       text=True, timeout=120)
    assert p.stdout.split() == ["interrupted"], (p.stdout, p.stderr)
    assert "Exception ignored" not in p.stderr, p.stderr


def test_a_second_signal_while_a_pool_ends_is_let_go():
    # Ctrl-C, then SIGTERM a few milliseconds later: the second must not
    # raise inside the pool's shutdown (it once left the pool's manager
    # thread spinning at exit)
    from whist_solve.batch import _first_signal_only, terminate_on_signals
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")
    with _without_gc(), terminate_on_signals(), _first_signal_only():
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(2)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)                       # raised here without the guard
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _die_at_three(solver, n):
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_pool_worker_that_dies_stops_the_run_with_a_batch_error():
    """A worker killed (by the user, or the system out of memory) is one
    clear error, whether the loss shows when a result is awaited or when
    the next block is handed out."""
    psutil = pytest.importorskip("psutil")
    before = {p.pid for p in psutil.Process().children(recursive=True)}   # (a cluster's)

    def ours():
        return [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    with pytest.raises(BatchError, match="a worker process ended unexpectedly"):
        list(run_map(_die_at_three, range(40), backend_for(jobs=2), chunk=1))
    deadline = time.monotonic() + 30
    while ours() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ours() == []


@pytest.mark.parametrize("where", ["pool", "fork"])
def test_worker_processes_that_cannot_start_say_so(monkeypatch, where):
    """No /dev/shm for the pool's locks (the pool cannot be made), or the
    system refusing to fork (EAGAIN): a BatchError that says what to do."""
    import concurrent.futures
    import errno as _errno

    if where == "pool":
        def refuse(*args, **kwargs):
            raise OSError(_errno.EROFS, "Read-only file system")
        monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
        reason = "Read-only file system"
    else:
        from concurrent.futures.process import ProcessPoolExecutor

        def refuse(self, *args, **kwargs):
            raise BlockingIOError(_errno.EAGAIN, "Resource temporarily unavailable")
        monkeypatch.setattr(ProcessPoolExecutor, "submit", refuse)
        reason = "Resource temporarily unavailable"
    with pytest.raises(BatchError) as info:
        list(run_map(_table, _deals(3), backend_for(jobs=2)))
    assert str(info.value) == (f"cannot start worker processes for --jobs 2: {reason} "
                               "(try --jobs 1)")


@contextlib.contextmanager
def _cluster_processes(tmp_path):
    """A scheduler and one worker in processes of their own (so that the
    scheduler can be frozen with SIGSTOP): yields (address, scheduler's
    Popen); both are ended afterwards."""
    sched_file = tmp_path / "scheduler.json"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sched = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                              "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                              str(sched_file)], **quiet)
    procs = [sched]
    try:
        deadline = time.monotonic() + 60
        while not (sched_file.exists() and sched_file.stat().st_size):
            assert time.monotonic() < deadline, "no scheduler in 60 s"
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                       address, "--nthreads", "1", "--no-nanny",
                                       "--no-dashboard"], **quiet))
        import distributed
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            _wait_workers(client, 1)
        yield address, sched
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGCONT)
                p.terminate()
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _frozen_run(tmp_path, address, sched):
    """A table run of 60 deals on the cluster; the scheduler frozen once
    the first results are out.  Yields the whist-solve process."""
    deals = tmp_path / "deals.pbn"
    deals.write_text(subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "deal",
                                     "--count", "60", "--seed", "21"], capture_output=True,
                                    text=True, check=True).stdout)
    run = subprocess.Popen([sys.executable, "-m", "whist_solve.cli.main", "table", str(deals),
                            "--json", "--scheduler", address], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    first = run.stdout.readline()
    assert first.startswith("{"), run.stderr.read()
    sched.send_signal(signal.SIGSTOP)
    return run


@needs_dask
@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_frozen_scheduler_does_not_hold_off_signals(tmp_path, sig, status):
    """A scheduler that stops answering without closing the connection
    (frozen, or a network gone silent): the run's question of how many
    workers there are waited for ever with the signals held, so SIGTERM
    and Ctrl-C were ignored.  Now each such question waits at most
    _ANSWER_TIMEOUT, and the signal ends the run with its status."""
    with _cluster_processes(tmp_path) as (address, sched):
        run = _frozen_run(tmp_path, address, sched)
        try:
            time.sleep(3)
            run.send_signal(sig)
            status_got = run.wait(15)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        assert status_got == status
        assert "Traceback" not in run.stderr.read()


@needs_dask
def test_a_silent_scheduler_is_said_and_waited_for(tmp_path):
    """A scheduler that does not answer for NO_WORKERS_WARN seconds: the
    run says so (a warning on standard error) and waits; once the
    scheduler answers again the run ends with every result, the same as
    on one process."""
    with _cluster_processes(tmp_path) as (address, sched):
        run = _frozen_run(tmp_path, address, sched)
        try:
            deadline = time.monotonic() + batch.NO_WORKERS_WARN + 20
            said = ""
            while "has not answered" not in said:
                assert time.monotonic() < deadline, "no warning"
                said += run.stderr.readline()
            sched.send_signal(signal.SIGCONT)
            out, _err = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        assert run.returncode == 0
        one = subprocess.run([sys.executable, "-m", "whist_solve.cli.main", "table",
                              str(tmp_path / "deals.pbn"), "--json"], capture_output=True,
                             text=True)
        assert one.stdout.splitlines()[1:] == out.splitlines()
