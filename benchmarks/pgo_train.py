"""The workload of the profile-guided build (see setup.py): the search core
built with profiling on is run here on a mix of what it spends its time on
in use, so that the compiler lays out the final build for it.

    python benchmarks/pgo_train.py PATH/TO/_engine.so

Only the core is loaded (by its path: the package around it need not be
importable yet), and positions are given in engine coordinates: suits 0-3
(4 for the jokers at no-trump), powers 0-12 (13, 14 the jokers with a
trump suit).  Seeded: the same profile on every build.  About 5 s.
"""
from __future__ import annotations

import importlib.util
import random
import sys


def load_core(path: str):
    spec = importlib.util.spec_from_file_location("whist_solve._engine", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Core


def deal(rng: random.Random, cards: int, jokers: bool, trump: int) -> tuple:
    """Four hands of `cards` cards, and the cards left over."""
    deck = [(s, b) for s in range(4) for b in range(13)]
    if jokers:
        # the two jokers: at no-trump a suit of their own, with a trump
        # suit its two top cards
        deck += [(4, 0), (4, 1)] if trump < 0 else [(trump, 13), (trump, 14)]
    rng.shuffle(deck)
    return [deck[k * cards:(k + 1) * cards] for k in range(4)], deck[4 * cards:]


def tables(core, rng: random.Random, n: int) -> None:
    """Full tables of 52-card deals: every strain, the four leaders."""
    for _ in range(n):
        seed = rng.random()
        for trump in (-1, 0, 1, 2, 3):
            hands, _ = deal(random.Random(seed), 13, False, trump)
            core.clear()
            guess = -1
            for leader in range(4):
                core.set_position(hands, trump, leader, ())
                guess = core.value(guess)


def exchanges(core, rng: random.Random, n: int) -> None:
    """Bid whist: 12 cards each with the jokers, the bidder's hand replaced
    keep after keep (here: random keeps of his hand and the kitty) and
    asked null-window questions, as the exchange does."""
    for _ in range(n):
        for trump in (-1, 0):
            hands, kitty = deal(rng, 12, True, trump)
            core.clear()
            bidder = rng.randrange(4)
            others = [list(h) if s != bidder else [] for s, h in enumerate(hands)]
            core.set_position(others, trump, bidder, ())
            pool = list(hands[bidder]) + kitty
            for _keep in range(40):
                rng.shuffle(pool)
                masks = [0, 0, 0, 0, 0]
                for s, b in pool[:12]:
                    masks[s] |= 1 << b
                core.set_hand(bidder, masks, bidder)
                core.can_take(6 + rng.randrange(4))


def leads(core, rng: random.Random, n: int) -> None:
    """The value of every card of the opening leader (a lead simulation)."""
    core.clear()
    for _ in range(n):
        hands, _ = deal(rng, 13, False, 0)
        core.set_position(hands, 0, rng.randrange(4), ())
        core.card_values()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    Core = load_core(argv[0])
    core = Core(64 << 20)
    rng = random.Random(2024)
    tables(core, rng, 16)
    exchanges(core, rng, 12)
    leads(core, rng, 16)
    return 0


if __name__ == "__main__":
    sys.exit(main())
