"""Random deals, written once: the ``deal`` command, the exchange
benchmark set, the committed benchmark sets (``benchmarks/make_sets.py``)
and the node-signature positions all shuffle and deal through here.

Every function takes a ``random.Random`` or a seed, so the same seed gives
the same deal on every machine and Python version: the cards are shuffled
by :func:`shuffle` (the draws of ``random.shuffle``, written out here, as
``random.shuffle``'s own algorithm is not promised to stay the same; only
``getrandbits`` of a seeded ``Random`` is).  ``game`` is ``"classic"`` (52
cards, 13 each, the dealer's last card turned up for trump), ``"rotating"`` or ``"rotating-nt"`` (classic
whist's rotating-trump variant: the trump goes S, H, D, C from the first
deal on, then with ``-nt`` a no-trump deal, and round again) or ``"bid"``
(54 cards with the jokers, 12 each and a 6-card kitty).
"""
from __future__ import annotations

import random
import shlex
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from .cards import format_hand, full_deck
from .errors import WhistError
from .vocab import SEATS

GAMES = ("classic", "rotating", "rotating-nt", "bid")
HAND_SIZE = {"classic": 13, "rotating": 13, "rotating-nt": 13, "bid": 12}
# The trumps of the rotating-trump variants, deal after deal.
ROTATION = {"rotating": ("S", "H", "D", "C"), "rotating-nt": ("S", "H", "D", "C", "NT")}

# Deals tried in a row for one board (``deal --constraint``) or one sample
# (a simulation's) before the constraints are declared (almost)
# impossible.  Rejection of a 52-card deal with two constraints costs about
# 20 microseconds, so the bound is two seconds of dealing.
MAX_TRIES = 100_000


def _steps(n: int) -> tuple:
    """(i, i + 1, bits of i + 1) for i = n - 1 down to 1: the draws of a
    Fisher-Yates shuffle of n cards."""
    steps = _STEPS.get(n)
    if steps is None:
        steps = _STEPS[n] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    return steps


_STEPS: dict = {}


def shuffle(cards: list, rng: random.Random) -> None:
    """Shuffle ``cards`` in place, every order equally likely: a
    Fisher-Yates shuffle drawing each index from ``rng.getrandbits`` by
    rejection, the draws of Python's ``random.shuffle`` (so the samples are
    those it gave), written out once here so that they do not depend on the
    Python version and cost half as much (the sampling of a constrained
    lead problem shuffles a few hundred times per sample)."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def shuffled_deck(rng: random.Random, jokers: bool = False) -> List[str]:
    """The 52 cards (54 with ``jokers``) in ``rng``'s order."""
    deck = full_deck(jokers=jokers)
    shuffle(deck, rng)
    return deck


def split_deck(deck: Sequence[str], size: int) -> List[List[str]]:
    """Hands of N, E, S, W: ``size`` cards each, in blocks from the top of
    the deck (N first)."""
    return [list(deck[k * size:(k + 1) * size]) for k in range(4)]


def random_hands(seed: int, size: int = 13, jokers: bool = False) -> List[List[str]]:
    """Four hands of ``size`` cards from a deck shuffled by ``Random(seed)``."""
    return split_deck(shuffled_deck(random.Random(seed), jokers), size)


def random_deal(seed: int) -> Tuple[List[List[str]], List[str], int]:
    """The seeded 12 + 6 bid whist deal of the speed measurements
    (``whist-solve bench --set exchange``, benchmarks/test_bench_exchange.py):
    the 54 cards shuffled by ``random.Random(seed)``, 12 to each seat from
    N, the last 6 the kitty; the bidder is ``seed mod 4``.  Returns (hands
    N E S W, kitty, bidder seat)."""
    deck = shuffled_deck(random.Random(seed), jokers=True)
    return split_deck(deck, 12), deck[48:], seed % 4


def random_board(rng: random.Random, number: int, game: str,
                 accept: Optional[Callable[[List[List[str]]], bool]] = None,
                 max_tries: int = MAX_TRIES) -> List[str]:
    """The PBN lines of board ``number`` of the ``deal`` command.  The
    dealer rotates from N; the cards go one at a time from the dealer's
    left, so the dealer gets the last card dealt (in classic whist, turned
    up for trump; the leader is the dealer's left).  The rotating variants
    deal the same cards as classic whist for the same seed, their trump
    set by the board's number instead.  In bid whist the cards left over
    are the Kitty.

    With ``accept`` (a test of the four hands, N E S W), a deal it refuses
    is thrown away and the next one of ``rng`` dealt, up to ``max_tries``
    in a row (then WhistError): every accepted deal is equally likely."""
    dealer = (number - 1) % 4
    size = HAND_SIZE[game]
    for _ in range(max_tries if accept is not None else 1):
        deck = shuffled_deck(rng, jokers=(game == "bid"))
        hands: List[List[str]] = [[], [], [], []]
        for k in range(4 * size):
            hands[(dealer + 1 + k) % 4].append(deck[k])
        if accept is None or accept(hands):
            break
    else:
        raise WhistError(f"board {number}: no deal satisfies the constraints: "
                         f"0 of {max_tries:,} tried")
    lines = [f'[Board "{number}"]', f'[Dealer "{SEATS[dealer]}"]',
             f'[Variant "{"bid" if game == "bid" else "classic"}"]']
    deal_str = "N:" + " ".join(format_hand(h) for h in hands)
    lines.append(f'[Deal "{deal_str}"]')
    if game in ROTATION:
        cycle = ROTATION[game]
        trump = cycle[(number - 1) % len(cycle)]
        lines.append(f'[Trump "{trump}"]')
        lines.append(f'[Leader "{SEATS[(dealer + 1) % 4]}"]')
        lines.append(f"{{rotating trumps ({', '.join(cycle)}): deal {number} plays "
                     f"{'at no-trump' if trump == 'NT' else 'in ' + trump}}}")
    elif game == "classic":
        last = deck[4 * size - 1]
        lines.append(f'[Trump "{last[0]}"]')
        lines.append(f'[Leader "{SEATS[(dealer + 1) % 4]}"]')
        lines.append(f'[TrumpCard "{last}"]')     # the dealer's last card, turned up
    else:
        lines.append(f'[Kitty "{format_hand(deck[4 * size:])}"]')
    return lines


def iter_deal_pbn(count: int, seed: int, game: str, constraints=None,
                  max_tries: int = MAX_TRIES) -> Iterator[str]:
    """The text of :func:`deal_pbn` in pieces, the header then one board
    at a time, so that a long run can be written as it goes."""
    rng = random.Random(seed)
    accept = None
    options = ""
    if constraints:
        # (constraints: a whist_solve.constraints.Constraints)
        accept = constraints.test_unchecked
        # (on one line: a line break in a constraint, white space to the
        # language, would end the % line and leave the rest as bad PBN)
        options = "".join(f" --constraint {shlex.quote(' '.join(t.split()))}"
                          for t in constraints.texts)
    yield (f"% PBN 2.1\n% whist-solve deal --variant {game} --count {count} --seed {seed}"
           f"{options}\n")
    for i in range(count):
        yield "\n" + "\n".join(random_board(rng, i + 1, game, accept, max_tries)) + "\n"


def deal_pbn(count: int, seed: int, game: str, constraints=None,
             max_tries: int = MAX_TRIES) -> str:
    """The PBN text of the ``deal`` command: a header that names the
    command that makes it again, then ``count`` boards (each satisfying
    ``constraints``, a Constraints, when given)."""
    return "".join(iter_deal_pbn(count, seed, game, constraints, max_tries))
