"""``whist-solve deal``: random deals as PBN on stdout (the same seed gives
the same deals; :mod:`whist_solve.dealing`)."""
from __future__ import annotations

import random
import sys
from typing import Optional

import typer

from whist_solve.dealing import GAMES, iter_deal_pbn

from .runner import writing_out


def deal(
    count: int = typer.Option(1, "--count", "-n", min=1, metavar="N", help="Number of deals."),
    # (min 0: Python seeds a Random with the number's absolute value, so -5
    # dealt what 5 deals)
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Random seed, 0 or more (the same seed gives the same deals)."),
    variant: str = typer.Option("classic", "--variant", metavar="classic|rotating|rotating-nt|bid",
                                help="classic: 52 cards, 13 each, trump turned up by the dealer. "
                                     "rotating: classic whist with the trump going S, H, D, C "
                                     "deal after deal (rotating-nt: then a no-trump deal). "
                                     "bid: 54 cards (jokers), 12 each and a 6-card kitty."),
) -> None:
    """Random deals as PBN on stdout."""
    game = variant.strip().lower()
    if game not in GAMES:
        raise typer.BadParameter(f"{variant!r}: expected {', '.join(GAMES[:-1])} or {GAMES[-1]}",
                                 param_hint="--variant")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    for piece in iter_deal_pbn(count, seed, game):   # written as it goes
        with writing_out():
            sys.stdout.write(piece)
            sys.stdout.flush()
