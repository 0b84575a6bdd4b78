"""``whist-solve simulate FILE...``: double-dummy simulation from the cards
a player can see.  Each board gives what is known (hands, ``-`` for an
unknown one, the Unseen, TrumpCard and Constraint tags, the contract,
leader or bidder); the unseen cards are dealt at random ``--count`` times
(:mod:`whist_solve.sampling`), every deal is solved exactly and the
answers aggregated (:mod:`whist_solve.simulate`).

Three questions: ``bid`` (bid whist: what to bid from the bidder's hand),
``lead`` (the opening lead against a contract) and ``tricks`` (the
double-dummy table's distribution).  The samples run through
:mod:`whist_solve.batch` (``--jobs``, ``--scheduler``); sample ``i``
depends on the seed and ``i`` only and the aggregates are integer sums, so
the output is the same, byte for byte, whatever runs it.
"""
from __future__ import annotations

import dataclasses
import re
import time
from typing import List, Optional

import typer

from whist_solve.batch import (BatchError, WorkersUnavailable, default_jobs, run_map,
                               terminate_on_signals)
from whist_solve.bid import Scoring
from whist_solve.constraints import ConstraintError, Constraints
from whist_solve.errors import WhistError
from whist_solve.sampling import NoDealError, sample_deal
from whist_solve.simulate import (bid_question, lead_question, only_deal, run_samples,
                                  tricks_question, work_items)
from whist_solve.vocab import SEATS, STRAINS, parse_contract, parse_seat

from . import render
from .options import (BIDDER_OPT, BOARDS_OPT, BOSTON_OPT, FILES_ARG, JSON_OPT, LEADER_OPT,
                      NT_DOUBLE_OPT, SCHEDULER_OPT, TRUMP_OPT, number_option, seat_option,
                      strains_option, table_ranking_option, threads_option, tt_option)
from .runner import EXIT_BAD, Run, board_json, stopped_by, worker_threads

QUESTIONS = ("bid", "lead", "tricks")
# Default sample counts: the bid question solves ten exchanges a sample.
DEFAULT_COUNT = {"bid": 100, "lead": 200, "tricks": 200}
DEFAULT_SEED = 1


class Interrupted(BaseException):
    """Ctrl-C (or SIGTERM, SIGHUP: ``signum``) during a board: the partial
    result was printed.  (Not an Exception: the board guard lets it
    through.)"""

    def __init__(self, signum: Optional[int] = None):
        super().__init__(signum)
        self.signum = signum


class Unreachable(BaseException):
    """The batch backend cannot run anything (e.g. a scheduler that cannot
    be reached): the command stops with exit status 2."""


def _question_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    v = value.strip().lower()
    if v not in QUESTIONS:
        raise typer.BadParameter(f"{value!r}: expected bid, lead or tricks")
    return v


def _time_option(value: Optional[float]) -> Optional[float]:
    """--time: a number of seconds above 0 (0 gave a result of no sample)."""
    value = number_option(value)
    if value is not None and not value > 0:
        raise typer.BadParameter(f"{value:g}: expected a number of seconds above 0")
    return value


def _contract_option(value: Optional[str]):
    if value is None:
        return None
    try:
        c = parse_contract(value)
    except WhistError:
        raise typer.BadParameter(f"{value!r}: expected a contract such as 4S, 3NT or 4H down") from None
    if c.passed or not 1 <= c.level <= 7:
        raise typer.BadParameter(f"{value!r}: expected a contract of level 1 to 7")
    return c


def simulate(
    files: List[str] = FILES_ARG,
    question: Optional[str] = typer.Option(
        None, "--question", "-q", callback=_question_option, metavar="bid|lead|tricks",
        help="What to answer. Default: lead with --contract; bid for a bid whist board with a "
             "Bidder whose hand is known; lead when the board gives a trump and a leader whose "
             "hand is known; else tricks."),
    count: Optional[int] = typer.Option(
        None, "--count", "-n", min=1, metavar="N",
        help="Samples (deals) to solve. Default: 100 for bid, 200 for lead and tricks."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", min=0,
                             help="Seed of the samples, 0 or more (as deal's): the same seed "
                                  "gives the same answer."),
    constraint: Optional[List[str]] = typer.Option(
        None, "--constraint", "-c", metavar="EXPR",
        help="A condition on the unseen hands, e.g. 'hcp(E) >= 12 and length(E, S) >= 5' "
             "(repeat: all must hold; and-ed with the board's Constraint tag)."),
    time_budget: Optional[float] = typer.Option(
        None, "--time", callback=_time_option, metavar="SECONDS",
        help="A time budget for each board: when it is spent, print the board's result so far (marked partial)."),
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = typer.Option(
        None, "--ranking", "-r", callback=lambda v: None if v is None else table_ranking_option(v),
        metavar="up|down|both",
        help="Uptown or downtown (overrides the file); tricks also takes both."),
    leader: Optional[str] = LEADER_OPT,
    contract: Optional[str] = typer.Option(
        None, "--contract", metavar="CONTRACT",
        help="The contract of the lead question, e.g. 4S, 3NT, 4H down (overrides the file)."),
    declarer: Optional[str] = typer.Option(
        None, "--declarer", callback=seat_option, metavar="N|E|S|W",
        help="The declarer of the lead question (default: the Declarer tag, in bid whist "
             "the Bidder, else the leader's right-hand opponent)."),
    bidder: Optional[str] = BIDDER_OPT,
    strain: Optional[List[str]] = typer.Option(
        None, "--strain", callback=strains_option, metavar="S|H|D|C|NT",
        help="tricks: only these strains (repeat, or S,H,...). Default: --trump's, else "
             "classic whist's TrumpCard suit, else all five."),
    min_bid_3: bool = typer.Option(False, "--min-bid-3",
                                   help="bid: the lowest bid is 3 (9 books)."),
    nt_double: bool = NT_DOUBLE_OPT,
    boston: int = BOSTON_OPT,
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    tt_mb: Optional[int] = typer.Option(
        None, "--tt-mb", min=1, metavar="MB", callback=tt_option,
        help="Size of the transposition table in MB (per worker). Default: the bid "
             "command's for bid, the solver's otherwise."),
    jobs: Optional[int] = typer.Option(
        None, "--jobs", "-j", min=1, metavar="N",
        help="Solve the samples on this many processes (the output is the same whatever the "
             "number). Default: one per CPU (CPUs // --threads when --threads is given)."),
    scheduler: Optional[str] = SCHEDULER_OPT,
    threads: Optional[int] = threads_option(
        "bid: threads per sample (its trump suits side by side, each thread with a table of "
        "--tt-mb).", "CPUs // jobs (1 with the default --jobs), 1 on a cluster"),
) -> None:
    """Double-dummy simulation: deal the unseen cards at random, solve
    every deal, and aggregate: what to bid, what to lead, how many tricks.

    A hand not known is [bold]-[/] in the Deal.  Tags: [bold]Unseen[/] (the
    cards dealt at random; default the rest of the deck), [bold]TrumpCard[/]
    (classic whist: the dealer's turned-up card), [bold]Constraint[/].
    Each estimate comes with its 95% interval; options within the noise of
    the best are said so.  Ctrl-C prints the result so far.
    """
    run = Run(json_out, boards)
    texts = list(constraint or ())
    try:
        Constraints(texts)
    except ConstraintError as e:
        run.error("--constraint", str(e))
        raise typer.Exit(EXIT_BAD)
    contract_obj = _contract_option(contract)
    if contract_obj is not None and question == "bid":
        raise typer.BadParameter("a contract is for the lead question", param_hint="--contract")
    if (contract_obj is not None and ranking is not None and ranking != contract_obj.ranking
            and re.search(r"up|down|\u2191|\u2193", contract, re.IGNORECASE)):
        raise typer.BadParameter(f"--ranking {ranking} and --contract {contract}: the contract "
                                 "gives the ranking", param_hint="--ranking")
    if contract_obj is not None and trump is not None and trump != contract_obj.strain:
        raise typer.BadParameter(f"--trump {trump} and --contract {contract}: the contract "
                                 "gives the trump", param_hint="--trump")
    if strain and trump is not None:
        raise typer.BadParameter("--trump and --strain both name the strains of the tricks "
                                 "question: give one", param_hint="--trump")
    # the options that only some questions use, for a warning when a
    # board's question is another (once per option)
    used_by = {"--min-bid-3": (("bid",), min_bid_3), "--nt-double": (("bid",), nt_double),
               "--boston": (("bid",), boston), "--declarer": (("lead",), declarer),
               "--strain": (("tricks",), strain), "--trump": (("lead", "tricks"), trump),
               "--ranking": (("lead", "tricks"), ranking),
               "--leader": (("lead", "tricks"), leader), "--contract": (("lead",), contract),
               "--bidder": (("bid", "lead"), bidder)}
    unused: set = set()

    def warn_unused(board, asked):
        for name, (questions, value) in used_by.items():
            if value and asked not in questions and name not in unused:
                unused.add(name)
                run.warning(name, f"not used by the {asked} question ({board.named}): it is "
                                  f"for the {' and '.join(questions)} question"
                                  f"{'s' if len(questions) > 1 else ''}")
        if bidder is not None and board.game() != "bid" and "--bidder" not in unused:
            unused.add("--bidder")
            run.warning("--bidder", f"not used: {board.named} is not bid whist")
    jobs_given = jobs is not None
    if jobs is None and scheduler is None:
        # the samples are independent: one process per CPU keeps every core
        # busy (threads within a sample wait on its slowest option)
        jobs = max(1, default_jobs() // max(1, threads or 1))
    backend = run.backend(jobs, scheduler)
    opts = dict(question=question, trump=trump, ranking=ranking, leader=leader,
                contract=contract_obj, declarer=declarer, bidder=bidder, strains=strain,
                scoring=Scoring(nt_double=nt_double, boston=boston, min_bid_3=min_bid_3),
                constraints=texts)
    interrupted: Optional[Interrupted] = None
    with terminate_on_signals():
        for where, board in run.boards(files, partial=True):
            try:
                with run.guard(where, board):
                    if board.sections.get("Play"):
                        run.warning(where, "the Play section is ignored (the simulation starts "
                                           "from the deal)")
                    problem = build_problem(board, **opts)
                    warn_unused(board, problem.question)
                    _say_leader_unknown(run, where, board, question, problem.question, leader,
                                        trump, bidder)
                    if tt_mb is not None:
                        problem = dataclasses.replace(problem, tt_mb=tt_mb)
                    if problem.question == "bid":
                        problem = dataclasses.replace(problem, threads=worker_threads(threads, backend))
                    n = count if count is not None else DEFAULT_COUNT[problem.question]
                    try:
                        agg = _run_board(run, where, board, problem, n, seed, time_budget,
                                         backend)
                    except WorkersUnavailable as e:
                        if jobs_given or scheduler or backend.jobs == 1:
                            raise Unreachable(str(e)) from None
                        # the default --jobs: go on in this process
                        run.warning("--jobs", f"cannot start worker processes ({e.reason}); "
                                              "the simulation goes on in this process")
                        backend = run.backend(1, None)
                        agg = _run_board(run, where, board, problem, n, seed, time_budget,
                                         backend)
                    _report(run, board, agg)
            except Interrupted as e:
                interrupted = e
                break
            except Unreachable as e:
                run.error("--scheduler" if scheduler else "--jobs", str(e))
                raise typer.Exit(EXIT_BAD)
    if interrupted is not None:
        said, status = stopped_by(interrupted)
        run.err.print(f"{said}: the result above is partial")
        raise typer.Exit(status)
    run.finish()


# --------------------------------------------------------------------------
# The question a board asks


def build_problem(board, *, question=None, trump=None, ranking=None, leader=None,
                  contract=None, declarer=None, bidder=None, strains=None,
                  scoring=None, constraints=()):
    """The simulation problem of ``board`` (a BidQuestion, LeadQuestion or
    TricksQuestion) from its tags and the command's options."""
    pd = board.partial_deal()
    cons = list(pd.constraints) + list(constraints)
    q = question or default_question(board, pd, trump=trump, leader=leader,
                                     contract=contract, bidder=bidder)
    if q == "bid":
        if pd.trump_card is not None:
            raise WhistError(f"{board.named}: a TrumpCard in a bid whist question")
        if not pd.jokers:
            board_game = board.game()
            raise WhistError(f"{board.named}: the bid question is for bid whist "
                             f"(this board is {board_game} whist: give [Variant \"bid\"])")
        seat = board.bidder_seat(bidder)
        if pd.known[seat] is None:
            raise WhistError(f"{board.named}: the bidder's ({SEATS[seat]}) hand is not known")
        return bid_question(pd.known, seat, kitty=pd.kitty, unseen=pd.unseen,
                            constraints=cons, scoring=scoring)
    if q == "lead":
        dec = SEATS.index(declarer) if declarer is not None else board.declaring_seat()
        if board.game() == "bid":
            # the bidder declares and leads: --bidder, else the board's
            # (Declarer, Bidder, Leader or Play tag)
            if bidder is not None:
                if declarer is not None and declarer != bidder:
                    raise WhistError(f"{board.named}: --declarer {declarer} and --bidder {bidder} "
                                     "differ (in bid whist the bidder declares)")
                dec = SEATS.index(bidder)
            bidder_tag = board.bidder()
            if bidder is None and declarer is not None and bidder_tag is not None \
                    and dec != bidder_tag:
                raise WhistError(f"{board.named}: --declarer {declarer}, but the bidder is "
                                 f"{SEATS[bidder_tag]} (in bid whist the bidder declares)")
            if dec is None:
                raise WhistError(f"{board.named}: the lead question in bid whist needs the bidder, "
                                 "who leads (a Bidder tag or --bidder)")
            if leader is None and board.tag("Leader") is None and board.tag("Play") is None:
                leader = SEATS[dec]
        lead = board.leader(leader)
        if pd.known[lead] is None:
            raise WhistError(f"{board.named}: the leader's ({SEATS[lead]}) hand is not "
                             "known: the lead question needs it (or ask --question tricks)")
        c = contract if contract is not None else board.contract()
        if c is not None and (c.passed or c.level == 0):
            c = None
        if contract is not None:
            t = contract.strain
            rk = contract.ranking if ranking is None else ranking
        else:
            t = board.trump(trump)
            t = "NT" if t is None else t
            rk = board.ranking(ranking if ranking != "both" else None)
        if ranking == "both":
            raise WhistError(f"{board.named}: the lead question takes one ranking, not both")
        # (bid whist: the bidder declares, and leads; a Declarer tag of the
        # leader's side in bridge: an ending with declarer's side on lead)
        if board.game() == "bid":
            if c is None:
                raise WhistError(f"{board.named}: the lead question in bid whist needs the bid "
                                 "(a Contract tag or --contract)")
        n = pd.hand_size
        level = c.level if c is not None else 1
        need = None if c is not None else n // 2 + 1
        return lead_question(pd.known, lead, trump=t, ranking=rk, level=level, need=need,
                             declarer=dec, jokers=pd.jokers, unseen=pd.unseen,
                             trump_card=pd.trump_card, dealer=pd.dealer, constraints=cons,
                             kitty_book=board.kitty_book() if dec is not None else 0,
                             contract_given=c is not None)
    # tricks
    if ranking == "both":
        rankings = ("up", "down")
    elif ranking is not None:
        rankings = (ranking,)
    else:
        rankings = ("up", "down") if pd.jokers else ("up",)
    leaders = (leader,) if leader is not None else SEATS
    if not strains and trump is not None:
        strains = (trump,)                # (--trump, as table takes it)
    if not strains and pd.trump_card is not None:
        strains = (pd.trump_card[0],)     # classic whist: the turned-up card names the trump
    return tricks_question(pd.known, strains=tuple(strains) if strains else STRAINS,
                           rankings=rankings, leaders=leaders, jokers=pd.jokers,
                           unseen=pd.unseen, trump_card=pd.trump_card, dealer=pd.dealer,
                           constraints=cons, kitty_book=board.kitty_book())


def _say_leader_unknown(run: Run, where: str, board, asked, question: str, leader, trump,
                        bidder) -> None:
    """A warning when --leader names a seat whose hand is not known on a
    board that, led by its own leader, asks the lead question: the
    question is then the tricks one (no lead can be chosen for a hand not
    known), which the user may not expect."""
    if asked is not None or leader is None or question != "tricks":
        return
    pd = board.partial_deal()
    if default_question(board, pd, trump=trump, bidder=bidder) == "lead":
        run.warning(where, f"--leader {SEATS[parse_seat(leader)]}: that hand is not known, so "
                           "no lead is chosen for it: the tricks question is answered, with "
                           f"{SEATS[parse_seat(leader)]} leading")


def default_question(board, pd, *, trump=None, leader=None, contract=None, bidder=None) -> str:
    """lead with a --contract; bid: a bid whist board with a bidder whose
    hand is known, and a kitty to take (the exchange is done when the
    unseen cards leave none); lead: a trump and a leader whose hand is
    known; else tricks."""
    if contract is not None:
        return "lead"      # (the question a contract is for: a leader not known is said there)
    if pd.jokers and pd.kitty:
        try:
            seat = board.bidder_seat(bidder)
        except WhistError:
            seat = None
        if seat is not None and pd.known[seat] is not None:
            return "bid"
    try:
        lead = board.leader(leader)
        board.trump(trump)
    except WhistError:
        return "tricks"
    return "lead" if pd.known[lead] is not None else "tricks"


# --------------------------------------------------------------------------
# Running one board


def _raised_unreachable(results, agg):
    """The results, a batch that cannot run before any sample (an
    unreachable scheduler: raised by the batch itself, or given in the
    first item's place) being :class:`Unreachable`: the run stops there,
    not after the same wait on every board."""
    it = iter(results)
    while True:
        try:
            result = next(it)
        except StopIteration:
            return
        except WorkersUnavailable:
            raise                 # (the default --jobs goes on in this process)
        except BatchError as e:
            if agg.samples == 0:
                raise Unreachable(str(e)) from None
            raise
        if isinstance(result, BatchError) and agg.samples == 0:
            raise Unreachable(str(result))
        yield result


def _run_board(run: Run, where: str, board, problem, count: int, seed: int,
               time_budget: Optional[float], backend):
    """The aggregate of ``count`` samples, streamed in input order through
    the batch backend; partial when the time budget ran out or on Ctrl-C
    (then the result is printed here and :class:`Interrupted` raised)."""
    agg = problem.aggregate(seed)
    # (the time budget counts from here: the first sample's dealing below
    # can take seconds with costly constraints)
    start = time.monotonic()
    deadline = None if time_budget is None else start + time_budget
    stopped: Optional[Interrupted] = None
    short: Optional[NoDealError] = None
    with run.progress(count, where, eta=True):
        run.describe(render.simulate_progress(run.style, agg, where))
        # Sample 0 here first: constraints that accept nothing fail at once,
        # with the number of deals tried, before any worker starts.
        try:
            sample_deal(problem.spec, seed, 0)
        except NoDealError as e:
            raise WhistError(f"{e}; no sample can be dealt") from None
        # every card known: one deal, solved once and counted for each sample
        same = only_deal(problem)
        items = work_items(problem, seed, 1 if same else count, chunk=1)
        results = run_map(run_samples, items, backend, tt_mb=problem.tt_mb)
        try:
            if deadline is not None and time.monotonic() >= deadline:
                agg.partial = True
            else:
                for result in _raised_unreachable(results, agg):
                    if isinstance(result, NoDealError):
                        # a later sample found no deal in its tries: the
                        # constraints accept almost none; the samples
                        # before it are the (partial) answer
                        agg.partial = True
                        short = result
                        break
                    if isinstance(result, BaseException):
                        raise result
                    for _ in range(count if same else 1):
                        agg.extend(result)
                        run.advance(render.simulate_progress(run.style, agg, where))
                    if deadline is not None and time.monotonic() >= deadline \
                            and agg.samples < count:
                        agg.partial = True
                        break
        except KeyboardInterrupt as e:       # Ctrl-C, or Terminated (SIGTERM, SIGHUP)
            agg.partial = True
            stopped = Interrupted(getattr(e, "signum", None))
        finally:
            _close(results)
    if stopped is not None:
        _report(run, board, agg)
        raise stopped
    if short is not None:
        run.warning(where, f"{short}: the result has the {agg.samples} "
                           f"sample{'' if agg.samples == 1 else 's'} dealt before it")
    elif agg.partial and agg.samples == 0:
        run.warning(where, f"--time {time_budget:g}: the time ran out before the first sample "
                           "was solved: no estimate")
    return agg


def _close(results) -> None:
    try:
        results.close()
    except Exception:
        pass


def _report(run: Run, board, agg) -> None:
    out = agg.to_json()
    if run.json:
        run.emit_json(board_json(board, deal=board.known_deal_string(), **out))
        return
    run.emit(render.simulate_view(run.style, board, agg, out))
