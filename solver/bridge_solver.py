"""bridge-solver (macroxue's double-dummy solver for bridge, a C++ program)
as a peer of ``whist-solve bench --compare-bridge-solver PATH``.

It is an outside program, not a library: each deal is one run of the
binary (``PATH -f FILE``), and the time of a deal is the time of the whole
run, process start included.  It solves whole 52-card bridge deals, uptown,
with no jokers: the full 20-result table of such a deal is all it is asked
(:func:`applies`).

Its input file: North's four suits on line 1 (spades hearts diamonds clubs,
``-`` for a void), West and East on line 2 separated by four or more
spaces, South on line 3.  Its output: one line per strain, ``N S H D C``
(``N`` = no-trump), with the tricks of the declaring side when South,
North, West and East declare, in that order (the leader is the declarer's
left-hand opponent); the columns after those four (its own time and
memory) are ignored.

A task here is anything with the fields of :class:`whist_solve.bench.Task`
(``kind``, ``hands``, ``ranking``, ``jokers``).
"""
from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import tempfile
import time
from typing import Dict, List, Optional, Tuple

from .vocab import STRAINS

_ORDER = "AKQJT98765432"
# its strain letters -> ours
_STRAIN = {"N": "NT", "S": "S", "H": "H", "D": "D", "C": "C"}
_LINE = re.compile(r"^\s*([NSHDC])\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)(\s|$)")
# the most of its output quoted in an error
_QUOTE = 300
# A run of the binary on one deal that takes longer is stopped and reported
# (a hung or pathological peer must not hang the bench): its hardest deals
# take about 10 s on the development machine.
TIMEOUT = 600.0
# The most output kept from one run of the binary: its table is a few
# hundred bytes.  A peer that prints without end was held in memory
# whole (1.4 GB in 3 s for `yes`).
OUTPUT_CAP = 1 << 20


class _TooMuchOutput(Exception):
    pass


def _run_capped(cmd, timeout: float, cap: int = OUTPUT_CAP):
    """Run ``cmd`` in a session of its own: (return code, stdout, stderr),
    at most ``cap`` bytes of output in all.  Raises subprocess.TimeoutExpired
    after ``timeout`` seconds and _TooMuchOutput past the cap.  Whatever
    way it ends (an interrupt included), the whole session is killed: the
    program and anything it started, which would otherwise outlive the
    bench, and whose open pipes would keep it waiting.  The output read is
    what was written until the program itself exited."""
    deadline = time.monotonic() + timeout
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        chunks = {p.stdout: [], p.stderr: []}
        total = 0
        with selectors.DefaultSelector() as sel:
            for f in chunks:
                sel.register(f, selectors.EVENT_READ)
            exited = False
            while sel.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired(cmd, timeout)
                ready = sel.select(0 if exited else min(left, 0.05))
                if not ready and exited:
                    break               # exited, and nothing more to read now
                for key, _ in ready:
                    data = os.read(key.fd, 65536)
                    if not data:
                        sel.unregister(key.fileobj)
                        continue
                    chunks[key.fileobj].append(data)
                    total += len(data)
                    if total > cap:
                        raise _TooMuchOutput()
                exited = exited or p.poll() is not None
        left = deadline - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(cmd, timeout)
        code = p.wait(left)
        out, err = (b"".join(chunks[f]).decode(errors="replace") for f in (p.stdout, p.stderr))
        return code, out, err
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.stdout.close()
        p.stderr.close()
        p.wait()


class BridgeSolverError(Exception):
    """The binary is missing, cannot be run, fails or prints something
    other than a table."""


def applies(task) -> bool:
    """bridge-solver solves full tables of 52-card uptown deals with no
    jokers, and nothing else."""
    return (task.kind == "table" and task.ranking == "up" and not task.jokers
            and len(task.hands) == 4 and all(len(h) == 13 for h in task.hands))


def _suits(cards) -> List[str]:
    return ["".join(sorted((c[1] for c in cards if c[0] == s), key=_ORDER.index)) or "-"
            for s in "SHDC"]


def input_text(hands) -> str:
    """The input file of a deal (``hands``: N E S W, lists of card names)."""
    n, e, s, w = (" ".join(_suits(h)) for h in hands)
    return f"{n}\n{w}      {e}\n{s}\n"


def parse_output(text: str) -> List[int]:
    """North-South's tricks for each strain (``STRAINS``) and leader
    (N E S W), in the order of :meth:`whist_solve.bench.Task.keys`, read from
    the binary's output; raises :class:`BridgeSolverError` if a strain is
    missing or a number is not a trick count."""
    rows: Dict[str, List[int]] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        south, north, west, east = (int(m.group(k)) for k in range(2, 6))
        if any(t > 13 for t in (south, north, west, east)):
            raise BridgeSolverError(f"a trick count above 13: {line.strip()!r}")
        # declarer South: West leads; North: East; West: North; East: South
        by_leader = {"W": south, "E": north, "N": 13 - west, "S": 13 - east}
        rows[_STRAIN[m.group(1)]] = [by_leader[seat] for seat in "NESW"]
    missing = [s for s in STRAINS if s not in rows]
    if missing:
        raise BridgeSolverError(f"no result for {', '.join(missing)} in its output "
                                f"{_quote(text)}")
    return [v for s in STRAINS for v in rows[s]]


def _quote(text: str) -> str:
    text = text.strip()
    if not text:
        return "(empty)"
    return repr(text if len(text) <= _QUOTE else text[:_QUOTE] + "...")


class BridgeSolver:
    """One bridge-solver binary: ``solve(task)`` runs it on a deal."""

    def __init__(self, path, timeout: float = TIMEOUT):
        # (an absolute path: a name without a slash was checked here, in
        # the current folder, and then run from the PATH, maybe another
        # program)
        self.path = os.path.abspath(str(path))
        self.timeout = timeout
        self.check()

    @property
    def desc(self) -> str:
        return f"bridge-solver {self.path}, one process per deal"

    def check(self) -> None:
        """Raises :class:`BridgeSolverError` unless ``path`` is an
        executable file."""
        p = self.path
        if not os.path.exists(p):
            raise BridgeSolverError(f"bridge-solver binary {p}: no such file")
        if os.path.isdir(p):
            raise BridgeSolverError(f"bridge-solver binary {p}: a folder, not a program")
        if not os.access(p, os.X_OK):
            raise BridgeSolverError(f"bridge-solver binary {p}: not executable")

    def solve(self, task) -> Tuple[List[int], float]:
        """The task's 20 values by bridge-solver and the time of the whole
        run of the binary."""
        if not applies(task):
            raise ValueError("bridge-solver solves full tables of 52-card uptown deals only")
        fd, name = tempfile.mkstemp(prefix="whist-solve-bs-", suffix=".txt")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(input_text(task.hands))
            t0 = time.perf_counter()
            try:
                code, out, err = _run_capped([self.path, "-f", name], self.timeout)
            except subprocess.TimeoutExpired:       # the binary was killed
                raise BridgeSolverError(f"bridge-solver {self.path} gave no answer on board "
                                        f"{task.label} within {self.timeout:g} s; stopped it"
                                        ) from None
            except _TooMuchOutput:
                raise BridgeSolverError(f"bridge-solver {self.path} printed more than "
                                        f"{OUTPUT_CAP >> 20} MB on board {task.label} "
                                        f"(its table is a few lines); stopped it") from None
            except OSError as e:
                raise BridgeSolverError(f"bridge-solver binary {self.path}: cannot run it "
                                        f"({e.strerror or e})") from None
            seconds = time.perf_counter() - t0
        finally:
            try:
                os.unlink(name)
            except OSError:
                pass
        if code != 0:
            how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
            raise BridgeSolverError(f"bridge-solver {self.path} failed on board {task.label} "
                                    f"({how}): {_quote(err or out)}")
        try:
            values = parse_output(out)
        except BridgeSolverError as e:
            raise BridgeSolverError(f"bridge-solver {self.path} on board {task.label}: {e}") from None
        return values, seconds

    def best_of(self, task, repeat: int = 1) -> Tuple[List[int], float]:
        """:meth:`solve` ``repeat`` times, keeping the fastest time; the
        values must be the same every time."""
        best: Optional[Tuple[List[int], float]] = None
        for _ in range(max(1, repeat)):
            vals, secs = self.solve(task)
            if best is not None and vals != best[0]:
                raise BridgeSolverError(f"bridge-solver {self.path} on board {task.label}: "
                                        "a second run gave other values")
            if best is None or secs < best[1]:
                best = (vals, secs)
        return best
