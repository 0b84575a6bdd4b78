"""The ``whist-solve`` command line.

``whist-solve FILE...`` is ``whist-solve solve FILE...``.  Every command reads
one or more PBN files (``-`` for standard input) and streams its results board
by board: for people (rich output on stdout) or, with ``--json``, one JSON
object per board per line on stdout and nothing else there.  Progress,
warnings and errors go to stderr.

Exit status: 0 success, 1 a negative verdict (not used by these commands),
2 bad usage or bad input.  A bad board is reported (file, board, problem) and
the other boards are still solved; the exit status is then 2.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from contextlib import contextmanager
from typing import Iterator, List, Optional, Tuple

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                           TextColumn, TimeElapsedColumn)
from rich.text import Text
from typer.core import TyperGroup

from whist_solve.cards import (JOKERS, SEATS, STRAINS, Position, WhistError,
                               format_hand, full_deck)
from whist_solve.engine import DEFAULT_TT_MB

from . import render

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD = 2

# Seconds spent, per board, valuing the alternatives along the best line of
# `solve` (output for people only).
ALTERNATIVES_BUDGET = float(os.environ.get("WHIST_SOLVE_ALTERNATIVES_BUDGET", "10"))


# --------------------------------------------------------------------------
# The default command


class _DefaultSolveGroup(TyperGroup):
    """Runs ``solve`` when the first argument is not a command name."""

    default_command = "solve"

    def parse_args(self, ctx, args: List[str]) -> List[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names \
                and args[0] != "--version":
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DefaultSolveGroup,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Double-dummy solver for whist and bid whist (jokers, downtown, the kitty).\n\n"
         "[bold]whist-solve FILE...[/] is short for [bold]whist-solve solve FILE...[/]. "
         "Files are PBN; [bold]-[/] reads standard input.",
    epilog="Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input.",
)


def _version_callback(value: bool) -> None:
    if value:
        try:
            from importlib.metadata import version
            v = version("whist-solve")
        except Exception:  # pragma: no cover - not installed
            v = "unknown"
        typer.echo(f"whist-solve {v}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Show the version and exit.",
                                 callback=_version_callback, is_eager=True),
) -> None:
    """whist-solve: double-dummy solver for whist and bid whist."""


# --------------------------------------------------------------------------
# Option values


def _trump_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    v = value.strip().upper()
    v = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
         "N": "NT", "NOTRUMP": "NT", "NO-TRUMP": "NT", "NO": "NT"}.get(v, v)
    if v not in STRAINS:
        raise typer.BadParameter(f"{value!r}: expected S, H, D, C or NT")
    return v


def _ranking_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    v = value.strip().lower()
    v = {"uptown": "up", "\u2191": "up", "downtown": "down", "\u2193": "down"}.get(v, v)
    if v not in ("up", "down"):
        raise typer.BadParameter(f"{value!r}: expected up or down")
    return v


def _table_ranking_option(value: str) -> str:
    v = value.strip().lower()
    if v == "both":
        return v
    return _ranking_option(v)


def _seat_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    v = value.strip().upper()
    v = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}.get(v, v)
    if v not in SEATS:
        raise typer.BadParameter(f"{value!r}: expected N, E, S or W")
    return v


def _strains_option(values: Optional[List[str]]) -> Optional[List[str]]:
    if not values:
        return None
    out: List[str] = []
    for value in values:
        for part in value.replace(" ", ",").split(","):
            if part:
                s = _trump_option(part)
                if s not in out:
                    out.append(s)
    return [s for s in STRAINS if s in out]


# Options shared by the commands that solve a position of a board.
TRUMP_OPT = typer.Option(None, "--trump", "-t", callback=_trump_option, metavar="S|H|D|C|NT",
                         help="Trump suit or NT (overrides the file).")
RANKING_OPT = typer.Option(None, "--ranking", "-r", callback=_ranking_option, metavar="up|down",
                           help="Uptown or downtown (overrides the file).")
LEADER_OPT = typer.Option(None, "--leader", "-l", callback=_seat_option, metavar="N|E|S|W",
                          help="Leader of the first trick of the position (overrides the file).")
FILES_ARG = typer.Argument(..., metavar="FILE...", show_default=False,
                           help="PBN files; - reads standard input.")
JSON_OPT = typer.Option(False, "--json", help="One JSON object per board per line (JSON Lines) on stdout.")
TT_OPT = typer.Option(DEFAULT_TT_MB, "--tt-mb", min=1, help="Size of the transposition table in MB.")
JOBS_OPT = typer.Option(1, "--jobs", "-j", min=1,
                        help="Solve the boards on this many processes (results keep the file's order).")


# --------------------------------------------------------------------------
# Running through the boards


def _seat_letter(seat) -> str:
    if isinstance(seat, int):
        return SEATS[seat]
    return str(seat).strip().upper()[:1]


def _seat_number(seat) -> int:
    if isinstance(seat, int):
        return seat
    return SEATS.index(_seat_letter(seat))


def _file_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


class Run:
    """Shared state of one command: consoles, progress, the exit status."""

    def __init__(self, json_out: bool = False):
        self.json = json_out
        if not render._can_encode("\u2660\u2192", sys.stdout):
            # A terminal that cannot show the symbols: replace rather than crash.
            try:
                sys.stdout.reconfigure(errors="replace")
            except (AttributeError, ValueError):
                pass
        self.out = Console(highlight=False, soft_wrap=False, emoji=False)
        self.err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
        self.style = render.Style(sys.stdout)
        self.status = EXIT_OK
        self.pbn_header = False
        self._progress: Optional[Progress] = None
        self._task = None
        self._live = False

    # ---- messages ------------------------------------------------------

    def _message(self, kind: str, style: str, where: str, text: str) -> None:
        t = Text()
        t.append(f"{kind}: ", style=style)
        if where:
            t.append(f"{where}: ")
        t.append(text)
        self.err.print(t)

    def error(self, where: str, text: str) -> None:
        self.status = max(self.status, EXIT_BAD)
        self._message("error", "bold red", where, text)

    def warning(self, where: str, text: str) -> None:
        self._message("warning", "bold yellow", where, text)

    # ---- output --------------------------------------------------------

    def emit_json(self, obj: dict) -> None:
        text = json.dumps(obj, ensure_ascii=False)
        if not render._can_encode(text, sys.stdout):
            text = json.dumps(obj)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def emit(self, renderable) -> None:
        """Output for people: pauses the progress bar when both streams
        share the terminal."""
        paused = self._pause()
        self.out.print(renderable)
        sys.stdout.flush()
        if paused:
            self._resume()

    def emit_text(self, text: str) -> None:
        paused = self._pause()
        sys.stdout.write(text)
        sys.stdout.flush()
        if paused:
            self._resume()

    # ---- progress (stderr, terminal only) --------------------------------

    def _pause(self) -> bool:
        if self._progress is not None and self._live and self.out.is_terminal:
            self._progress.stop()
            self._live = False
            return True
        return False

    def _resume(self) -> None:
        if self._progress is not None and not self._live:
            self._progress.start()
            self._live = True

    @contextmanager
    def progress(self, total: int, name: str):
        if total > 1 and self.err.is_terminal:
            self._progress = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                MofNCompleteColumn(), TimeElapsedColumn(),
                console=self.err, transient=True, redirect_stdout=False, redirect_stderr=False)
            self._task = self._progress.add_task(name, total=total)
            self._progress.start()
            self._live = True
        try:
            yield self
        finally:
            if self._progress is not None:
                if self._live:
                    self._progress.stop()
                self._progress = None
                self._live = False

    def advance(self, description: Optional[str] = None) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=description)

    def describe(self, description: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=description)

    # ---- boards --------------------------------------------------------

    def boards(self, files: List[str]) -> Iterator[Tuple[str, object]]:
        """Yields (where, board) for every good board of every file; bad
        files and boards are reported on stderr and skipped."""
        from whist_solve.pbn import read_pbn_file

        for path in files:
            name = _file_name(path)
            try:
                boards = read_pbn_file(path)
            except WhistError as e:
                self.error(name, _strip_prefix(str(e), name, path))
                continue
            except (OSError, UnicodeDecodeError, ValueError) as e:
                self.error(name, f"cannot read the file: {e}")
                continue
            except Exception as e:  # an unexpected failure of the reader
                self.error(name, f"cannot read the file ({type(e).__name__}: {e})")
                continue
            if not boards:
                self.warning(name, "no boards in this file")
                continue
            with self.progress(len(boards), name):
                for board in boards:
                    where = f"{name}: board {board.label}"
                    self.describe(where)
                    if board.errors:
                        for msg in board.errors:
                            self.error(where, _strip_prefix(str(msg), name, path, f"board {board.label}"))
                        self.advance()
                        continue
                    yield where, board
                    self.advance()

    def each_board(self, files, tt_mb: int, handle) -> None:
        """`handle(solver, where, board)` for every board read without
        problems, one after the other, with one solver made at the first
        board; a board's failure is reported and the next board goes on."""
        solver = None
        for where, board in self.boards(files):
            with self.guard(where, board):
                if solver is None:
                    solver = _make_solver(tt_mb)
                handle(solver, where, board)

    @contextmanager
    def guard(self, where: str, board=None):
        """Reports the problems of one board without stopping the run."""
        try:
            yield
        except WhistError as e:
            label = f"board {board.label}" if board is not None else ""
            self.error(where, _strip_prefix(str(e), where, getattr(board, "file", ""), label))
        except (KeyboardInterrupt, SystemExit, typer.Exit, BrokenPipeError):
            raise   # a reader that closed the pipe (| head) ends the run, quietly
        except MemoryError:
            self.error(where, "out of memory (try a smaller --tt-mb)")
        except Exception as e:
            if os.environ.get("WHIST_SOLVE_DEBUG"):
                raise
            self.error(where, f"internal error ({type(e).__name__}: {e}); "
                              "set WHIST_SOLVE_DEBUG=1 for details")


def _strip_prefix(message: str, *prefixes: str) -> str:
    """Avoids 'file: board 1: file: board 1: ...' when the reader already
    named the file or the board."""
    for p in prefixes:
        if p and message.startswith(p + ":"):
            message = message[len(p) + 1:].lstrip()
    return message or "bad input"


def _finish(run: Run) -> None:
    raise typer.Exit(run.status)


def _make_solver(tt_mb: int):
    from whist_solve.engine import Solver
    return Solver(tt_mb=tt_mb)


# --------------------------------------------------------------------------
# solve


@app.command()
def solve(
    files: List[str] = FILES_ARG,
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = RANKING_OPT,
    leader: Optional[str] = LEADER_OPT,
    json_out: bool = JSON_OPT,
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
) -> None:
    """Value of the position for the side on turn, the value of each legal
    card and one optimal line to the end.

    Cards of the board's [bold]Play[/] section are played first.
    """
    run = Run(json_out)
    solver = None

    def prepare(board):
        return board.position(trump=trump, ranking=ranking, leader=leader)

    for where, board, pos, result in _map_prepared(run, files, prepare, _solve_work, jobs, tt_mb):
        with run.guard(where, board):
            if isinstance(result, Exception):
                raise result
            if solver is None and not run.json:
                solver = _make_solver(tt_mb)   # values the alternatives along the line
            _solve_board(run, solver, where, board, leader, pos, result)
    _finish(run)


def _solve_work(solver, pos: Position):
    """One board's solution (run in a worker process with --jobs)."""
    return solver.solve(pos, cards=True, line=True)


def _map_prepared(run: Run, files, prepare, work, jobs: int, tt_mb: int):
    """Read the boards, prepare each (errors are reported per board), run
    `work(solver, prepared)` on `jobs` processes and yield
    (where, board, prepared, result) in the files' order; a failed work
    item's exception comes back as its result."""
    from collections import deque

    from .parallel import map_boards

    queue: deque = deque()

    def items():
        for where, board in run.boards(files):
            prepared = None
            with run.guard(where, board):
                prepared = prepare(board)
            if prepared is not None:
                queue.append((where, board, prepared))
                yield prepared

    for result in map_boards(work, items(), jobs, tt_mb=tt_mb, return_exceptions=True, window=8):
        where, board, prepared = queue.popleft()
        yield where, board, prepared, result


def _solve_board(run: Run, solver, where: str, board, leader, pos: Position, result) -> None:
    first_leader = _seat_number(board.leader(leader))
    line = list(result.line or [])
    cards = {c: int(n) for c, n in result.cards.items()}
    turn = pos.turn
    if result.turn is not None and int(result.turn) != turn:
        run.warning(where, f"engine reports {SEATS[int(result.turn)]} on turn, expected {SEATS[turn]}")
    left = pos.tricks_left
    ns_tricks = int(result.ns_tricks)
    _check_line(run, where, pos, line, int(result.tricks))

    if run.json:
        obj = {
            "board": board.label,
            "deal": board.deal_string(),
            "trump": pos.trump or "NT",
            "ranking": pos.ranking,
            "leader": SEATS[first_leader],
            "turn": SEATS[turn],
            "tricks": int(result.tricks),
            "cards": {c: cards[c] for c in _ordered(cards, pos.ranking)},
            "line": line,
            "ns_tricks": ns_tricks,
            "ew_tricks": left - ns_tricks,
            "tricks_left": left,
            "trick": list(pos.trick),
            "trick_leader": SEATS[pos.leader],
            "won": {"NS": pos.ns_tricks, "EW": pos.ew_tricks},
            "nodes": int(result.nodes) if result.nodes is not None else None,
            "file": _file_name(board.file) if isinstance(board.file, str) else board.file,
        }
        run.emit_json(obj)
        return

    rows, decisions, analysed_to = _analyse_line(run, solver, pos, line, cards)
    played_before = _played_count(board, pos)
    tags = getattr(board, "tags", {}) or {}
    view = render.SolveView(
        title=f"Board {board.label}  {where.split(': board')[0]}",
        pos=pos, trump=pos.trump, ranking=pos.ranking, first_leader=first_leader,
        tricks=int(result.tricks), cards=cards, trick_rows=rows, decisions=decisions,
        analysed_to=analysed_to,
        contract=_tag(tags, "Contract"), declarer=_tag(tags, "Declarer") or _tag(tags, "Bidder"),
        kitty=getattr(board, "kitty", None) or None, played_before=played_before,
        nodes=result.nodes,
        jokers=any(c in JOKERS for h in pos.hands for c in h) or any(c in JOKERS for c in pos.trick),
    )
    run.emit(render.solve_view(run.style, view))


def _tag(tags, name: str) -> Optional[str]:
    value = (tags.get(name) or "").strip()
    return value if value and value != "?" else None


def _ordered(cards, ranking):
    from whist_solve.cards import sort_cards
    return sort_cards(cards, ranking)


def _played_count(board, pos: Position) -> int:
    hands = getattr(board, "hands", None)
    if not hands:
        return 0
    return sum(len(h) for h in hands) - sum(len(h) for h in pos.hands)


def _check_line(run: Run, where: str, pos: Position, line: List[str], tricks: int) -> None:
    """The line must be legal, go to the end and give the value."""
    p = pos
    side = pos.turn % 2
    try:
        for c in line:
            p = p.play(c)
    except WhistError as e:
        run.warning(where, f"the engine's line is not legal: {e}")
        return
    if not p.is_over():
        run.warning(where, "the engine's line stops before the end")
        return
    won_ns = p.ns_tricks - pos.ns_tricks
    won_ew = p.ew_tricks - pos.ew_tricks
    got = won_ns if side == 0 else won_ew
    if got != tricks:
        run.warning(where, f"the engine's line gives {got} tricks, its value is {tricks}")


def _analyse_line(run: Run, solver, pos: Position, line: List[str], first_cards):
    """Replays the line trick by trick and values the alternatives at every
    point where the seat on turn had a real choice (within a time budget)."""
    rows: List[render.LineTrick] = []
    decisions: List[render.Decision] = []
    analysed_to: Optional[int] = None
    start = time.monotonic()
    p = pos
    base = pos.ns_tricks + pos.ew_tricks
    won = [0, 0]                      # N-S, E-W from the solved position
    row = render.LineTrick(number=base + 1, leader=pos.leader, cards={})
    for i, c in enumerate(pos.trick):
        seat = (pos.leader + i) % 4
        row.cards[seat] = c
        row.before.append(seat)
    for step, card in enumerate(line):
        seat = p.turn
        legal = p.legal_moves()
        if len(legal) > 1 and analysed_to is None:
            if step == 0:
                values = dict(first_cards)
            elif time.monotonic() - start > ALTERNATIVES_BUDGET:
                analysed_to = row.number    # from this trick on, not analysed
                values = None
            else:
                values = {c: int(n) for c, n in solver.solve(p, cards=True, line=False).cards.items()}
            if values and len(set(values.values())) > 1:
                done = won[seat % 2]
                decisions.append(render.Decision(
                    trick_no=row.number, seat=seat, played=card,
                    values={c: done + n for c, n in values.items()}))
                row.choice_seats.append(seat)
        nxt = p.play(card)
        row.cards[seat] = card
        if not nxt.trick:             # trick complete
            row.winner = nxt.leader
            won[nxt.leader % 2] += 1
            row.ns, row.ew = won
            rows.append(row)
            row = render.LineTrick(number=row.number + 1, leader=nxt.leader, cards={})
        p = nxt
    if row.cards:
        rows.append(row)
    return rows, decisions, analysed_to


# --------------------------------------------------------------------------
# table


@app.command()
def table(
    files: List[str] = FILES_ARG,
    ranking: str = typer.Option("up", "--ranking", "-r", callback=_table_ranking_option,
                                metavar="up|down|both", help="Rankings to tabulate."),
    strain: Optional[List[str]] = typer.Option(None, "--strain", "--trump", "-t", callback=_strains_option,
                                               metavar="S|H|D|C|NT",
                                               help="Only these strains (repeat, or S,H,...). Default: all five."),
    json_out: bool = JSON_OPT,
    pbn: bool = typer.Option(False, "--pbn", help="Print each deal as PBN with an OptimumResultTable."),
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
) -> None:
    """Double-dummy table: tricks won by N-S for every strain and every
    leader of the first trick (the full deal; a [bold]Play[/] section is ignored)."""
    if json_out and pbn:
        raise typer.BadParameter("choose one of --json and --pbn", param_hint="--pbn")
    rankings = ("up", "down") if ranking == "both" else (ranking,)
    strains = tuple(strain) if strain else STRAINS
    run = Run(json_out)

    def prepare(board):
        hands = board.hands
        if not hands:
            raise WhistError("no deal (missing Deal tag)")
        hands = [list(h) for h in hands]
        # Validates the deal (duplicates, unequal hands) with the rules model.
        Position.make(hands, None, "up", 0)
        return (hands, strains, rankings)

    for where, board, item, result in _map_prepared(run, files, prepare, _table_work, jobs, tt_mb):
        with run.guard(where, board):
            if isinstance(result, Exception):
                raise result
            _table_board(run, where, board, item[0], result, strains, rankings, pbn)
    _finish(run)


def _table_work(solver, item):
    """One deal's table (run in a worker process with --jobs)."""
    from whist_solve.engine import dd_table

    hands, strains, rankings = item
    return dd_table(hands, strains=strains, rankings=rankings, solver=solver)


def _table_board(run: Run, where: str, board, hands, result, strains, rankings, pbn: bool) -> None:
    table = {s: {r: {seat: int(result[s][r][seat]) for seat in SEATS} for r in rankings}
             for s in strains}
    if run.json:
        run.emit_json({"board": board.label, "deal": board.deal_string(), "table": table,
                       "tricks_total": len(hands[0])})
        return
    if pbn:
        if not run.pbn_header:
            run.emit_text("% PBN 2.1\n% EXPORT\n")
            run.pbn_header = True
        else:
            run.emit_text("\n")
        run.emit_text(_table_pbn(board, table, len(hands[0])))
        return
    n = len(hands[0])
    title = f"Board {board.label}  {where.split(': board')[0]}"
    deal = render.deal_text(run.style, hands, getattr(board, "kitty", None))
    run.emit(render.dd_tables_view(run.style, title, table, strains, rankings, n, deal))


def _table_pbn(board, table, n_tricks: int) -> str:
    """The board's tags and sections, plus the OptimumResultTable (with a
    Ranking column when downtown values are in the table)."""
    from whist_solve.pbn import optimum_result_table, write_board

    tags = {k: v for k, v in board.tags.items() if k != "OptimumResultTable"}
    sections = {k: v for k, v in (getattr(board, "sections", None) or {}).items()
                if k in tags and v}
    if "Board" not in tags:
        tags["Board"] = board.label
    tags["Deal"] = board.deal_string()
    value, lines = optimum_result_table(table, total=n_tricks)
    tags["OptimumResultTable"] = value
    sections["OptimumResultTable"] = lines
    return write_board(tags, sections)


# --------------------------------------------------------------------------
# deal


@app.command()
def deal(
    count: int = typer.Option(1, "--count", "-n", min=1, help="Number of deals."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Random seed (the same seed gives the same deals)."),
    variant: str = typer.Option("classic", "--variant", metavar="classic|bid",
                                help="classic: 52 cards, 13 each, trump turned up by the dealer. "
                                     "bid: 54 cards (jokers), 12 each and a 6-card kitty."),
) -> None:
    """Random deals as PBN on stdout."""
    v = variant.strip().lower()
    if v not in ("classic", "bid"):
        raise typer.BadParameter(f"{variant!r}: expected classic or bid", param_hint="--variant")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    out = [f"% PBN 2.1", f"% whist-solve deal --variant {v} --count {count} --seed {seed}", ""]
    for i in range(count):
        out.extend(_random_board(rng, i + 1, v))
        out.append("")
    sys.stdout.write("\n".join(out))
    sys.stdout.flush()


def _random_board(rng: random.Random, number: int, variant: str) -> List[str]:
    dealer = (number - 1) % 4
    deck = full_deck(jokers=(variant == "bid"))
    rng.shuffle(deck)
    hands: List[List[str]] = [[], [], [], []]
    size = 13 if variant == "classic" else 12
    # One card at a time, starting at the dealer's left: the dealer gets the
    # last card dealt (turned up for trump in classic whist).
    for k in range(4 * size):
        hands[(dealer + 1 + k) % 4].append(deck[k])
    lines = [f'[Board "{number}"]', f'[Dealer "{SEATS[dealer]}"]', f'[Variant "{variant}"]']
    deal_str = "N:" + " ".join(format_hand(h) for h in hands)
    lines.append(f'[Deal "{deal_str}"]')
    if variant == "classic":
        last = deck[4 * size - 1]
        lines.append(f'[Trump "{last[0]}"]')
        lines.append(f'[Leader "{SEATS[(dealer + 1) % 4]}"]')
        lines.append(f"{{the dealer's last card, turned up: {last}}}")
    else:
        lines.append(f'[Kitty "{format_hand(deck[4 * size:])}"]')
    return lines


# --------------------------------------------------------------------------

from . import puzzles_cmd, play_cmd  # noqa: E402
puzzles_cmd.register(app); play_cmd.register(app)
from . import bench_cmd  # noqa: E402
bench_cmd.register(app)
from . import bid_cmd  # noqa: E402
bid_cmd.register(app)


def main() -> None:
    """Console script entry point."""
    try:
        app(prog_name="whist-solve")
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # The reader of stdout has gone (| head): stop without a traceback,
        # and without Python's own complaint when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
