"""DDS, the bridge double-dummy solver, through endplay, one thread: the
yardstick of ``whist-solve bench --compare-dds`` and of the node signature.

DDS knows bridge: no jokers, uptown only.  A downtown task is given to it
with the ranks relabelled (K becomes 2 ... 2 becomes K, the ace stays on
top), which is the same game.  :class:`DDSWorker` runs DDS in a process of
its own, so that its memory stays out of ours.

A task here is anything with the fields of :class:`whist_solve.bench.Task`
(``kind``, ``hands``, ``ranking``, ``trump``, ``leader``, ``trick``,
``dds_ok``).
"""
from __future__ import annotations

import os
import time
from typing import List, Tuple

from .vocab import STRAINS

# Downtown ranks as DDS's uptown ranks.
DOWN_TO_UP = dict(zip("KQJT98765432A", "23456789TJQKA"))

_dds_ready = False


def dds_available() -> bool:
    """Is endplay (DDS) installed?  Asked without importing it: its
    libraries took some 70 MB in the measuring process, whose peak memory
    the bench reports (DDS runs in a worker process of its own)."""
    import importlib.util
    try:
        # (the package only: finding endplay.dds would import endplay,
        # which loads DDS)
        return importlib.util.find_spec("endplay") is not None
    except (ImportError, ValueError):
        return False


def dds_setup() -> str:
    """Load DDS with one thread; returns a description ("DDS 2.9.0 ...")."""
    global _dds_ready
    import ctypes

    import endplay
    import endplay._dds as dds
    dds.SetMaxThreads(1)
    _dds_ready = True
    threads = "?"
    version = "?"
    try:
        buf = ctypes.create_string_buffer(8192)
        dds._dll.GetDDSInfo(buf)
        raw = buf.raw
        version = raw[12:22].split(b"\0")[0].decode() or "?"
        i = raw.find(b"Number of threads")
        if i >= 0:
            threads = raw[i:i + 40].split(b"\n")[0].split()[-1].decode()
    except Exception:  # pragma: no cover - layout differs
        pass
    if threads not in ("1", "?"):
        raise RuntimeError(f"DDS runs {threads} threads after SetMaxThreads(1)")
    return f"DDS {version} (endplay {getattr(endplay, '__version__', '?')}), {threads} thread"


def _dds_hand(cards) -> str:
    order = "AKQJT98765432"
    return ".".join("".join(sorted((c[1] for c in cards if c[0] == s), key=order.index))
                    for s in "SHDC")


def _relabel(cards, ranking):
    if ranking != "down":
        return list(cards)
    return [c[0] + DOWN_TO_UP[c[1]] for c in cards]


def dds_solve_task(task) -> Tuple[List[int], float]:
    """The task's values by DDS, and the time DDS took."""
    from endplay.dds import calc_dd_table, solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    if not _dds_ready:
        dds_setup()
    if not task.dds_ok:
        raise ValueError("DDS cannot express jokers")
    denom = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs,
             None: Denom.nt, "NT": Denom.nt}
    hands = [_relabel(h, task.ranking) for h in task.hands]
    trick = _relabel(task.trick, task.ranking)
    n = len(task.hands[task.leader]) + (1 if trick else 0)
    if task.kind == "table" and all(len(h) == 13 for h in hands):
        pbn = "N:" + " ".join(_dds_hand(h) for h in hands)
        t0 = time.perf_counter()
        table = calc_dd_table(Deal(pbn))
        seconds = time.perf_counter() - t0
        values = []
        for s in STRAINS:
            for leader in range(4):
                declarer = (leader + 3) % 4          # the leader is declarer's LHO
                t = table[denom[s], Player(declarer)]
                values.append(t if declarer % 2 == 0 else 13 - t)
        return values, seconds
    # positions: one SolveBoard each (tables of shorter deals: 20 of them)
    if task.kind == "table":
        spots = [(s if s != "NT" else None, leader, ()) for s in STRAINS for leader in range(4)]
    else:
        spots = [(task.trump, task.leader, trick)]
    values = []
    seconds = 0.0
    for trump, leader, tr in spots:
        full = [list(h) for h in hands]
        for i, c in enumerate(tr):
            full[(leader + i) % 4].append(c)
        pbn = "N:" + " ".join(_dds_hand(h) for h in full)
        t0 = time.perf_counter()
        deal = Deal(pbn, first=Player(leader), trump=denom[trump])
        for c in tr:
            deal.play(c)
        best = max(v for _, v in solve_board(deal, SolveMode.OptimalOne))
        seconds += time.perf_counter() - t0
        turn = (leader + len(tr)) % 4
        values.append(best if turn % 2 == 0 else n - best)
    return values, seconds


def _dds_worker_main(conn, parent_pid: int) -> None:
    """The DDS process: set up DDS, then solve the tasks sent until None.
    It ends with its parent, however the parent ends (as a pool worker:
    batch's _init_pool_worker), and leaves Ctrl-C to the parent."""
    from .batch import _init_pool_worker
    _init_pool_worker(parent_pid)
    try:
        conn.send(dds_setup())
    except Exception as e:
        conn.send(e)
        return
    while True:
        item = conn.recv()
        if item is None:
            break
        try:
            conn.send(dds_best_of(*item))
        except Exception as e:
            conn.send(e)


class DDSWorker:
    """DDS in a process of its own (one thread): its memory stays out of
    ours, and each deal can be given to it right after we solve it, so that
    a change in the machine's speed during the run touches both sides."""

    def __init__(self):
        import multiprocessing as mp
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_dds_worker_main, args=(child, os.getpid()), daemon=True)
        from .batch import _signals_blocked
        try:
            with _signals_blocked():     # (a Ctrl-C during the fork is not lost)
                self.proc.start()
            self.desc = self._recv()
        except BaseException:            # (its caller never gets it to stop)
            self.stop()
            raise

    def _recv(self):
        r = self.conn.recv()
        if isinstance(r, Exception):
            raise r
        return r

    def solve(self, task, repeat: int = 1) -> Tuple[List[int], float]:
        self.conn.send((task, repeat))
        return self._recv()

    def close(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(timeout=10)
        self.stop()

    def stop(self) -> None:
        """End the process now, whatever it is doing (an interrupted run)."""
        from .batch import end_process
        end_process(self.proc)


def dds_best_of(task, repeat: int = 1) -> Tuple[List[int], float]:
    """`dds_solve_task` `repeat` times, keeping the fastest time (as ours is
    with --repeat)."""
    best = None
    for _ in range(max(1, repeat)):
        vals, secs = dds_solve_task(task)
        if best is None or secs < best[1]:
            best = (vals, secs)
    return best
