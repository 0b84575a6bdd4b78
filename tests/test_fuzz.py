"""Mutation fuzzing: the PBN reader and Board, the option parsers of the
vocabulary and the constraint language get mutated copies of real input,
and nothing but the project's own error (WhistError and its subclasses) may
come out.

A few seconds in the normal run; set WHIST_FUZZ_SECONDS (per target) for a
longer one, WHIST_FUZZ_SEED for another sequence of mutations.  A failure
prints the input that broke, to be kept as a regression test.
"""
from __future__ import annotations

import os
import random
import time

import pytest

from support import ROOT

from whist_solve.constraints import compile_constraint, hand_features
from whist_solve.errors import WhistError
from whist_solve.pbn import decode_pbn, read_pbn
from whist_solve.vocab import parse_contract, parse_ranking, parse_seat, parse_strain

SECONDS = float(os.environ.get("WHIST_FUZZ_SECONDS", "1"))
SEED = int(os.environ.get("WHIST_FUZZ_SEED", "20261130"))

PBN_FILES = sorted(p for d in ("examples", "puzzles", "tests/data", "benchmarks/data")
                   for p in (ROOT / d).glob("*.pbn"))

# Pieces a mutation may insert: the syntax of PBN and of the languages.
TOKENS = [
    "[", "]", '"', "{", "}", ";", "%", "#", "##", "\\", "\n", "\n\n", " ", "\t", "\r", "\x00",
    "\ufeff", "\x1a", "[Deal \"", "[Board \"", "[Play \"", "[Variant \"", "[Goal \"", "[Contract \"",
    "[Trump \"", "[Leader \"", "[Ranking \"", "[Kitty \"", "[Bidder \"", "[Declarer \"",
    "N:", "E:", "S:", "W:", ".", "-", "*", "+", "^R", "=1=", "$3", "!?",
    "A", "K", "Q", "J", "T", "10", "9", "2", "H", "L", "BJ", "LJ", "NT", "S", "D", "C",
    "up", "down", "both", "\u2191", "\u2193", "\u2660", "\u2665", "X", "XX", "Pass",
    "0", "7", "8", "13", "99", "9" * 30, "9" * 5000, "-1", "1e9", "x" * 200,
    "hcp(", "length(", "controls(", "jokers(", "spades(", ",", ")", "(", "and", "or", "not",
    "<", "<=", ">", ">=", "==", "!=", "=", "&&", "||", "!", "+", "-", "*", "/",
]


def mutate(rng: random.Random, text: str, n: int = 0) -> str:
    """A few random edits: insert a token or random characters, delete,
    duplicate or swap a slice."""
    for _ in range(n or rng.randint(1, 6)):
        i = rng.randint(0, len(text))
        j = min(len(text), i + rng.randint(0, 40))
        op = rng.randrange(6)
        if op == 0:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 1:
            text = text[:i] + "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(1, 5))) + text[i:]
        elif op == 2:
            text = text[:i] + text[j:]
        elif op == 3:
            text = text[:i] + text[i:j] * rng.randint(2, 4) + text[i:]
        elif op == 4 and len(text) > 2:
            k = rng.randint(0, len(text))
            a, b = sorted((i, k))
            text = text[:a] + text[b:b + (j - i)] + text[a + (j - i):b] + text[a:a + (j - i)] + text[b + (j - i):]
        else:
            text = text[:i] + rng.choice(TOKENS) * rng.randint(1, 3) + text[j:]
    return text


def only_whist_errors(func, *args, what=""):
    try:
        func(*args)
    except WhistError:
        pass
    except Exception as e:  # noqa: BLE001 - the point of the test
        shown = repr(args)[:2000]
        pytest.fail(f"{what}{getattr(func, '__name__', func)}{shown} raised "
                    f"{type(e).__name__}: {e}")


def exercise_board(b) -> None:
    """Every question the commands ask a board."""
    _ = b.label, b.hands, b.kitty, b.errors
    for f in (b.game, b.trump, b.ranking, b.leader, b.goal, b.contract, b.bidder, b.declarer,
              b.dealer, b.deal_string, b.start_position, b.position, b.exchange_deal):
        only_whist_errors(f, what=f"board {b.label!r}: ")
    for override in (("NT", "down", "E"), ("S", "up", "N")):
        only_whist_errors(b.position, *override, what=f"board {b.label!r}: ")


def test_fuzz_pbn_reader_and_board():
    rng = random.Random(SEED)
    texts = [p.read_bytes().decode("utf-8", "replace") for p in PBN_FILES]
    assert texts, "no PBN files to start from"
    deadline = time.monotonic() + SECONDS
    runs = 0
    while time.monotonic() < deadline or runs < 20:
        base = rng.choice(texts)
        if len(base) > 6000:                     # a window of a big file
            start = rng.randrange(len(base) - 3000)
            base = base[start:start + 3000]
        text = mutate(rng, base)
        try:
            boards = read_pbn(text, "fuzz.pbn")
        except WhistError:
            boards = []
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"read_pbn raised {type(e).__name__}: {e}\n--- input ---\n{text[:3000]!r}")
        for b in boards[:30]:
            exercise_board(b)
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.3:
            cut = rng.randrange(len(data) + 1)
            data = data[:cut] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
        elif rng.random() < 0.1:
            data = text.encode(rng.choice(["utf-16", "utf-16-le", "latin-1", "utf-32"]), "replace")
        problems: list = []
        only_whist_errors(decode_pbn, data, "fuzz.pbn", problems)
        runs += 1


OPTION_SEEDS = {
    parse_strain: ["S", "H", "D", "C", "NT", "N", "spades", "no-trump", "\u2660", "notrump"],
    parse_ranking: ["up", "down", "uptown", "downtown", "\u2191", "\u2193"],
    parse_seat: ["N", "E", "S", "W", "north", "East", "s", "w"],
    parse_contract: ["4S", "3NT", "4S\u2193", "4 S down", "5NT\u2191", "4SX", "7NTXX", "2\u2665", "Pass", "S"],
}


def test_fuzz_option_parsers():
    rng = random.Random(SEED + 1)
    deadline = time.monotonic() + SECONDS
    runs = 0
    while time.monotonic() < deadline or runs < 200:
        func = rng.choice(list(OPTION_SEEDS))
        text = mutate(rng, rng.choice(OPTION_SEEDS[func]), rng.randint(1, 3))
        only_whist_errors(func, text)
        runs += 1


CONSTRAINT_SEEDS = [
    "hcp(E) >= 12 and length(E, S) >= 5",
    "10 <= hcp(W) <= 15 or not (spades(N) > 3)",
    "controls(S, H) == 2 && jokers(E) != 0 || hcp(north, spades) = 4",
    "-hcp(E) + 3 * 2 < (length(W, D) - 1)",
    "!(clubs(E) >= 4)",
]


def test_fuzz_constraint_language():
    rng = random.Random(SEED + 2)
    features = hand_features([["SA", "SK", "HQ"], ["DJ", "C2", "JH"], ["S2", "H3", "D4"],
                              ["C5", "C6", "JL"]])
    deadline = time.monotonic() + SECONDS
    runs = 0
    while time.monotonic() < deadline or runs < 100:
        text = mutate(rng, rng.choice(CONSTRAINT_SEEDS), rng.randint(1, 4))
        try:
            c = compile_constraint(text)
        except WhistError:
            continue
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"compile_constraint({text!r}) raised {type(e).__name__}: {e}")
        finally:
            runs += 1
        only_whist_errors(c.test_features, features, what=f"constraint {text!r}: ")
