"""The benchmark library behind ``whist-solve bench``: the fixed deal sets,
what is solved for each board (a :class:`Task`), solving with our engine
from an empty table, statistics, saved baselines and the comparison with
them, and DDS side by side (:mod:`whist_solve.dds_bridge`), and
bridge-solver too (:mod:`whist_solve.bridge_solver`, full tables of 52-card
uptown deals only).

What is solved per board:

* a board with no trump (no ``Trump`` tag, no ``Contract``): the full
  double-dummy table, 5 strains x 4 leaders, in the board's ranking
  (``Ranking`` tag, default up) -- the ``random``, ``downtown`` and ``hard``
  sets;
* a board with a trump: the value of its position (``Trump``, ``Ranking``,
  ``Leader``, after the cards of a ``Play`` section) -- ``bid``, ``endings``;
* the ``exchange`` set (no file: seeded deals of
  :func:`whist_solve.dealing.random_deal`): a bid whist 12 + 6 deal, the
  bidder's best exchange for all ten options
  (:func:`whist_solve.bid.analyse_bid`); its values are the ten books.

Each board starts from an empty transposition table (``Solver.clear()``), so
node counts do not depend on the order of the boards or on the number of
processes; the time per board includes the clearing.

:func:`run_sets` measures a list of :class:`SetReport` s; the command line
only chooses them and shows the result.
"""
from __future__ import annotations

import difflib
import json
import math
import os
import platform
import resource
import statistics
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .batch import backend_for, run_map
from .bridge_solver import applies as bs_applies
from .bid import ALL_OPTIONS, BID_TT_MB, analyse_bid
from .cards import JOKERS, Position
from .dealing import random_deal
from .engine import DEFAULT_TT_MB, dd_table
from .errors import WhistError
from .files import replace_file
from .pbn import read_pbn_file
from .vocab import SEATS, STRAINS

SET_NAMES = ("random", "downtown", "bid", "endings", "margin", "hard", "exchange")
# The sets generated from seeds rather than read from benchmarks/data.
GENERATED_SETS = ("exchange",)
# Seeds of the exchange set (whist_solve.dealing.random_deal): the first ten,
# not picked (typical deals take 0.5-5 s; seed 21, the slowest of 0..39,
# is measured in benchmarks/README.md instead).
EXCHANGE_SEEDS = tuple(range(10))
# (The description names the deal function by the name it is still
# importable under, whist_solve.bid.random_deal, so that saved reports and
# baselines keep comparing equal.)
GENERATED_DESCRIPTION = {
    "exchange": f"whist_solve.bid.random_deal(seed), seeds {EXCHANGE_SEEDS[0]}-{EXCHANGE_SEEDS[-1]}"}
EXCHANGE_TT_MB = BID_TT_MB   # as `whist-solve bid`
DEFAULT_THRESHOLD = 10.0      # percent slower than the baseline = regression
# A set slower than its baseline by less than this is no regression,
# whatever the percentage: the time of a short set is mostly noise.  Five
# identical runs of `bench --set endings,bid --limit 3` here took 1.4-6.8
# ms (endings) and 50-61 ms (bid); the full endings set, about 10 ms,
# 10.6-13.9 ms in six runs, two of them "regressions" of 11% and 31%.
MIN_REGRESSION_SECONDS = 0.05
BASELINE_FORMAT = "whist-solve-bench/1"

_REPO = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------
# Where the sets live


def source_tree(sub: str) -> Path:
    """``sub`` in the source tree: next to this package (editable install),
    else under the current directory (a normal install run from a checkout)."""
    for root in (_REPO, Path.cwd()):
        if (root / sub).is_dir():
            return root / sub
    return _REPO / sub


def data_dir() -> Path:
    """``benchmarks/data`` of the source tree this package runs from (an
    editable install), else the copy installed with the package,
    ``whist_solve.bench_sets``; ``$WHIST_SOLVE_BENCH_DATA`` overrides.
    (Not the current directory's: any folder holding a benchmarks/data
    would have been used without a word.)"""
    env = os.environ.get("WHIST_SOLVE_BENCH_DATA")
    if env:
        return Path(env)
    tree = _REPO / "benchmarks" / "data"
    if tree.is_dir():
        return tree
    from . import bench_sets
    return Path(bench_sets.__file__).resolve().parent


def set_path(name: str) -> Path:
    return data_dir() / f"{name}.pbn"


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
    symmetry: bool = True          # table: results of a symmetric deal read off others (dd_table)

    @property
    def jokers(self) -> bool:
        return any(c in JOKERS for h in self.hands for c in h) or \
            any(c in JOKERS for c in self.trick + self.kitty)

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
            return [f"{t} {r} books" for t, r in ALL_OPTIONS]
        return [f"{self.trump or 'NT'} {SEATS[self.leader]}"]


def task_of_board(b) -> Task:
    """The task of one board (a bad board raises WhistError)."""
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
    return tasks_from_boards(read_pbn_file(str(path)), on_error)


def exchange_tasks(seeds: Optional[Sequence[int]] = None) -> List[Task]:
    """The exchange set: one task per seed (default ``EXCHANGE_SEEDS``),
    the deal of :func:`whist_solve.dealing.random_deal`."""
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

    start_nodes = solver.nodes
    t0 = time.perf_counter()
    solver.clear()
    if task.kind == "table":
        table = dd_table(task.hands, strains=STRAINS, rankings=(task.ranking,), solver=solver,
                         symmetry=task.symmetry)
        values = [int(table[s][task.ranking][seat]) for s in STRAINS for seat in SEATS]
    elif task.kind == "exchange":
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
    out = []
    t0 = time.perf_counter()
    for r in run_map(solve_task_best_of, [(t, repeat) for t in tasks], backend_for(jobs),
                     tt_mb=tt_mb, solver=solver, return_exceptions=False, chunk=1):
        out.append(r)
        if on_done:
            on_done()
    return out, time.perf_counter() - t0


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
    # DDS's answers got right after ours (one process): deal index -> (values, seconds)
    dds_early: Dict[int, Tuple[List[int], float]] = field(default_factory=dict, repr=False)
    # bridge-solver, as DDS: values and times of the deals it solves, a note
    # when some or all do not apply, and its own mismatches
    bs_values: Optional[List[List[int]]] = None
    bs_times: Optional[List[float]] = None
    bs_note: Optional[str] = None
    bs_mismatches: List[dict] = field(default_factory=list)
    bs_early: Dict[int, Tuple[List[int], float]] = field(default_factory=dict, repr=False)

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.results)

    @property
    def symmetry(self) -> bool:
        """Are the tables of symmetric deals read off their families
        (False: every result searched, ``--no-symmetry``)?"""
        return all(t.symmetry for t in self.tasks)

    @property
    def times(self) -> List[float]:
        return [r.seconds for r in self.results]

    def to_json(self) -> dict:
        st = time_stats(self.times)
        d = {
            "set": self.name, "file": self.path, "deals": len(self.tasks),
            "kind": sorted({t.kind for t in self.tasks}), "tt_mb": self.tt_mb,
            "symmetry": self.symmetry,
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
            # (ours over the same deals: DDS solves no joker deal)
            ours = time_stats([r.seconds for t, r in zip(self.tasks, self.results) if t.dds_ok])
            d["dds"] = {"time": ds["total"], "median": ds["median"], "p90": ds["p90"], "max": ds["max"],
                        "ratio": ratios(ours, ds), "checked": len(self.dds_times),
                        "mismatches": self.mismatches}
        if self.dds_note:
            d["dds_note"] = self.dds_note
        if self.bs_times is not None:
            ours = time_stats([r.seconds for t, r in zip(self.tasks, self.results) if bs_applies(t)])
            bs = time_stats(self.bs_times)
            d["bridge_solver"] = {"time": bs["total"], "median": bs["median"], "p90": bs["p90"],
                                  "max": bs["max"], "ratio": ratios(ours, bs),
                                  "checked": len(self.bs_times), "mismatches": self.bs_mismatches}
        if self.bs_note:
            d["bridge_solver_note"] = self.bs_note
        return d


def ratios(ours: dict, dds: dict) -> dict:
    return {k: (ours[k] / dds[k] if dds[k] else None) for k in ("total", "median", "p90", "max")}


def settings_changed(rep: SetReport, base: dict, baseline: dict, jobs: Optional[int] = None,
                     repeat: Optional[int] = None) -> Tuple[List[str], List[str]]:
    """How the run of ``rep`` was set up differently from its baseline
    ``base`` (a set of ``baseline``): the differences that change node
    counts (the table size, symmetry) and those that change only times
    (jobs, repeats), as "--tt-mb 16 (now 44)".  A setting the baseline does
    not record is taken as the same."""
    nodes: List[str] = []
    times: List[str] = []
    was = base.get("tt_mb")
    if was is not None and float(was) != float(rep.tt_mb):
        nodes.append(f"--tt-mb {was:g} (now {rep.tt_mb:g})")
    was = base.get("symmetry")
    if was is not None and bool(was) != rep.symmetry:
        def sym(on):
            return "--symmetry" if on else "--no-symmetry"
        nodes.append(f"{sym(was)} (now {sym(rep.symmetry)})")
    for name, now in (("jobs", jobs), ("repeat", repeat)):
        was = baseline.get(name)
        if now is not None and was is not None and was != now:
            times.append(f"--{name} {was} (now {now})")
    return nodes, times


def compare_baseline(reports: List[SetReport], baseline: dict, threshold: float,
                     jobs: Optional[int] = None, repeat: Optional[int] = None) -> List[dict]:
    """One entry per set present in both: node and time changes, and
    whether the time is a regression (slower by more than ``threshold`` %
    and by MIN_REGRESSION_SECONDS at least).
    Deals are matched by board label, so a run with ``--limit`` compares
    with the same deals of a full baseline.  A baseline taken with other
    settings (``jobs``, ``repeat`` and each set's table size and symmetry:
    :func:`settings_changed`) is still compared, and the entry's
    ``settings_changed`` says how; its node changes are then the settings',
    and a slower time is no regression."""
    out = []
    sets = baseline.get("sets", {})
    for rep in reports:
        base = sets.get(rep.name)
        if base is None:
            out.append({"set": rep.name, "note": "not in the baseline"})
            continue
        node_settings, time_settings = settings_changed(rep, base, baseline, jobs, repeat)
        # (a label may come more than once in a file: its k-th deal in the
        # run is matched with its k-th in the baseline)
        by_label: dict = {}
        for d in base.get("per_deal", []):
            by_label.setdefault(d["board"], []).append(d)
        seen: dict = {}
        old = []
        for t in rep.tasks:
            k = seen[t.label] = seen.get(t.label, -1) + 1
            if k >= len(by_label.get(t.label, ())):
                break
            old.append(by_label[t.label][k])
        if len(old) < len(rep.tasks):
            out.append({"set": rep.name, "note": "the baseline has other deals: not compared"})
            continue
        changed = [t.label for t, r, b in zip(rep.tasks, rep.results, old) if r.nodes != b["nodes"]]
        value_changed = [t.label for t, r, b in zip(rep.tasks, rep.results, old)
                         if "values" in b and r.values != b["values"]]
        before = sum(b["time"] for b in old)
        now = sum(rep.times)
        ratio = now / before if before else None
        if ratio is not None and not math.isfinite(ratio):   # a baseline time of 1e-320 s
            ratio = None
        out.append({
            "set": rep.name, "deals": len(rep.tasks),
            "nodes_before": sum(b["nodes"] for b in old), "nodes_now": rep.nodes,
            "nodes_changed": changed,
            "values_changed": value_changed,
            "time_before": before, "time_now": now,
            "time_ratio": ratio,
            "median_before": statistics.median(b["time"] for b in old),
            "median_now": statistics.median(rep.times),
            "settings_changed": node_settings + time_settings,
            "nodes_comparable": not node_settings,
            "regression": (ratio is not None and ratio > 1 + threshold / 100
                           and now - before >= MIN_REGRESSION_SECONDS
                           and not (node_settings or time_settings)),
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


def _same_file(a: Path, b: Optional[Path]) -> bool:
    """Is ``a`` the set file ``b``, or a copy of it (a checkout's set beside
    the installed package's)?"""
    import filecmp
    try:
        return b is not None and (os.path.samefile(a, b) or filecmp.cmp(a, b, shallow=False))
    except OSError:
        return False


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
                name = p.stem if p.suffix.lower() == ".pbn" else part
                # (a user's random.pbn is not the shipped set: a baseline
                # of that set was compared with it)
                if name.lower() in SET_NAMES and not _same_file(p, named(name.lower())):
                    name = part
                out.append((name, p))
    # A set named twice runs once; two different files of one name keep
    # their paths as names (a second deals.pbn, or a user's random.pbn
    # beside the shipped set, was dropped without a word).
    taken: dict = {}
    uniq = []
    for n, p in out:
        key = None if p is None else os.path.realpath(p)
        if n in taken:
            if taken[n] == key:
                continue
            n = str(p)
            if n in taken:
                continue
        taken[n] = key
        uniq.append((n, p))
    return uniq


# --------------------------------------------------------------------------
# Running sets


class BenchError(Exception):
    """A problem that stops the run before anything is measured (a missing
    set file, a file with no boards, an unreadable baseline)."""


def load_reports(sets: Sequence[str], limit: Optional[int] = None, tt_mb: Optional[float] = None,
                 on_bad_board: Optional[Callable[[str], None]] = None,
                 symmetry: bool = True) -> List[SetReport]:
    """The reports, still to be measured, of the sets named (set names,
    ``all`` or PBN files; see :func:`resolve_sets`), each cut to its first
    ``limit`` deals; with ``symmetry`` False every result of a table is
    searched, even of a symmetric deal.  A bad board of a file is passed to
    ``on_bad_board(message)`` and left out; a missing file or a file with
    no boards raises :class:`BenchError`."""
    reports: List[SetReport] = []
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
            if name not in SET_NAMES and not path.suffix and len(path.parts) == 1:
                # (a word, not a file's name: a set misspelt)
                close = difflib.get_close_matches(name.lower(), (*SET_NAMES, "simulate", "all"), 1)
                extra = (f" (a set is one of {', '.join(SET_NAMES)}, simulate and all, or a "
                         "PBN file" + (f"; did you mean {close[0]}?)" if close else ")"))
            raise BenchError(f"{where}: no such file" + (f" {path}" if where != str(path) else "")
                             + extra)

        def bad_board(e, path=path):
            if on_bad_board is not None:
                on_bad_board(f"{path}: {e}")
        try:
            tasks = load_tasks(path, bad_board)
        except WhistError as e:
            text = str(e)
            raise BenchError(text if text.startswith(f"{path}:") else f"{path}: {text}") from None
        if limit:
            tasks = tasks[:limit]
        if not tasks:
            raise BenchError(f"{path}: no boards to run")
        reports.append(SetReport(name, str(path), tasks, tt_mb=tt_mb or DEFAULT_TT_MB))
    if not reports:
        raise BenchError("no set chosen")
    if not symmetry:
        for rep in reports:
            rep.tasks = [replace(t, symmetry=False) for t in rep.tasks]
    return reports


# A baseline holds a few numbers per deal (the shipped sets: about 60 KB);
# a file bigger than this is not one (and /dev/zero is not read for ever).
MAX_BASELINE_BYTES = 64 << 20


def read_baseline(path) -> dict:
    """A baseline saved by ``--save-baseline`` (:func:`baseline_json`)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BASELINE_BYTES + 1)
        if len(data) > MAX_BASELINE_BYTES:
            raise BenchError(f"baseline {path}: more than {MAX_BASELINE_BYTES >> 20} MB: "
                             "not a baseline saved by --save-baseline")
        doc = json.loads(data.decode("utf-8"))
    except OSError as e:
        raise BenchError(f"baseline {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise BenchError(f"baseline {path}: not a JSON file ({e})") from None
    except RecursionError:              # JSON nested deeper than Python's parser goes
        raise BenchError(f"baseline {path}: not a baseline saved by --save-baseline "
                         f"(nested too deep)") from None
    problem = _baseline_problem(doc)
    if problem:
        raise BenchError(f"baseline {path}: not a baseline saved by --save-baseline ({problem})")
    return doc


def _baseline_problem(doc) -> Optional[str]:
    """What makes ``doc`` unfit as a baseline, or None."""
    if not isinstance(doc, dict) or not isinstance(doc.get("sets"), dict):
        return "no 'sets' object"
    # the settings compared (settings_changed): absent, or of their kind
    for key in ("jobs", "repeat"):
        if doc.get(key) is not None and not (_count(doc[key]) and doc[key] >= 1):
            return f"'{key}' is {doc[key]!r}, not a whole number of at least 1"
    for name, entry in doc["sets"].items():
        deals = entry.get("per_deal") if isinstance(entry, dict) else None
        if not isinstance(deals, list):
            return f"set {name}: no 'per_deal' list"
        if entry.get("tt_mb") is not None and not (_count(entry["tt_mb"], float)
                                                    and entry["tt_mb"] > 0):
            return f"set {name}: 'tt_mb' is {entry['tt_mb']!r}, not a number of MB"
        if entry.get("symmetry") is not None and not isinstance(entry["symmetry"], bool):
            return f"set {name}: 'symmetry' is {entry['symmetry']!r}, not true or false"
        for d in deals:
            if not (isinstance(d, dict) and isinstance(d.get("board"), str)
                    and _count(d.get("nodes")) and _count(d.get("time"), float)):
                return f"set {name}: a deal without board, nodes and time"
        try:
            total = math.fsum(d["time"] for d in deals)
        except OverflowError:
            total = math.inf
        if not math.isfinite(total):
            return f"set {name}: times too big to add up"
    return None


def _count(x, kind=int) -> bool:
    """Is x a number of kind (an int; for float, an int or a float) that
    is at least 0 and finite (JSON's parser takes NaN and Infinity, and
    true for 1)?"""
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return x >= 0
    return kind is float and isinstance(x, float) and x >= 0 and math.isfinite(x)


def save_baseline(path, reports: List[SetReport], jobs: int, tt_mb: float, repeat: int = 1) -> None:
    replace_file(path, (json.dumps(baseline_json(reports, jobs, tt_mb, repeat), indent=1)
                        + "\n").encode("utf-8"))


def measure_set(rep: SetReport, jobs: int = 1, repeat: int = 1, solver=None, dds=None,
                on_done: Optional[Callable[[], None]] = None, bs=None) -> None:
    """Solve the tasks of ``rep`` (``jobs`` processes, each deal ``repeat``
    times, the fastest kept) and fill its results, wall time and peak
    memory.  With a DDS worker ``dds`` and one process, DDS solves each
    deal right after ours, so that a change in the machine's speed during
    the run touches both sides; so does a bridge-solver ``bs``
    (:class:`whist_solve.bridge_solver.BridgeSolver`) on the deals it
    applies to.  ``on_done()`` is called after each deal."""
    done = [0]

    def after_each():
        t = rep.tasks[done[0]]
        if dds is not None and jobs <= 1 and t.dds_ok:
            rep.dds_early[done[0]] = dds.solve(t, repeat)
        if bs is not None and jobs <= 1 and bs_applies(t):
            rep.bs_early[done[0]] = bs.best_of(t, repeat)
        done[0] += 1
        if on_done is not None:
            on_done()

    rep.results, wall = solve_tasks(rep.tasks, jobs, rep.tt_mb, solver, on_done=after_each,
                                    repeat=repeat)
    # with --repeat: one pass's worth of time (the fastest of each deal)
    if jobs <= 1 and (repeat > 1 or dds is not None or bs is not None):
        rep.wall = sum(rep.times)     # the peers' turns are not ours
    elif repeat <= 1:
        rep.wall = wall
    else:
        rep.wall = wall / repeat
    if jobs <= 1:
        rep.peak_rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    else:
        rep.peak_rss_kb = max(r.maxrss_kb for r in rep.results)


def _compare_values(rep: SetReport, applies: Callable, solve: Callable, early: dict,
                    name: str) -> Tuple[list, list, List[dict]]:
    """Another solver's values and times for the tasks of ``rep`` it
    ``applies`` to (taken from ``early`` where it has solved them already,
    else from ``solve(task)``), and one mismatch record, its value under the
    key ``name``, for each value that differs from ours."""
    values, times, mismatches = [], [], []
    for i, (t, r) in enumerate(zip(rep.tasks, rep.results)):
        if not applies(t):
            continue
        vals, secs = early.get(i) or solve(t)
        values.append(vals)
        times.append(secs)
        for key, ours, theirs in zip(t.keys(), r.values, vals):
            if ours != theirs:
                mismatches.append({"board": t.label, "what": key, "ranking": t.ranking,
                                   "ours": ours, name: theirs})
    return values, times, mismatches


def compare_with_dds(reports: List[SetReport], dds, jobs: int = 1, repeat: int = 1,
                     on_message: Optional[Callable[[str], None]] = None) -> int:
    """DDS's values and times for the deals it can express (those it has
    not solved already during :func:`measure_set`), every value checked
    against ours.  Fills each report's ``dds_*`` fields and ``mismatches``;
    returns 1 if any value differs, else 0."""
    status = 0
    for rep in reports:
        ok = [t for t in rep.tasks if t.dds_ok]
        if any(t.kind == "exchange" for t in rep.tasks):
            rep.dds_note = ("--compare-dds does not apply: the exchange set chooses the best "
                            "discard of bid whist deals with jokers; DDS solves bridge positions")
        elif len(ok) < len(rep.tasks):
            rep.dds_note = (f"{len(rep.tasks) - len(ok)} of {len(rep.tasks)} deal(s) have jokers: "
                            "DDS cannot express them (bridge has no jokers); not compared")
        if not ok:
            continue
        if jobs > 1 and on_message is not None:
            on_message(f"{rep.name}: DDS on {len(ok)} deal(s)...")
        rep.dds_values, rep.dds_times, found = _compare_values(
            rep, lambda t: t.dds_ok, lambda t: dds.solve(t, repeat), rep.dds_early, "dds")
        rep.mismatches.extend(found)
        if rep.mismatches:
            status = 1
    return status


def compare_with_bridge_solver(reports: List[SetReport], bs, jobs: int = 1, repeat: int = 1,
                               on_message: Optional[Callable[[str], None]] = None) -> int:
    """bridge-solver's values and times (``bs``: a
    :class:`whist_solve.bridge_solver.BridgeSolver`) for the full tables of
    52-card uptown deals (those it has not solved already during
    :func:`measure_set`), every value checked against ours.  Fills each
    report's ``bs_*`` fields; returns 1 if any value differs, else 0."""
    status = 0
    for rep in reports:
        ok = [t for t in rep.tasks if bs_applies(t)]
        if not ok:
            kinds = {t.kind for t in rep.tasks}
            why = ("chooses the best discard of bid whist deals with jokers" if "exchange" in kinds
                   else "solves positions with a trump, not full tables" if "value" in kinds
                   else "is downtown" if any(t.ranking == "down" for t in rep.tasks)
                   else "has no 52-card deals without jokers")
            rep.bs_note = ("--compare-bridge-solver does not apply: bridge-solver solves full "
                           f"tables of 52-card uptown bridge deals; this set {why}")
            continue
        if len(ok) < len(rep.tasks):
            rep.bs_note = (f"{len(rep.tasks) - len(ok)} of {len(rep.tasks)} deal(s) are not "
                           "52-card uptown full tables without jokers: bridge-solver does not "
                           "solve them; not compared")
        if jobs > 1 and on_message is not None:
            on_message(f"{rep.name}: bridge-solver on {len(ok)} deal(s)...")
        rep.bs_values, rep.bs_times, found = _compare_values(
            rep, bs_applies, lambda t: bs.best_of(t, repeat), rep.bs_early, "bridge_solver")
        rep.bs_mismatches.extend(found)
        if rep.bs_mismatches:
            status = 1
    return status


def report_json(reports: List[SetReport], jobs: int, tt_mb: float, repeat: int, status: int,
                dds: Optional[str] = None, comparison: Optional[List[dict]] = None,
                baseline=None, threshold: float = DEFAULT_THRESHOLD,
                bad_boards: Sequence[str] = (), bridge_solver: Optional[str] = None) -> dict:
    """The ``--json`` report of a run."""
    doc = {"format": BASELINE_FORMAT, "jobs": jobs, "tt_mb": tt_mb, "repeat": repeat,
           "sets": [r.to_json() for r in reports]}
    if dds:
        doc["dds"] = dds
    if bridge_solver:
        doc["bridge_solver"] = bridge_solver
    if comparison is not None:
        doc["baseline"] = {"file": str(baseline), "threshold": threshold,
                           "min_regression_seconds": MIN_REGRESSION_SECONDS, "sets": comparison}
    if bad_boards:
        doc["bad_boards"] = list(bad_boards)
    doc["status"] = status
    return doc



# --------------------------------------------------------------------------
# The simulate set: samples per second of the simulation questions
#
# Not a deal set (no nodes per deal, no DDS, no baseline): a lead question
# and a bid question from the same hands as benchmarks/simulate_speed.py,
# a few samples each so that it runs in seconds.  Not part of ``all``.

SIMULATE_SET = "simulate"
SIMULATE_COUNTS = {"lead": 20, "bid": 3}
SIMULATE_SEED = 1
SIM_LEAD_HAND = "KQT4.J83.A72.Q63"        # W leads against 4S by S, 39 cards unseen
SIM_BIDDER = "AK7.Q9.KJ8.T52.H"           # S in bid whist: 12 cards known, 42 unseen


def simulate_problem(question: str):
    """The benchmark's problem of ``question`` ('lead' or 'bid')."""
    from .cards import parse_hand
    from .simulate import bid_question, lead_question
    if question == "lead":
        return lead_question([None, None, None, parse_hand(SIM_LEAD_HAND)], "W", trump="S", level=4)
    if question == "bid":
        return bid_question([None, None, parse_hand(SIM_BIDDER), None], "S")
    raise WhistError(f"unknown simulation question {question!r}")


def simulate_bench(counts: Optional[Dict[str, int]] = None, seed: int = SIMULATE_SEED,
                   tt_mb: Optional[float] = None,
                   on_sample: Optional[Callable[[str, int], None]] = None) -> List[dict]:
    """Run each question's samples in this process (one Solver of its
    table size, made before the clock starts) and return, per question,
    the samples, seconds, samples per second, slowest sample and nodes."""
    from .engine import Solver
    from .simulate import simulate
    out = []
    for q, n in (counts or SIMULATE_COUNTS).items():
        problem = simulate_problem(q)
        mb = tt_mb or problem.tt_mb
        solver = Solver(mb)
        times: List[float] = []
        last = [time.perf_counter()]

        def progress(agg, q=q):
            now = time.perf_counter()
            times.append(now - last[0])
            last[0] = now
            if on_sample is not None:
                on_sample(q, agg.samples)

        t0 = time.perf_counter()
        last[0] = t0
        agg = simulate(problem, n, seed=seed, solver=solver, progress=progress)
        sec = time.perf_counter() - t0
        out.append({"question": q, "samples": agg.samples, "seconds": round(sec, 4),
                    "samples_per_second": round(agg.samples / sec, 3) if sec > 0 else None,
                    "slowest": round(max(times), 4) if times else None,
                    "nodes": solver.nodes, "tt_mb": mb, "seed": seed})
    return out
