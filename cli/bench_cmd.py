"""``whist-solve bench``: run the fixed benchmark deal sets and measure.

For each set (``--set random|downtown|bid|endings|hard|exchange|all``, or PBN files)
it prints the number of deals, total time, deals/s, nodes, nodes/s, the
median / p90 / max time per deal and the peak memory; ``--compare-dds`` runs
DDS (through endplay, one thread) on the same deals in the same run, prints
the ratios ours/DDS and checks that every value is equal; ``--save-baseline``
/ ``--baseline`` save and compare node counts and times.

What is solved per board:

* a board with no trump (no ``Trump`` tag, no ``Contract``): the full
  double-dummy table, 5 strains x 4 leaders, in the board's ranking
  (``Ranking`` tag, default up) -- the ``random``, ``downtown`` and ``hard``
  sets;
* a board with a trump: the value of its position (``Trump``, ``Ranking``,
  ``Leader``, after the cards of a ``Play`` section) -- ``bid``, ``endings``;
* the ``exchange`` set (no file: seeded deals of :func:`whist_solve.bid.random_deal`):
  a bid whist 12 + 6 deal, the bidder's best exchange for all ten options
  (:func:`whist_solve.bid.analyse_bid`); its values are the ten books.

Each board starts from an empty transposition table (``Solver.clear()``), so
node counts do not depend on the order of the boards or on ``--jobs``; the
time per board includes the clearing.

Also here: the node-count signature of the search (``tests/test_node_signature.py``).
After an intended change of the search, regenerate it with

    python -m whist_solve.cli.bench_cmd --regen-signature
"""
from __future__ import annotations

import json
import os
import platform
import random
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from whist_solve.bid import BID_TT_MB
from whist_solve.cards import SEATS, STRAINS
from whist_solve.engine import DEFAULT_TT_MB

SET_NAMES = ("random", "downtown", "bid", "endings", "hard", "exchange")
# The sets generated from seeds rather than read from benchmarks/data.
GENERATED_SETS = ("exchange",)
# Seeds of the exchange set (whist_solve.bid.random_deal): the first ten,
# not picked (typical deals take 0.5-5 s; seed 21, the slowest of 0..39,
# is measured in benchmarks/README.md instead).
EXCHANGE_SEEDS = tuple(range(10))
GENERATED_DESCRIPTION = {
    "exchange": f"whist_solve.bid.random_deal(seed), seeds {EXCHANGE_SEEDS[0]}-{EXCHANGE_SEEDS[-1]}"}
EXCHANGE_TT_MB = BID_TT_MB   # as `whist-solve bid`
DOWN_TO_UP = dict(zip("KQJT98765432A", "23456789TJQKA"))
DEFAULT_THRESHOLD = 10.0      # percent slower than the baseline = regression
BASELINE_FORMAT = "whist-solve-bench/1"
SIGNATURE_FORMAT = "whist-solve-node-signature/1"

_REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------
# Where the sets live


def _source_tree(sub: str) -> Path:
    """``sub`` in the source tree: next to this package (editable install),
    else under the current directory (a normal install run from a checkout)."""
    for root in (_REPO, Path.cwd()):
        if (root / sub).is_dir():
            return root / sub
    return _REPO / sub


def data_dir() -> Path:
    """``benchmarks/data`` of the source tree, else the copy installed with
    the package (``$WHIST_SOLVE_BENCH_DATA`` overrides)."""
    env = os.environ.get("WHIST_SOLVE_BENCH_DATA")
    if env:
        return Path(env)
    tree = _source_tree("benchmarks/data")
    if tree.is_dir():
        return tree
    return Path(__file__).resolve().parent.parent / "bench_sets"


def set_path(name: str) -> Path:
    return data_dir() / f"{name}.pbn"


def signature_path() -> Path:
    return _source_tree("tests/data") / "node_signature.json"


# --------------------------------------------------------------------------
# Tasks: what is solved for one board


@dataclass
class Task:
    """One board to solve: a full table (``kind == "table"``), the value
    of one position (``kind == "value"``) or the best exchange of a bid
    whist deal for the ten options (``kind == "exchange"``: ``hands`` before
    the exchange, ``kitty``, ``bidder``)."""

    label: str
    kind: str                      # "table" | "value" | "exchange"
    hands: list                    # N E S W: lists of card names (cards still held)
    ranking: str = "up"
    trump: Optional[str] = None    # value: 'S'..'C' or None (no-trump)
    leader: int = 0                # value: leader of the current trick
    trick: tuple = ()              # value: cards played to the current trick
    kitty: tuple = ()              # exchange: the undealt cards
    bidder: int = 0                # exchange: the bidder's seat

    @property
    def jokers(self) -> bool:
        return any(c in ("JH", "JL") for h in self.hands for c in h) or \
            any(c in ("JH", "JL") for c in self.trick + self.kitty)

    @property
    def dds_ok(self) -> bool:
        """DDS knows bridge: no jokers (downtown goes by relabelling), no
        exchange (DDS solves positions, not choices of discard)."""
        return self.kind != "exchange" and not self.jokers

    def keys(self) -> List[str]:
        """Names of the values, in the order of ``values``."""
        if self.kind == "table":
            return [f"{s} {seat}" for s in STRAINS for seat in SEATS]
        if self.kind == "exchange":
            from whist_solve.bid import ALL_OPTIONS
            return [f"{t} {r} books" for t, r in ALL_OPTIONS]
        return [f"{self.trump or 'NT'} {SEATS[self.leader]}"]


def task_of_board(b) -> Task:
    """The task of one board (a bad board raises WhistError)."""
    from whist_solve.cards import WhistError
    b.check()
    try:
        b.trump()
    except WhistError:
        return Task(b.label, "table", [list(h) for h in b.hands], b.ranking())
    pos = b.position()
    return Task(b.label, "value", [sorted(h) for h in pos.hands], pos.ranking,
                pos.trump, pos.leader, tuple(pos.trick))


def tasks_from_boards(boards, on_error=None) -> List[Task]:
    """Tasks of the boards of a PBN file.  A bad board raises WhistError,
    or with ``on_error`` is passed to ``on_error(error)`` and left out."""
    from whist_solve.cards import WhistError
    out = []
    for b in boards:
        try:
            out.append(task_of_board(b))
        except WhistError as e:
            if on_error is None:
                raise
            on_error(e)
    return out


def load_tasks(path, on_error=None) -> List[Task]:
    from whist_solve.pbn import read_pbn_file
    return tasks_from_boards(read_pbn_file(str(path)), on_error)


def exchange_tasks(seeds: Optional[Sequence[int]] = None) -> List[Task]:
    """The exchange set: one task per seed (default ``EXCHANGE_SEEDS``),
    the deal of :func:`whist_solve.bid.random_deal`."""
    from whist_solve.bid import random_deal
    out = []
    if seeds is None:
        seeds = EXCHANGE_SEEDS
    for seed in seeds:
        hands, kitty, bidder = random_deal(seed)
        out.append(Task(f"seed {seed}", "exchange", [list(h) for h in hands],
                        kitty=tuple(kitty), bidder=bidder))
    return out


def load_set(name: str) -> List[Task]:
    """The tasks of a set (``random``, ``downtown``..., ``exchange``)."""
    if name == "exchange":
        return exchange_tasks()
    return load_tasks(set_path(name))


# --------------------------------------------------------------------------
# Solving with our engine


@dataclass
class Solved:
    values: List[int]
    nodes: int
    seconds: float
    maxrss_kb: int = 0


def solve_task(solver, task: Task) -> Solved:
    """Solve one task from an empty transposition table."""
    from whist_solve.cards import Position
    from whist_solve.engine import dd_table

    start_nodes = solver.nodes
    t0 = time.perf_counter()
    solver.clear()
    if task.kind == "table":
        table = dd_table(task.hands, strains=STRAINS, rankings=(task.ranking,), solver=solver)
        values = [int(table[s][task.ranking][seat]) for s in STRAINS for seat in SEATS]
    elif task.kind == "exchange":
        from whist_solve.bid import analyse_bid
        values = [int(ex.books) for ex in analyse_bid(task.hands, task.kitty, task.bidder,
                                                      solver=solver)]
    else:
        pos = Position.make(task.hands, task.trump, task.ranking, task.leader, task.trick)
        values = [int(solver.ns_value(pos))]
    seconds = time.perf_counter() - t0
    return Solved(values, solver.nodes - start_nodes, seconds,
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def solve_task_best_of(solver, item) -> Solved:
    """``item`` = (task, repeat): solve ``repeat`` times, keep the fastest
    (the node counts and values are the same every time)."""
    task, repeat = item
    best = None
    for _ in range(max(1, repeat)):
        r = solve_task(solver, task)
        if best is not None and (r.nodes != best.nodes or r.values != best.values):
            raise RuntimeError(f"board {task.label}: a second solve gave other nodes/values")
        if best is None or r.seconds < best.seconds:
            best = r
    return best


def solve_tasks(tasks: Sequence[Task], jobs: int = 1, tt_mb: float = DEFAULT_TT_MB, solver=None,
                on_done=None, repeat: int = 1) -> Tuple[List[Solved], float]:
    """Solve every task (``jobs`` processes; each ``repeat`` times, the
    fastest kept); returns the results in order and the wall time."""
    from .parallel import map_boards
    out = []
    t0 = time.perf_counter()
    for r in map_boards(solve_task_best_of, [(t, repeat) for t in tasks], jobs,
                        tt_mb=tt_mb, solver=solver):
        out.append(r)
        if on_done:
            on_done()
    return out, time.perf_counter() - t0


# --------------------------------------------------------------------------
# DDS (endplay), one thread

_dds_ready = False


def dds_available() -> bool:
    try:
        import endplay.dds  # noqa: F401
    except Exception:
        return False
    return True


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


def dds_solve_task(task: Task) -> Tuple[List[int], float]:
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


def _dds_worker_main(conn) -> None:
    """The DDS process: set up DDS, then solve the tasks sent until None."""
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
        self.proc = ctx.Process(target=_dds_worker_main, args=(child,), daemon=True)
        self.proc.start()
        self.desc = self._recv()

    def _recv(self):
        r = self.conn.recv()
        if isinstance(r, Exception):
            raise r
        return r

    def solve(self, task: Task, repeat: int = 1) -> Tuple[List[int], float]:
        self.conn.send((task, repeat))
        return self._recv()

    def close(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(timeout=10)


def dds_best_of(task: Task, repeat: int = 1) -> Tuple[List[int], float]:
    """`dds_solve_task` `repeat` times, keeping the fastest time (as ours is
    with --repeat)."""
    best = None
    for _ in range(max(1, repeat)):
        vals, secs = dds_solve_task(task)
        if best is None or secs < best[1]:
            best = (vals, secs)
    return best


# --------------------------------------------------------------------------
# Statistics and reports


def percentile(xs: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    k = max(0, min(len(s) - 1, int(-(-q * len(s) // 100)) - 1))
    return s[k]


def time_stats(times: Sequence[float]) -> dict:
    return {"total": sum(times), "median": statistics.median(times) if times else 0.0,
            "p90": percentile(times, 90), "max": max(times) if times else 0.0}


@dataclass
class SetReport:
    name: str
    path: str
    tasks: List[Task]
    tt_mb: float = DEFAULT_TT_MB
    results: List[Solved] = field(default_factory=list)
    wall: float = 0.0
    peak_rss_kb: int = 0
    dds_values: Optional[List[List[int]]] = None
    dds_times: Optional[List[float]] = None
    dds_note: Optional[str] = None
    mismatches: List[dict] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.results)

    @property
    def times(self) -> List[float]:
        return [r.seconds for r in self.results]

    def to_json(self) -> dict:
        st = time_stats(self.times)
        d = {
            "set": self.name, "file": self.path, "deals": len(self.tasks),
            "kind": sorted({t.kind for t in self.tasks}), "tt_mb": self.tt_mb,
            "time": round(self.wall, 6), "solve_time": round(st["total"], 6),
            "deals_per_s": len(self.tasks) / self.wall if self.wall else None,
            "nodes": self.nodes, "nodes_per_s": self.nodes / self.wall if self.wall else None,
            "median": st["median"], "p90": st["p90"], "max": st["max"],
            "peak_rss_mb": round(self.peak_rss_kb / 1024, 1),
            "per_deal": [{"board": t.label, "nodes": r.nodes, "time": round(r.seconds, 6),
                          "values": r.values} for t, r in zip(self.tasks, self.results)],
        }
        if self.dds_times is not None:
            ds = time_stats(self.dds_times)
            d["dds"] = {"time": ds["total"], "median": ds["median"], "p90": ds["p90"], "max": ds["max"],
                        "ratio": _ratios(st, ds), "checked": len(self.dds_times),
                        "mismatches": self.mismatches}
        if self.dds_note:
            d["dds_note"] = self.dds_note
        return d


def _ratios(ours: dict, dds: dict) -> dict:
    return {k: (ours[k] / dds[k] if dds[k] else None) for k in ("total", "median", "p90", "max")}


def compare_baseline(reports: List[SetReport], baseline: dict, threshold: float) -> List[dict]:
    """One entry per set present in both: node and time changes, and
    whether the time is a regression (slower by more than ``threshold`` %).
    Deals are matched by board label, so a run with ``--limit`` compares
    with the same deals of a full baseline."""
    out = []
    sets = baseline.get("sets", {})
    for rep in reports:
        base = sets.get(rep.name)
        if base is None:
            out.append({"set": rep.name, "note": "not in the baseline"})
            continue
        by_label = {d["board"]: d for d in base.get("per_deal", [])}
        if not all(t.label in by_label for t in rep.tasks):
            out.append({"set": rep.name, "note": "the baseline has other deals: not compared"})
            continue
        old = [by_label[t.label] for t in rep.tasks]
        changed = [t.label for t, r, b in zip(rep.tasks, rep.results, old) if r.nodes != b["nodes"]]
        value_changed = [t.label for t, r, b in zip(rep.tasks, rep.results, old)
                         if "values" in b and r.values != b["values"]]
        before = sum(b["time"] for b in old)
        now = sum(rep.times)
        ratio = now / before if before else None
        out.append({
            "set": rep.name, "deals": len(rep.tasks),
            "nodes_before": sum(b["nodes"] for b in old), "nodes_now": rep.nodes,
            "nodes_changed": changed,
            "values_changed": value_changed,
            "time_before": before, "time_now": now,
            "time_ratio": ratio,
            "median_before": statistics.median(b["time"] for b in old),
            "median_now": statistics.median(rep.times),
            "regression": ratio is not None and ratio > 1 + threshold / 100,
        })
    return out


def baseline_json(reports: List[SetReport], jobs: int, tt_mb: float, repeat: int = 1) -> dict:
    return {
        "format": BASELINE_FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine(),
                    "cpus": os.cpu_count()},
        "jobs": jobs, "tt_mb": tt_mb, "repeat": repeat,
        "sets": {r.name: r.to_json() for r in reports},
    }


# --------------------------------------------------------------------------
# Node-count signature (tests/test_node_signature.py)


def signature_cases() -> List[dict]:
    """Small fixed positions whose node counts pin the search down: three
    seeded 52-card deals (one strain and leader each), four 8-card endings
    and two bid whist positions with jokers."""
    from whist_solve.cards import full_deck, format_hand

    def deal(seed, size, jokers=False):
        rng = random.Random(seed)
        deck = full_deck(jokers=jokers)
        rng.shuffle(deck)
        return [deck[k * size:(k + 1) * size] for k in range(4)]

    cases = []
    for i, (trump, ranking, leader) in enumerate([("S", "up", 0), ("NT", "up", 1), ("H", "down", 2)]):
        cases.append(("deal52", 9100 + i, 13, False, trump, ranking, leader))
    for i, (trump, ranking, leader) in enumerate([("NT", "up", 0), ("D", "up", 3),
                                                  ("C", "down", 1), ("NT", "down", 2)]):
        cases.append(("ending8", 9200 + i, 8, False, trump, ranking, leader))
    for i, (trump, ranking, leader) in enumerate([("S", "up", 0), ("NT", "down", 1)]):
        cases.append(("bid10", 9300 + i, 10, True, trump, ranking, leader))
    out = []
    for kind, seed, size, jokers, trump, ranking, leader in cases:
        hands = deal(seed, size, jokers)
        out.append({"name": f"{kind}-seed{seed}-{trump}-{ranking}-{SEATS[leader]}",
                    "deal": "N:" + " ".join(format_hand(h) for h in hands),
                    "trump": trump, "ranking": ranking, "leader": SEATS[leader]})
    return out


def signature_case_nodes(case: dict, tt_mb: float) -> Tuple[int, int]:
    """(value, nodes) of a case with a fresh Solver."""
    from whist_solve.cards import Position, parse_hand
    from whist_solve.engine import Solver

    hands = [parse_hand(h) for h in case["deal"][2:].split(" ")]
    pos = Position.make(hands, None if case["trump"] == "NT" else case["trump"], case["ranking"],
                        SEATS.index(case["leader"]))
    solver = Solver(tt_mb)
    value = solver.ns_value(pos)
    return int(value), int(solver.nodes)


def _check_signature_value(case: dict, value: int) -> None:
    """Refuse to store a value DDS disagrees with (cases without jokers)."""
    from whist_solve.cards import parse_hand
    hands = [parse_hand(h) for h in case["deal"][2:].split(" ")]
    task = Task(case["name"], "value", hands, case["ranking"],
                None if case["trump"] == "NT" else case["trump"], SEATS.index(case["leader"]))
    if task.dds_ok and dds_available():
        theirs = dds_solve_task(task)[0][0]
        if theirs != value:
            raise SystemExit(f"{case['name']}: whist-solve says {value}, DDS {theirs}: "
                             "not writing the signature")


REGEN_COMMAND = "python -m whist_solve.cli.bench_cmd --regen-signature"


def regen_signature(path: Optional[Path] = None, tt_mb: float = DEFAULT_TT_MB) -> Path:
    path = Path(path) if path else signature_path()
    cases = []
    for case in signature_cases():
        value, nodes = signature_case_nodes(case, tt_mb)
        _check_signature_value(case, value)
        cases.append(dict(case, value=value, nodes=nodes))
    doc = {
        "format": SIGNATURE_FORMAT,
        "about": "Node counts of the search on fixed positions, each with a fresh Solver(tt_mb). "
                 "A change means the search changed. After an intended change, regenerate with: "
                 + REGEN_COMMAND,
        "tt_mb": tt_mb,
        "cases": cases,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# The command


def _fmt_time(s: Optional[float]) -> str:
    if s is None:
        return "-"
    if s >= 100:
        return f"{s:.0f} s"
    if s >= 1:
        return f"{s:.2f} s"
    return f"{s * 1000:.1f} ms"


def _fmt_count(n: Optional[float]) -> str:
    if n is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def _fmt_tables(reports: Sequence[SetReport]) -> str:
    """``64 MB`` or ``64 MB (exchange 512 MB)``: the table sizes used."""
    plain = [r.tt_mb for r in reports if r.name not in GENERATED_SETS]
    main = plain[0] if plain else reports[0].tt_mb
    other = [f"{r.name} {r.tt_mb:g} MB" for r in reports if r.tt_mb != main]
    return f"{main:g} MB" + (f" ({', '.join(other)})" if other else "")


def _fmt_ratio(r: Optional[float]) -> str:
    return "-" if r is None else f"{r:.2f}x"


def resolve_sets(names: Sequence[str]) -> List[Tuple[str, Optional[Path]]]:
    """``all``, set names and PBN paths -> [(name, path)]; the path of a
    generated set (``exchange``) is None."""
    out: List[Tuple[str, Optional[Path]]] = []
    def named(n: str):
        return None if n in GENERATED_SETS else set_path(n)

    for value in names:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if part.lower() == "all":
                out.extend((n, named(n)) for n in SET_NAMES)
            elif part.lower() in SET_NAMES:
                out.append((part.lower(), named(part.lower())))
            else:
                p = Path(part)
                out.append((p.stem if p.suffix.lower() == ".pbn" else part, p))
    seen = set()
    uniq = []
    for n, p in out:
        if n not in seen:
            seen.add(n)
            uniq.append((n, p))
    return uniq


def register(app) -> None:
    """Add the ``bench`` command to the typer app."""
    import typer

    @app.command("bench")
    def bench(
        sets: List[str] = typer.Option(
            ["random"], "--set", "-s", metavar="random|downtown|bid|endings|hard|exchange|all|FILE",
            help="Deal set(s) to run (repeat or comma-separate), or PBN files."),
        compare_dds: bool = typer.Option(False, "--compare-dds",
                                         help="Also run DDS (endplay, one thread) on the same deals: "
                                              "ratios ours/DDS and a check that every value is equal."),
        save_baseline: Optional[Path] = typer.Option(None, "--save-baseline", metavar="FILE",
                                                     help="Write node counts and times to a JSON baseline."),
        baseline: Optional[Path] = typer.Option(None, "--baseline", metavar="FILE",
                                                help="Compare with a saved baseline; exit 1 on a time regression."),
        threshold: float = typer.Option(DEFAULT_THRESHOLD, "--threshold", min=0, metavar="PERCENT",
                                        help="With --baseline: slower by more than this is a regression."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
        repeat: int = typer.Option(1, "--repeat", "-r", min=1,
                                   help="Solve each deal N times and keep its fastest time (steadier timings; DDS too)."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N deals of each set."),
        json_out: bool = typer.Option(False, "--json", help="A machine-readable report (one JSON object) on stdout."),
        tt_mb: Optional[int] = typer.Option(
            None, "--tt-mb", min=1,
            help=f"Size of the transposition table in MB (default {DEFAULT_TT_MB}; "
                 f"{EXCHANGE_TT_MB} for the exchange set, as `bid`)."),
        regen_sig: bool = typer.Option(False, "--regen-signature",
                                       help="Rewrite tests/data/node_signature.json and exit."),
    ) -> None:
        """Fixed deal sets: nodes, time, deals/s, peak memory; a saved
        baseline; DDS side by side. Tables on stdout, progress on stderr."""
        raise typer.Exit(run_bench(sets, compare_dds, save_baseline, baseline, threshold, jobs,
                                   limit, json_out, tt_mb, regen_sig, repeat))


def run_bench(sets, compare_dds=False, save_baseline=None, baseline=None,
              threshold=DEFAULT_THRESHOLD, jobs=1, limit=None, json_out=False, tt_mb=None,
              regen_sig=False, repeat=1) -> int:
    from rich.console import Console
    from rich.table import Table

    # piped to a file: wide enough for the tables instead of rich's 80 columns
    out = Console(highlight=False, soft_wrap=False, emoji=False,
                  width=None if sys.stdout.isatty() else 132)
    err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

    if regen_sig:
        path = regen_signature(tt_mb=tt_mb or DEFAULT_TT_MB)
        err.print(f"wrote {path}")
        return 0

    # ---- load -----------------------------------------------------------
    from whist_solve.cards import WhistError
    reports: List[SetReport] = []
    bad_boards: List[str] = []
    for name, path in resolve_sets(sets):
        if path is None:                        # a generated set
            tasks = load_set(name)
            if limit:
                tasks = tasks[:limit]
            reports.append(SetReport(name, GENERATED_DESCRIPTION[name], tasks,
                                     tt_mb=tt_mb or EXCHANGE_TT_MB))
            continue
        if not path.exists():
            where = f"set {name}" if name in SET_NAMES else str(path)
            extra = (" (the sets live in the source tree's benchmarks/data; "
                     "set WHIST_SOLVE_BENCH_DATA or pass a PBN file)") if name in SET_NAMES else ""
            err.print(f"[bold red]error:[/] {where}: no such file {path}{extra}")
            return 2
        def bad_board(e, path=path):
            # the other boards of the file are still run (exit status 2 at the end)
            err.print(f"[bold red]error:[/] {path}: {e}")
            bad_boards.append(f"{path}: {e}")
        try:
            tasks = load_tasks(path, bad_board)
        except WhistError as e:
            err.print(f"[bold red]error:[/] {path}: {e}")
            return 2
        if limit:
            tasks = tasks[:limit]
        if not tasks:
            err.print(f"[bold red]error:[/] {path}: no boards to run")
            return 2
        reports.append(SetReport(name, str(path), tasks, tt_mb=tt_mb or DEFAULT_TT_MB))
    if not reports:
        err.print("[bold red]error:[/] no set chosen")
        return 2
    base_doc = None
    if baseline is not None:
        try:
            base_doc = json.loads(Path(baseline).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            err.print(f"[bold red]error:[/] baseline {baseline}: {e}")
            return 2
    if compare_dds and not dds_available():
        err.print("[bold red]error:[/] --compare-dds needs endplay (pip install endplay)")
        return 2

    # ---- our solver ---------------------------------------------------------
    from .parallel import map_boards  # noqa: F401  (import errors early)
    solvers: Dict[float, object] = {}       # one process: one Solver per table size
    show_progress = err.is_terminal and not os.environ.get("WHIST_SOLVE_NO_PROGRESS")
    dds_done: Dict[Tuple[int, int], Tuple[List[int], float]] = {}
    worker = DDSWorker() if compare_dds else None
    for ri, rep in enumerate(reports):
        n = len(rep.tasks)
        solver = None
        done = [0]

        def after_each(ri=ri, rep=rep, done=done):
            # One process: DDS solves each deal right after ours, so that a
            # change in the machine's speed during the run touches both.
            t = rep.tasks[done[0]]
            if worker is not None and jobs <= 1 and t.dds_ok:
                dds_done[(ri, done[0])] = worker.solve(t, repeat)
            done[0] += 1
        if jobs <= 1:
            if rep.tt_mb not in solvers:
                from whist_solve.engine import Solver
                solvers[rep.tt_mb] = Solver(rep.tt_mb)
            solver = solvers[rep.tt_mb]
        try:
            if show_progress:
                from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                           TimeElapsedColumn)
                with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TimeElapsedColumn(), console=err, transient=True) as prog:
                    tid = prog.add_task(f"{rep.name}", total=n)
                    rep.results, wall = solve_tasks(
                        rep.tasks, jobs, rep.tt_mb, solver,
                        on_done=lambda: (after_each(), prog.advance(tid)), repeat=repeat)
            else:
                err.print(f"{rep.name}: solving {n} deal(s)...")
                rep.results, wall = solve_tasks(rep.tasks, jobs, rep.tt_mb, solver,
                                                on_done=after_each, repeat=repeat)
        except Exception as e:  # a bug in the engine, not bad input (the boards were checked)
            err.print(f"[bold red]error:[/] {rep.name}: {type(e).__name__}: {e}")
            if worker is not None:
                worker.close()
            return 2
        # with --repeat: one pass's worth of time (the fastest of each deal)
        if jobs <= 1 and (repeat > 1 or compare_dds):
            rep.wall = sum(rep.times)     # DDS's turns are not ours
        elif repeat <= 1:
            rep.wall = wall
        else:
            rep.wall = wall / repeat
        if jobs <= 1:
            rep.peak_rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        else:
            rep.peak_rss_kb = max(r.maxrss_kb for r in rep.results)
        err.print(f"{rep.name}: {n} deal(s) in {_fmt_time(rep.wall)}")

    # ---- DDS ------------------------------------------------------------------
    status = 0
    dds_desc = None
    if worker is not None:
        dds_desc = worker.desc
        for ri, rep in enumerate(reports):
            ok = [t for t in rep.tasks if t.dds_ok]
            if any(t.kind == "exchange" for t in rep.tasks):
                rep.dds_note = ("--compare-dds does not apply: the exchange set chooses the best "
                                "discard of bid whist deals with jokers; DDS solves bridge positions")
            elif len(ok) < len(rep.tasks):
                rep.dds_note = (f"{len(rep.tasks) - len(ok)} of {len(rep.tasks)} deal(s) have jokers: "
                                "DDS cannot express them (bridge has no jokers); not compared")
            if not ok:
                continue
            if jobs > 1:
                err.print(f"{rep.name}: DDS on {len(ok)} deal(s)...")
            rep.dds_values, rep.dds_times = [], []
            for i, (t, r) in enumerate(zip(rep.tasks, rep.results)):
                if not t.dds_ok:
                    continue
                vals, secs = dds_done.get((ri, i)) or worker.solve(t, repeat)
                rep.dds_values.append(vals)
                rep.dds_times.append(secs)
                for key, ours, theirs in zip(t.keys(), r.values, vals):
                    if ours != theirs:
                        rep.mismatches.append({"board": t.label, "what": key, "ranking": t.ranking,
                                               "ours": ours, "dds": theirs})
            if rep.mismatches:
                status = 1
        worker.close()

    comparison = None
    if base_doc is not None:
        comparison = compare_baseline(reports, base_doc, threshold)
        if any(c.get("regression") or c.get("values_changed") for c in comparison):
            status = 1
    if save_baseline is not None:
        Path(save_baseline).write_text(json.dumps(baseline_json(reports, jobs, tt_mb or DEFAULT_TT_MB, repeat), indent=1) + "\n",
                                       encoding="utf-8")
        err.print(f"baseline written to {save_baseline}")

    if bad_boards:
        status = max(status, 2)     # bad input, though the good boards were run

    # ---- report -------------------------------------------------------------
    if json_out:
        doc = {"format": BASELINE_FORMAT, "jobs": jobs, "tt_mb": tt_mb or DEFAULT_TT_MB, "repeat": repeat,
               "sets": [r.to_json() for r in reports]}
        if dds_desc:
            doc["dds"] = dds_desc
        if comparison is not None:
            doc["baseline"] = {"file": str(baseline), "threshold": threshold, "sets": comparison}
        if bad_boards:
            doc["bad_boards"] = bad_boards
        doc["status"] = status
        sys.stdout.write(json.dumps(doc) + "\n")
        sys.stdout.flush()
    else:
        t = Table(title=f"whist-solve bench  ({jobs} process{'es' if jobs > 1 else ''}, "
                        f"TT {_fmt_tables(reports)}, empty table per deal"
                        + (f", fastest of {repeat} per deal" if repeat > 1 else "") + ")",
                  title_justify="left")
        for col in ("set", "deals", "total", "deals/s", "nodes", "nodes/s", "median", "p90", "max", "peak mem"):
            t.add_column(col, justify="left" if col == "set" else "right", no_wrap=True)
        for rep in reports:
            j = rep.to_json()
            t.add_row(rep.name, str(j["deals"]), _fmt_time(rep.wall),
                      f"{j['deals_per_s']:.2f}" if j["deals_per_s"] else "-",
                      _fmt_count(j["nodes"]), _fmt_count(j["nodes_per_s"]),
                      _fmt_time(j["median"]), _fmt_time(j["p90"]), _fmt_time(j["max"]),
                      f"{j['peak_rss_mb']:.0f} MB")
        out.print(t)
        if jobs > 1:
            out.print("total is wall time with all processes; median/p90/max are per deal in one process; "
                      "peak mem is the largest worker's.")
        if compare_dds:
            down = any(t.ranking == "down" for rep in reports for t in rep.tasks)
            d = Table(title=f"ours / DDS  ({dds_desc}"
                            + ("; downtown by relabelling the ranks for DDS" if down else "") + ")",
                      title_justify="left")
            for col in ("set", "compared", "DDS total", "total", "median", "p90", "max", "values"):
                d.add_column(col, justify="left" if col == "set" else "right", no_wrap=True)
            for rep in reports:
                if not rep.dds_times:
                    d.add_row(rep.name, "0", "-", "-", "-", "-", "-", "[yellow]not comparable[/]")
                    continue
                ours = time_stats([r.seconds for tk, r in zip(rep.tasks, rep.results) if tk.dds_ok])
                ds = time_stats(rep.dds_times)
                ratio = _ratios(ours, ds)
                nvals = sum(len(v) for v in rep.dds_values)
                verdict = (f"[green]all {nvals} equal[/]" if not rep.mismatches
                           else f"[bold red]{len(rep.mismatches)} MISMATCH(ES)[/]")
                d.add_row(rep.name, str(len(rep.dds_times)), _fmt_time(ds["total"]),
                          _fmt_ratio(ratio["total"]), _fmt_ratio(ratio["median"]),
                          _fmt_ratio(ratio["p90"]), _fmt_ratio(ratio["max"]), verdict)
            out.print(d)
            out.print("ratios compare the per-deal solve times (ours / DDS); DDS runs one thread in a "
                      "process of its own and, with one job, solves each deal right after us.")
            for rep in reports:
                if rep.dds_note:
                    out.print(f"[yellow]{rep.name}: {rep.dds_note}[/]")
        if comparison is not None:
            c = Table(title=f"against baseline {baseline} (regression: > {threshold:g}% slower)",
                      title_justify="left")
            for col in ("set", "nodes before", "nodes now", "search", "time before", "time now", "change", "verdict"):
                c.add_column(col, justify="left" if col in ("set", "search", "verdict") else "right")
            for e in comparison:
                if "note" in e:
                    c.add_row(e["set"], "", "", e["note"], "", "", "", "")
                    continue
                search = ("[yellow]changed ({} deal(s))[/]".format(len(e["nodes_changed"]))
                          if e["nodes_changed"] else "same")
                if e["values_changed"]:
                    search += f" [bold red]values differ: {', '.join(e['values_changed'][:5])}[/]"
                r = e["time_ratio"]
                verdict = ("[bold red]REGRESSION[/]" if e["regression"]
                           else "[green]faster[/]" if r is not None and r < 1 - threshold / 100 else "ok")
                c.add_row(e["set"], _fmt_count(e["nodes_before"]), _fmt_count(e["nodes_now"]), search,
                          _fmt_time(e["time_before"]), _fmt_time(e["time_now"]),
                          "-" if r is None else f"{(r - 1) * 100:+.1f}%", verdict)
            out.print(c)

    # mismatches are always loud, on stderr
    for rep in reports:
        for m in rep.mismatches:
            err.print(f"[bold red]MISMATCH[/] {rep.name} board {m['board']} {m['what']} ({m['ranking']}): "
                      f"whist-solve {m['ours']}, DDS {m['dds']}")
    if comparison is not None:
        for e in comparison:
            if e.get("regression"):
                err.print(f"[bold red]REGRESSION[/] {e['set']}: {_fmt_time(e['time_before'])} -> "
                          f"{_fmt_time(e['time_now'])} ({(e['time_ratio'] - 1) * 100:+.1f}%, "
                          f"threshold {threshold:g}%)")
            if e.get("nodes_changed"):
                err.print(f"note: {e['set']}: node counts changed on {len(e['nodes_changed'])} deal(s) "
                          f"({e['nodes_before']} -> {e['nodes_now']}): the search changed")
            if e.get("values_changed"):
                err.print(f"[bold red]VALUES CHANGED[/] {e['set']}: boards {', '.join(e['values_changed'])}")
    return status


def _main(argv: Optional[List[str]] = None) -> int:
    """``python -m whist_solve.cli.bench_cmd --regen-signature [--tt-mb N] [--out FILE]``."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m whist_solve.cli.bench_cmd",
                                 description="Regenerate the node-count signature of the search.")
    ap.add_argument("--regen-signature", action="store_true", required=True)
    ap.add_argument("--tt-mb", type=float, default=DEFAULT_TT_MB)
    ap.add_argument("--out", type=Path, default=None, help=f"default: {signature_path()}")
    args = ap.parse_args(argv)
    path = regen_signature(args.out, args.tt_mb)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
