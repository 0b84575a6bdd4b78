"""``whist-solve play FILE``: play a board out in the terminal with the
double-dummy value of every card.

At every turn the four hands, the tricks played so far and, for the seat on
turn, each legal card with the tricks its side takes after it (best play
from then on) are shown.  The user types a card (``SA``, ``sa``, ``S10``,
``\u2660A``, ``JH``), or one of: Enter / ``best`` (play a best card), ``undo``,
``hint``, ``help``, ``quit``.  Commands are read line by line from standard
input, so a session can be scripted.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Dict, List, Optional

import typer
from rich.text import Text

from whist_solve.cards import JOKERS, Position, parse_card, sort_cards
from whist_solve.errors import WhistError
from whist_solve.lines import LineTrick
from whist_solve.pbn import read_pbn_file
from whist_solve.puzzle import Goal, find_goal
from whist_solve.selection import find_label
from whist_solve.vocab import SEAT_NAMES, SEATS

from . import render
from .options import (AFTER_TRICK_OPT, FROM_LEAD_OPT, LEADER_OPT, RANKING_OPT, TRUMP_OPT, TT_OPT,
                      play_stop)
from .runner import EXIT_BAD, Run, file_name, make_solver, say_replayed_otherwise, shorten, writing_out

# The longest input line taken as a move (a card or a word fits in a few).
MAX_LINE = 1000

HELP = ("Type a card (SA, sa, S10, \u2660A, JH), or: Enter or 'best' plays a best card, "
        "'undo' takes a move back, 'hint' names the best cards, 'quit' ends.")
HELP_PLAIN = HELP.replace(", \u2660A", "")     # for a stream without the suit symbols


@dataclass
class Move:
    seat: int
    card: str
    cost: int          # tricks the mover's side lost with this card (0: a best card)


def play(
    file: str = typer.Argument(..., metavar="FILE", show_default=False,
                               help="A PBN file; - reads standard input (the moves are "
                                    "then typed on the terminal)."),
    board: Optional[str] = typer.Option(None, "--board", "-b", metavar="N",
                                        help="The board to play (its Board tag, or its "
                                             "number in the file). Default: the first."),
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = RANKING_OPT,
    leader: Optional[str] = LEADER_OPT,
    auto_forced: bool = typer.Option(False, "--auto-forced",
                                     help="Play a seat's only legal card without asking."),
    from_lead: bool = FROM_LEAD_OPT,
    after_trick: Optional[int] = AFTER_TRICK_OPT,
    tt_mb: int = TT_OPT,
) -> None:
    """Play a board out interactively, with the double-dummy value of
    every card.

    The screen fits 80 x 24: the board, the trump (and the kitty in bid
    whist), the hands around the current trick, the tricks played, the
    value of each card on turn and the last move's message.  A summary
    (mistakes and tricks lost) ends the board or [bold]quit[/].

    Type a card ([bold]SA[/], [bold]sa[/], [bold]\u2660A[/]), or Enter / [bold]best[/],
    [bold]undo[/], [bold]hint[/], [bold]help[/], [bold]quit[/].  The cards of the
    board's [bold]Play[/] section are played first (the first N tricks with
    [bold]--after-trick N[/], none with [bold]--from-lead[/]: a recorded
    hand played again from the start).
    """
    stop = play_stop(from_lead, after_trick)
    run = Run(False)
    if sys.stdin is None or sys.stdin.closed:
        run.error("", "standard input is closed: play reads the cards to play from it")
        raise typer.Exit(EXIT_BAD)
    try:
        # bytes the input's encoding cannot decode (PYTHONIOENCODING=ascii
        # and a typed é) are a line that is not a card, not an error
        sys.stdin.reconfigure(errors="replace")
    except (AttributeError, ValueError, OSError):
        pass
    moves = sys.stdin
    if file.strip() == "-":
        # the board comes from standard input: the moves from the terminal
        # (as a pager reads its keys while its text comes from a pipe)
        try:
            moves = open("/dev/tty", encoding=sys.stdin.encoding or "utf-8", errors="replace")
        except OSError:
            run.error("", "the board comes from standard input, and there is no terminal to "
                          "read the moves from: give the file's name instead of -")
            raise typer.Exit(EXIT_BAD)
    try:
        try:
            session = _load(file, board, trump, ranking, leader, stop)
        except WhistError as e:
            run.error("", str(e))
            raise typer.Exit(EXIT_BAD)
        session.moves_in = moves
        session.solver = make_solver(tt_mb)
        session.run = run
        session.auto_forced = auto_forced
        session.clear = run.out.is_terminal and moves.isatty()
        if stop != 0:
            said = say_replayed_otherwise(run, session.board, trump, ranking)
            if said and session.clear:
                # (the screen is cleared before it is drawn: the warning on it too)
                session.message = Text(f"warning: {said}", style="yellow")
        session.loop()
    finally:
        if moves is not sys.stdin:
            moves.close()
    raise typer.Exit(run.status)


# --------------------------------------------------------------------------
# Loading


def _select(boards, wanted: Optional[str], name: str):
    if wanted is None:
        return boards[0]
    w = wanted.strip()
    i = find_label([b.label for b in boards], w)
    if i is not None:
        return boards[i]
    # (not '²' nor '٣'; nor more digits than a board count has, which int()
    # may refuse)
    if w.isascii() and w.isdigit() and len(w) <= 12 and 1 <= int(w) <= len(boards):
        return boards[int(w) - 1]
    names = list(dict.fromkeys(b.label for b in boards))    # (a team file's repeat)
    labels = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    raise WhistError(f"{name}: no board {w!r} (boards: {labels})")


def _load(path: str, wanted, trump, ranking, leader, stop: Optional[int] = None) -> "Session":
    """The session of board ``wanted`` of the file, after the first
    ``stop`` tricks of its Play section (None: all its cards)."""
    name = file_name(path)
    try:
        boards = read_pbn_file(path)
    except WhistError as e:
        msg = str(e)
        raise WhistError(msg if msg.startswith(name) else f"{name}: {msg}") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise WhistError(f"{name}: cannot read the file: {e}") from None
    if not boards:
        raise WhistError(f"{name}: no boards in this file")
    b = _select(boards, wanted, name)
    if b.errors:
        raise WhistError(f"{name}: {b.named}: " + "; ".join(str(x) for x in b.errors))
    try:
        start = b.start_position(trump=trump, ranking=ranking, leader=leader)
        pos = b.position(trump=trump, ranking=ranking, leader=leader, tricks=stop)
        before = b.play_cards(pos.trump, pos.ranking)
        if stop is not None:
            before = before[:4 * stop]
        goal = find_goal(b, pos)     # (the goal puzzles would set, or None)
    except WhistError as e:
        raise WhistError(f"{name}: {e}") from None
    return Session(name=name, board=b, nboards=len(boards), start=start, before=before,
                   positions=[pos], moves=[], goal=goal)


# --------------------------------------------------------------------------
# The session


@dataclass
class Session:
    name: str
    board: object
    nboards: int
    start: Position               # the deal before any play
    before: List[str]             # cards of the Play section (not undoable)
    positions: List[Position]     # positions[0]: the loaded position; one more per move
    moves: List[Move]
    goal: Optional[Goal] = None   # the tricks a side needs from the loaded position on
    solver: object = None
    run: object = None
    auto_forced: bool = False     # play a seat's only legal card without asking
    clear: bool = False           # clear the terminal before each screen
    message: Optional[Text] = None  # the last move's message, kept on the next screen
    moves_in: object = None       # where the moves are read from: standard input, or the terminal

    def __post_init__(self) -> None:
        self._cache: Dict[Position, object] = {}
        self.jokers = any(c in JOKERS for h in self.start.hands for c in h)

    # ---- analysis --------------------------------------------------------

    @property
    def pos(self) -> Position:
        return self.positions[-1]

    @property
    def help(self) -> str:
        """HELP, without the card written with a suit symbol where the
        output cannot show one (PYTHONIOENCODING=ascii showed '?A')."""
        return HELP if self.run is None or self.run.style.symbols else HELP_PLAIN

    def analyse(self, pos: Position):
        res = self._cache.get(pos)
        if res is None:
            res = self.solver.solve(pos, cards=True, line=True)
            self._cache[pos] = res
        return res

    def ns_total(self, pos: Position) -> int:
        """Tricks N-S end with, from the start of the deal, if the rest is
        played double-dummy."""
        if pos.is_over():
            return pos.ns_tricks
        return pos.ns_tricks + int(self.analyse(pos).ns_tricks)

    # ---- output ----------------------------------------------------------

    def say(self, renderable) -> None:
        with writing_out():
            self.run.out.print(renderable)

    def _trick_rows(self) -> List[LineTrick]:
        cards = list(self.before) + [mv.card for mv in self.moves]
        costly = {len(self.before) + i for i, mv in enumerate(self.moves) if mv.cost > 0}
        rows: List[LineTrick] = []
        p = self.start
        row = LineTrick(number=1, leader=p.leader, cards={})
        for i, card in enumerate(cards):
            seat = p.turn
            row.cards[seat] = card
            if i < len(self.before):
                row.before.append(seat)
            if i in costly:
                row.choice_seats.append(seat)
            p = p.play(card)
            if not p.trick:
                row.winner = p.leader
                row.ns, row.ew = p.ns_tricks, p.ew_tricks
                rows.append(row)
                row = LineTrick(number=row.number + 1, leader=p.leader, cards={})
        if row.cards:
            row.ns, row.ew = p.ns_tricks, p.ew_tricks
            rows.append(row)
        return rows

    def _view(self, pos: Position, res) -> render.SolveView:
        return render.SolveView(
            title="", pos=pos, trump=pos.trump, ranking=pos.ranking, first_leader=self.start.leader,
            tricks=int(res.tricks) if res is not None else 0,
            cards={c: int(n) for c, n in res.cards.items()} if res is not None else {},
            trick_rows=self._trick_rows(), decisions=[], jokers=self.jokers)

    def _goal_got(self, ns_total: int) -> int:
        """The goal side's tricks from the loaded position on, when N-S end
        with ``ns_total``."""
        base = self.positions[0]
        if self.goal.side == "NS":
            return ns_total - base.ns_tricks
        return base.ns_tricks + base.tricks_left - ns_total  # E-W's tricks from the loaded position

    def _goal_text(self, ns_total: int) -> Optional[Text]:
        if not self.goal:
            return None
        return render.play_goal(self.goal, self._goal_got(ns_total))

    def show(self) -> None:
        """The screen: fits 80 x 24 (the board line, the hands around the
        current trick, the result, the tricks played, the values of the
        cards on turn and the last message)."""
        st = self.run.style
        pos = self.pos
        if self.clear:
            self.run.out.clear()
        else:
            self.say(Text(""))
        self.say(render.play_board_line(st, self.board, self.name, self.nboards, pos,
                                        self.board.kitty))
        self.say(render.play_compass_rows(st, pos))
        res = None if pos.is_over() else self.analyse(pos)
        view = self._view(pos, res)
        ns = self.ns_total(pos)
        total = pos.ns_tricks + pos.ew_tricks + pos.tricks_left
        result = render.play_result(pos, ns, total)
        g = self._goal_text(ns)
        if g is not None:
            result.append("\n")
            result.append_text(g)
        self.say(result)
        tricks = render.play_tricks(st, view.trick_rows)
        if tricks is not None:
            self.say(tricks)
        if res is not None:
            self.say(render.play_values(st, view))
        if self.message is not None:
            msg = self.message
            if pos.is_over():
                # (the summary follows: the last trick's last two cards, so
                # that the whole screen still fits 24 lines)
                msg = Text("\n").join(msg.split("\n")[-2:])
            self.say(msg)

    # ---- commands --------------------------------------------------------

    def best_card(self, pos: Position) -> str:
        res = self.analyse(pos)
        if res.line:
            return res.line[0]
        best = max(res.cards.values())
        return next(c for c, n in res.cards.items() if n == best)

    def play(self, card: str, forced: bool = False, auto: bool = False) -> None:
        pos = self.pos
        res = self.analyse(pos)
        values = {c: int(n) for c, n in res.cards.items()}
        nxt = pos.play(card)          # raises WhistError on an illegal card
        seat = pos.turn
        cost = max(values.values()) - values.get(card, max(values.values()))
        self.moves.append(Move(seat, card, cost))
        self.positions.append(nxt)
        msg = render.play_move(self.run.style, seat, card, cost, values, nxt, forced=forced)
        if self.message is not None and self.message.plain and auto:
            # the moves since the user's last one; the last four stay on screen
            lines = self.message.split("\n")[-3:]
            self.message = Text("\n").join([*lines, msg])
        else:
            self.message = msg

    def can_undo(self) -> bool:
        """A move of the user's to take back (with --auto-forced, forced
        cards alone would be played again at once)."""
        return bool(self.moves) and not (self.auto_forced and all(
            self._forced(self.positions[i]) for i in range(len(self.moves))))

    def undo(self) -> bool:
        if not self.can_undo():
            self.say(Text("Nothing to undo.", style="yellow"))
            return False
        undone = []
        while True:
            mv = self.moves.pop()
            self.positions.pop()
            undone.append(render.play_undone(self.run.style, mv.seat, mv.card))
            # a card played for the user goes back with the user's card before it
            if not (self.auto_forced and self.moves and self._forced(self.positions[-1])):
                break
        self.message = Text("\n").join(undone[-4:])
        return True

    def _forced(self, pos: Position) -> bool:
        return not pos.is_over() and len(pos.legal_moves()) == 1

    def summary(self) -> None:
        pos = self.pos
        self.say(render.play_summary(self.moves, len(self.before), pos,
                                     self.ns_total(self.positions[0]), pos.is_over()))
        if pos.is_over() and self.goal:
            self.say(render.play_goal_result(self.goal, self._goal_got(pos.ns_tricks)))
        elif pos.is_over() and self._classic_deal():
            self.say(render.play_classic_score(pos.ns_tricks, pos.ew_tricks))

    def _classic_deal(self) -> bool:
        """A whole deal of classic whist (13 tricks, no bid): the side with
        more tricks scores tricks - 6."""
        try:
            classic = self.board.game() == "classic"
            contract = self.board.contract()
        except WhistError:
            return False
        return (classic and (contract is None or contract.passed) and not self.jokers
                and len(self.start.hands[0]) == 13)

    def hint(self) -> None:
        pos = self.pos
        res = self.analyse(pos)
        values = {c: int(n) for c, n in res.cards.items()}
        best = max(values.values())
        cards = sort_cards([c for c, n in values.items() if n == best], pos.ranking)
        self.say(render.play_hint(self.run.style, pos, cards, best, every=len(cards) == len(values)))

    def loop(self) -> None:
        show = True
        summarised = False
        while True:
            pos = self.pos
            if self.auto_forced and self._forced(pos):
                self.play(pos.legal_moves()[0], forced=True, auto=True)
                show = True
                continue
            if show:
                self.show()
            show = False
            if pos.is_over():
                if not summarised:
                    self.summary()
                    summarised = True
                back = "'undo' takes a move back; " if self.can_undo() else ""
                self.say(Text(f"The play is over: N-S {pos.ns_tricks}, E-W {pos.ew_tricks}. "
                              f"{back}Enter ends.", style="bold"))
                prompt = "> "
            else:
                summarised = False
                prompt = f"{SEAT_NAMES[SEATS[pos.turn]]} to play (card, best, undo, hint, help, quit): "
            with writing_out():
                self.run.out.print(prompt, end="")
                sys.stdout.flush()
            source = self.moves_in or sys.stdin
            try:
                line = source.readline(MAX_LINE + 2)
            except OSError as e:             # (standard input opened for writing only)
                self.say(Text(""))
                where = "standard input" if source is sys.stdin else "the terminal"
                self.run.error("", f"cannot read the moves from {where}: {e.strerror or e}")
                return
            if len(line.rstrip("\r\n")) > MAX_LINE:   # not a move (and maybe no end: /dev/zero)
                self.say(Text(""))
                self.run.error("", f"an input line longer than {MAX_LINE} characters: "
                                   "the play ends")
                return
            if not line:                     # end of input
                self.say(Text(""))
                if not pos.is_over():
                    self.summary()
                return
            cmd = line.strip()
            word = cmd.lower()
            if word in ("q", "quit", "exit"):
                if not pos.is_over():
                    self.summary()
                return
            if word in ("u", "undo", "back"):
                show = self.undo()
                if not show:
                    self.message = None
                continue
            if word in ("?", "help", "h"):
                self.say(Text(self.help))
                continue
            if pos.is_over():
                if word in ("", "best", "b"):
                    return
                self.say(Text("The play is over: 'undo' or 'quit'.", style="yellow"))
                continue
            if word in ("hint",):
                self.hint()
                continue
            if word in ("", "best", "b"):
                self.message = None
                self.play(self.best_card(pos))
                show = True
                continue
            try:
                card = parse_card(cmd)
                self.message = None
                self.play(card)
                show = True
            except WhistError as e:
                said = shorten(str(e))       # (the line echoed, cut)
                self.say(Text(f"{said}. {self.help}" if "unknown card" in said else f"{said}.",
                              style="yellow"))
