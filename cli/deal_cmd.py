"""``whist-solve deal``: random deals as PBN on stdout (the same seed gives
the same deals; :mod:`whist_solve.dealing`)."""
from __future__ import annotations

import random
import sys
from typing import List, Optional

import typer

from whist_solve.constraints import Constraints
from whist_solve import dealing
from whist_solve.dealing import GAMES, iter_deal_pbn
from whist_solve.errors import WhistError

from .runner import EXIT_BAD, Run, writing_out


def deal(
    count: int = typer.Option(1, "--count", "-n", min=1, metavar="N", help="Number of deals."),
    # (min 0: Python seeds a Random with the number's absolute value, so -5
    # dealt what 5 deals)
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, help="Random seed, 0 or more (the same seed gives the same deals)."),
    variant: str = typer.Option("classic", "--variant", metavar="classic|rotating|rotating-nt|bid",
                                help="classic: 52 cards, 13 each, trump turned up by the dealer. "
                                     "rotating: classic whist with the trump going S, H, D, C "
                                     "deal after deal (rotating-nt: then a no-trump deal). "
                                     "bid: 54 cards (jokers), 12 each and a 6-card kitty."),
    constraint: Optional[List[str]] = typer.Option(
        None, "--constraint", "-c", metavar="EXPR",
        help="Deal only deals where this holds, e.g. 'hcp(N) >= 15 and spades(S) >= 5' "
             "(repeat: all must hold; the language of simulate's --constraint)."),
) -> None:
    """Random deals as PBN on stdout.

    With [bold]--constraint[/], a deal that breaks a constraint is thrown
    away and the next one dealt, so every deal that satisfies them is
    equally likely; when 100,000 in a row fail, the run stops (exit 2)."""
    game = variant.strip().lower()
    if game not in GAMES:
        raise typer.BadParameter(f"{variant!r}: expected {', '.join(GAMES[:-1])} or {GAMES[-1]}",
                                 param_hint="--variant")
    run = Run()
    try:
        cons = Constraints(constraint or ())
    except WhistError as e:
        run.error("--constraint", str(e))
        raise typer.Exit(EXIT_BAD)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        for piece in iter_deal_pbn(count, seed, game, cons, dealing.MAX_TRIES):   # written as it goes
            with writing_out():
                sys.stdout.write(piece)
                sys.stdout.flush()
    except WhistError as e:
        run.error("--constraint", str(e))
        raise typer.Exit(EXIT_BAD)
