"""``whist-solve bench``: run the fixed benchmark deal sets and measure.

For each set (``--set random|downtown|bid|endings|hard|exchange|all``, or PBN
files) it prints the number of deals, total time, deals/s, nodes, nodes/s,
the median / p90 / max time per deal and the peak memory; ``--compare-dds``
runs DDS (through endplay, one thread) on the same deals in the same run,
prints the ratios ours/DDS and checks that every value is equal;
``--compare-bridge-solver PATH`` does the same with a bridge-solver binary on
the full tables of 52-card uptown deals;
``--save-baseline`` / ``--baseline`` save and compare node counts and times.
The measuring is :mod:`whist_solve.bench`; this module chooses and shows.
"""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Dict, List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from whist_solve.bench import (DEFAULT_THRESHOLD, EXCHANGE_TT_MB, SIMULATE_COUNTS, SIMULATE_SET,
                               BenchError, compare_baseline, compare_with_bridge_solver,
                               compare_with_dds, load_reports,
                               measure_set, read_baseline, report_json,
                               save_baseline as write_baseline, simulate_bench, source_tree)
from whist_solve.batch import terminate_on_signals
from whist_solve.bridge_solver import TIMEOUT, BridgeSolver, BridgeSolverError
from whist_solve.dds_bridge import DDSWorker, dds_available
from whist_solve.engine import DEFAULT_TT_MB, Solver

from . import render
from .options import baseline_option, check_output_target, number_option
from .runner import EXIT_BAD, ErrConsole, OutConsole, writing_out


def bench(
    sets: List[str] = typer.Option(
        ["random"], "--set", "-s", metavar="SET",
        help="Deal set(s) to run (repeat or comma-separate): random, downtown, bid, endings, "
             "margin, hard, exchange, all; simulate (not in all: samples per second of a lead and a bid "
             "simulation, --limit samples of each); or PBN files."),
    compare_dds: bool = typer.Option(False, "--compare-dds",
                                     help="Also run DDS (endplay, one thread) on the same deals: "
                                          "ratios ours/DDS and a check that every value is equal."),
    compare_bs: Optional[Path] = typer.Option(
        None, "--compare-bridge-solver", metavar="BINARY",
        help="Also run this bridge-solver binary (macroxue's) on the full tables of 52-card "
             "uptown deals (random, hard, such PBN files), one process per deal: ratios "
             "ours/bridge-solver and a check that every value is equal."),
    peer_timeout: float = typer.Option(
        TIMEOUT, "--peer-timeout", min=0.001, max=1e6, callback=number_option, metavar="SECONDS",
        help="Stop the bridge-solver binary after this long on one deal (a failed run).",
        show_default=True),
    save_baseline: Optional[Path] = typer.Option(None, "--save-baseline", metavar="FILE",
                                                 callback=baseline_option,
                                                 help="Write node counts and times to a JSON baseline."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", metavar="FILE",
                                            help="Compare with a saved baseline; exit 1 on a time regression."),
    threshold: float = typer.Option(DEFAULT_THRESHOLD, "--threshold", min=0, callback=number_option,
                                    metavar="PERCENT",
                                    help="With --baseline: slower by more than this is a regression."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N", help="Worker processes."),
    repeat: int = typer.Option(1, "--repeat", "-r", min=1, metavar="N",
                               help="Solve each deal N times and keep its fastest time (steadier timings; DDS too)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, metavar="N", help="Only the first N deals of each set."),
    json_out: bool = typer.Option(False, "--json", help="A machine-readable report (one JSON object) on stdout."),
    tt_mb: Optional[int] = typer.Option(
        None, "--tt-mb", min=1, metavar="MB",
        help=f"Size of the transposition table in MB (default {DEFAULT_TT_MB}; "
             f"{EXCHANGE_TT_MB} for the exchange set, as `bid`)."),
    symmetry: bool = typer.Option(
        True, "--symmetry/--no-symmetry",
        help="Read the results of a symmetric deal's table off their families (the default, as "
             "`table`); --no-symmetry searches every result, to compare the searches themselves."),
    regen_sig: bool = typer.Option(False, "--regen-signature", hidden=True,
                                   help="Rewrite tests/data/node_signature.json and exit."),
) -> None:
    """Fixed deal sets: nodes, time, deals/s, peak memory; a saved
    baseline; DDS and bridge-solver side by side. Tables on stdout,
    progress on stderr."""
    # SIGTERM and SIGHUP stop the run as Ctrl-C does, so that the DDS
    # process and a bridge-solver run end with it
    with terminate_on_signals():
        status = run_bench(sets, compare_dds, save_baseline, baseline, threshold, jobs,
                           limit, json_out, tt_mb, regen_sig, repeat, compare_bs,
                           peer_timeout, symmetry)
    raise typer.Exit(status)


def _regen_signature(tt_mb: float) -> Path:
    """Runs the source tree's node-signature generator (tests/support/signature.py)."""
    path = source_tree("tests/support") / "signature.py"
    if not path.is_file():
        raise BenchError(f"{path}: not found (the node signature lives in the source tree)")
    spec = importlib.util.spec_from_file_location("whist_solve_node_signature", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.regen_signature(tt_mb=tt_mb)


def run_bench(sets, compare_dds=False, save_baseline=None, baseline=None,
              threshold=DEFAULT_THRESHOLD, jobs=1, limit=None, json_out=False, tt_mb=None,
              regen_sig=False, repeat=1, bridge_solver=None, peer_timeout=TIMEOUT,
              symmetry=True) -> int:
    """The ``bench`` command; returns the exit status."""
    # piped to a file: wide enough for the tables instead of rich's 80 columns
    out = OutConsole(highlight=False, soft_wrap=False, emoji=False,
                  width=None if sys.stdout.isatty() else 132)
    err = ErrConsole(soft_wrap=True)

    def error(message: str) -> None:
        err.print(f"[bold red]error:[/] {message}")

    if regen_sig:
        try:
            path = _regen_signature(tt_mb or DEFAULT_TT_MB)
        except BenchError as e:
            error(str(e))
            return EXIT_BAD
        err.print(f"wrote {path}")
        return 0

    # ---- load -----------------------------------------------------------
    bad_boards: List[str] = []

    def bad_board(message: str) -> None:
        # the other boards of the file are still run (exit status 2 at the end)
        error(message)
        bad_boards.append(message)

    # The simulate set is measured apart (samples per second, no deals).
    names = [p.strip() for v in sets for p in str(v).split(",") if p.strip()]
    want_sim = any(p.lower() == SIMULATE_SET for p in names)
    sets = [p for p in names if p.lower() != SIMULATE_SET]
    try:
        reports = (load_reports(sets, limit, tt_mb, bad_board, symmetry=symmetry)
                   if sets or not want_sim else [])
        base_doc = read_baseline(baseline) if baseline is not None else None
    except BenchError as e:
        error(str(e))
        return EXIT_BAD
    if (save_baseline is not None or baseline is not None) and want_sim:
        what = "--save-baseline" if save_baseline is not None else "--baseline"
        if not reports:
            # (it wrote or compared nothing, and said nothing: a check that passed)
            error(f"{what}: a baseline holds deal sets; the simulate set is measured apart")
            return EXIT_BAD
        err.print(f"[bold yellow]warning:[/] {what}: the simulate set is not in the baseline")
    if save_baseline is not None:
        try:
            check_output_target(str(save_baseline), [str(r.path) for r in reports if r.path],
                                what="the baseline", option="--save-baseline")
        except typer.BadParameter as e:
            error(f"--save-baseline: {e.message}")
            return EXIT_BAD
    if compare_dds and not dds_available():
        error("--compare-dds needs endplay (pip install endplay)")
        return EXIT_BAD
    bs = None
    if bridge_solver is not None:
        try:
            bs = BridgeSolver(bridge_solver, timeout=peer_timeout)
        except BridgeSolverError as e:
            error(f"--compare-bridge-solver: {e}")
            return EXIT_BAD

    # ---- our solver ---------------------------------------------------------
    solvers: Dict[float, object] = {}       # one process: one Solver per table size
    show_progress = err.is_terminal and not os.environ.get("WHIST_SOLVE_NO_PROGRESS")
    worker = DDSWorker() if compare_dds else None
    try:
        for rep in reports:
            n = len(rep.tasks)
            solver = None
            if jobs <= 1:
                if rep.tt_mb not in solvers:
                    solvers[rep.tt_mb] = Solver(rep.tt_mb)
                solver = solvers[rep.tt_mb]
            try:
                if show_progress:
                    with Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                                  transient=True) as prog:
                        tid = prog.add_task(f"{rep.name}", total=n)
                        measure_set(rep, jobs, repeat, solver, worker,
                                    on_done=lambda: prog.advance(tid), bs=bs)
                else:
                    err.print(f"{rep.name}: solving {n} deal(s)...")
                    measure_set(rep, jobs, repeat, solver, worker, bs=bs)
            except BridgeSolverError as e:   # the peer failed, not our engine
                error(str(e))
                return EXIT_BAD
            except Exception as e:  # a bug in the engine, not bad input (the boards were checked)
                error(f"{rep.name}: {type(e).__name__}: {e}")
                return EXIT_BAD
            err.print(f"{rep.name}: {n} deal(s) in {render.fmt_time(rep.wall)}")

        # ---- DDS ------------------------------------------------------------------
        status = 0
        dds_desc = None
        if worker is not None:
            dds_desc = worker.desc
            status = compare_with_dds(reports, worker, jobs, repeat, on_message=err.print)
            worker.close()
    finally:
        if worker is not None:
            worker.stop()       # a run that failed or was interrupted (else closed already)
    if bs is not None:
        try:
            status = max(status, compare_with_bridge_solver(reports, bs, jobs, repeat,
                                                            on_message=err.print))
        except BridgeSolverError as e:
            error(str(e))
            return EXIT_BAD

    comparison = None
    if base_doc is not None:
        comparison = compare_baseline(reports, base_doc, threshold, jobs, repeat)
        if any(c.get("regression") or c.get("values_changed") for c in comparison):
            status = 1
        apart = [f"{c['set']}: {c['note']}" for c in comparison if "note" in c]
        if apart and len(apart) == len(comparison):
            # (a check that compared nothing must not pass)
            error(f"--baseline {baseline}: nothing was compared ({'; '.join(apart)})")
            status = EXIT_BAD
        for what in (apart if len(apart) < len(comparison) else ()):
            err.print(f"[bold yellow]warning:[/] --baseline {baseline}: {what}")
    sim_results = None
    if want_sim:
        counts = {q: (limit or n) for q, n in SIMULATE_COUNTS.items()}
        err.print(f"simulate: {', '.join(f'{n} {q} samples' for q, n in counts.items())}...")
        sim_results = simulate_bench(counts, tt_mb=tt_mb)
    if save_baseline is not None and reports:
        try:
            write_baseline(save_baseline, reports, jobs, tt_mb or DEFAULT_TT_MB, repeat)
            err.print(f"baseline written to {save_baseline}")
        except OSError as e:   # a folder, a missing folder, no permission: the results still print
            error(f"cannot write the baseline {save_baseline}: {e.strerror or e}")
            status = max(status, 2)

    if bad_boards:
        status = max(status, 2)     # bad input, though the good boards were run

    # ---- report -------------------------------------------------------------
    if json_out:
        doc = report_json(reports, jobs, tt_mb or DEFAULT_TT_MB, repeat, status, dds_desc,
                          comparison, baseline, threshold, bad_boards,
                          bridge_solver=bs.desc if bs is not None else None)
        if sim_results is not None:
            doc["simulate"] = sim_results
        with writing_out():
            sys.stdout.write(json.dumps(doc) + "\n")
            sys.stdout.flush()
    else:
        with writing_out():
            if reports:
                for part in render.bench_report(reports, jobs, repeat, compare_dds, dds_desc,
                                                comparison, baseline, threshold,
                                                bs_desc=bs.desc if bs is not None else None):
                    out.print(part)
            if sim_results is not None:
                out.print(render.simulate_bench_table(sim_results))
    for line in render.bench_alerts(reports, comparison, threshold):
        err.print(line)
    return status
