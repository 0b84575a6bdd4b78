"""The constraint language of `simulate`: values on hand-made deals, errors
with the column of the fault, and a fuzz that only the project's error ever
escapes the parser."""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.strategies import examples
from whist_solve.cards import WhistError, parse_hand
from whist_solve.constraints import (Constraint, ConstraintError, Constraints,
                                     compile_constraints, hand_features)

# N: 4+3+2+1 + 4 (HA) = 14 hcp, spades 5; E: jokers and low cards
N = parse_hand("AKQJ2.A3.432.432")
E = parse_hand("T987.K.765.765.HL")
S = parse_hand("43.QJT9.AKQJ.AKQ")
W = parse_hand(".876542.T98.JT98")
DEAL = [N, E, S, W]


def value(text, hands=DEAL):
    return Constraint(text).test(hands)


@pytest.mark.parametrize("text,expected", [
    ("hcp(N) == 14", True),
    ("hcp(N) = 14", True),
    ("hcp(n) >= 15", False),
    ("HCP(North) > 13", True),
    ("length(N, S) == 5", True),
    ("length(N, spades) == 5 and length(W, S) == 0", True),
    ("spades(N) == 5 and hearts(W) == 6", True),
    ("hcp(N, S) == 10", True),
    ("controls(N) == 5", True),            # SA HA SK
    ("controls(S, D) == 3", True),
    ("hcp(S) == 22", True),                # QJ 3, AKQJ 10, AKQ 9
    ("jokers(E) == 2", True),
    ("hcp(E) == 3", True),                 # K of hearts; jokers count 0
    ("hcp(N) + hcp(S) - 36 == 0", True),
    ("-hcp(W) == -1", True),
    ("10 <= hcp(N) <= 15", True),
    ("10 <= hcp(N) <= 13", False),
    ("1 < 2 < 2", False),
    ("not hcp(N) > 20", True),
    ("! (hcp(N) > 20) && hcp(W) < 2 || 0 > 1", True),
    ("hcp(N) > 20 or hcp(W) == 1", True),
    ("hcp(N) > 20 OR (hcp(W) == 1 AND NOT length(W, H) == 6)", False),
    ("(((hcp(N))) >= (14))", True),
    ("hcp(N) - hcp(W) - hcp(E) + 1 == 11", True),        # 14 - 1 - 3 + 1
    ("1 > 2 or 2 > 3 or hcp(N) == 14", True),
    ("hcp(N) == 14 and hcp(W) == 1 and hcp(E) == 4", False),
    ("hcp(N) == 14 and hcp(W) == 1 and hcp(E) == 3", True),
    ("1 > 2 or 2 > 3 or 3 > 4", False),
])
def test_values(text, expected):
    assert value(text) is expected


def _features_by_hand(hands):
    """hand_features written out the slow way: card by card."""
    hcp = {"A": 4, "K": 3, "Q": 2, "J": 1}
    ctl = {"A": 2, "K": 1}
    out = []
    for hand in hands:
        f = [0] * 15
        for c in hand:
            if c in ("JH", "JL"):
                f[2] += 1
                continue
            si = "SHDC".index(c[0])
            f[3 + si] += 1
            f[0] += hcp.get(c[1], 0)
            f[7 + si] += hcp.get(c[1], 0)
            f[1] += ctl.get(c[1], 0)
            f[11 + si] += ctl.get(c[1], 0)
        out += f
    return out


@settings(max_examples=200, deadline=None)
@given(st.permutations(sorted(N + E + S + W)), st.integers(1, 13))
def test_hand_features_count_card_by_card(cards, n):
    hands = [cards[k * n:(k + 1) * n] for k in range(4)]
    assert hand_features(hands) == _features_by_hand(hands)
    # only some seats: theirs counted, the others left 0
    part = hand_features(hands, (1, 3))
    full = _features_by_hand(hands)
    assert part == [v if i // 15 in (1, 3) else 0 for i, v in enumerate(full)]


def test_constraint_reads_only_the_seats_it_names():
    c = Constraint("hcp(E) >= 12 and length(w, S) >= 5 or jokers(E) > 0")
    assert c.seats == (1, 3)
    assert Constraints(["hcp(N) > 1", "length(S, H) < 3"]).seats == (0, 2)


def test_deal_is_a_deal():
    cards = [c for h in DEAL for c in h]
    assert all(len(h) == 13 for h in DEAL) and len(set(cards)) == 52


def test_several_are_anded_and_pickle():
    cs = compile_constraints(["hcp(N) >= 10", "length(W, S) == 0"])
    assert cs.test(DEAL)
    cs2 = Constraints(["hcp(N) >= 10", "length(W, S) >= 1"])
    assert not cs2.test(DEAL)
    assert Constraints([]).test(DEAL)
    back = pickle.loads(pickle.dumps(cs))
    assert back.texts == cs.texts and back.test(DEAL)
    c = pickle.loads(pickle.dumps(Constraint("hcp(E) == 3")))
    assert c.test(DEAL)


@pytest.mark.parametrize("text,column,words", [
    ("hcp(E) >= ", 11, "expected a number or a function"),
    ("hcp(E) >= 12 and", 17, "expected a number or a function"),
    ("hcp(X) > 3", 5, "unknown seat 'X'"),
    ("length(E, Z) > 3", 11, "unknown suit 'Z'"),
    ("length(E) > 3", 1, "wrong number of arguments"),
    ("jokers(E, S) > 3", 11, "wrong number of arguments"),
    ("foo(E) > 3", 1, "unknown function 'foo'"),
    ("hcp(E)", 1, "a number where a condition belongs"),
    ("hcp(E) > 3 and 4", 16, "a number where a condition belongs"),
    ("(hcp(E) > 3) + 1 > 2", 1, "a condition where a number belongs"),
    ("hcp(E) $ 3", 8, "unexpected character '$'"),
    ("hcp(E) > > 3", 10, "unexpected '>'"),
    (")", 1, "unexpected ')'"),
    ("hcp(E) > 3)", 11, "unexpected ')'"),
    ("hcp(E > 3", 7, "unexpected '>'"),
    ("hcp() > 3", 1, "needs a seat"),
    # a keyword is never taken for a function's name: the fault is the
    # second 'and', not the word after it
    ("hcp(E) >= 12 and and length(E, S) >= 5", 18, "unexpected 'and'"),
    ("hcp(E) > 1 OR or 2 > 1", 15, "unexpected 'or'"),
])
def test_errors_give_the_column(text, column, words):
    with pytest.raises(ConstraintError) as ei:
        Constraint(text)
    msg = str(ei.value)
    assert isinstance(ei.value, WhistError)
    assert f"at column {column}" in msg, msg
    assert words in msg, msg
    assert repr(text) in msg
    # the caret sits under the column
    lines = msg.split("\n")
    assert lines[-1].index("^") - 2 == column - 1
    assert lines[-2][2:] == text


@pytest.mark.parametrize("text,column,words", [
    ("hcp(E) >= 12\n\nand length(E, X) > 1", 29, "unknown suit 'X'"),
    ("hcp(E)\n>= 12 and\n\thcp(W) >", 27, "expected a number or a function"),
    ("hcp(E) > 3\n$", 12, "unexpected character '$'"),
    ("hcp(E) > 3 and\n  foo(W) > 1", 18, "unknown function 'foo'"),
])
def test_errors_over_several_lines_count_on_the_line_shown(text, column, words):
    """The text is shown on one line (line breaks and tabs as spaces): the
    column and the caret count there, not on the text's own line."""
    with pytest.raises(ConstraintError) as ei:
        Constraint(text)
    msg = str(ei.value)
    assert f"at column {column}" in msg and words in msg, msg
    shown, caret = msg.split("\n")[-2:]
    flat = text.replace("\n", " ").replace("\t", " ")
    assert shown[2:] == flat
    assert caret.index("^") - 2 == column - 1


def test_empty_is_an_error():
    with pytest.raises(ConstraintError):
        Constraint("   ")


TOKENS = ["hcp", "length", "controls", "jokers", "spades", "foo", "(", ")", ",", "N", "E", "S",
          "W", "H", "D", "C", "Q", "and", "or", "not", "AND", "!", "&&", "||", "<", "<=", ">",
          ">=", "==", "=", "!=", "+", "-", "0", "12", "99999999999999999999", " ", "$", "\n",
          "é", "1.5", "_x", "'"]


@settings(max_examples=examples(300))
@given(st.one_of(st.text(max_size=40),
                 st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join),
                 st.lists(st.sampled_from(TOKENS), max_size=25).map("".join)))
def test_fuzz_only_the_projects_error_escapes(text):
    try:
        c = Constraint(text)
    except ConstraintError as e:
        assert "constraint" in str(e)
        return
    assert isinstance(c.test(DEAL), bool)


def test_deep_nesting_is_a_clear_error_or_works():
    text = "(" * 3000 + "1" + ")" * 3000 + " > 0"
    try:
        assert Constraint(text).test(DEAL)
    except ConstraintError as e:
        assert "nested" in str(e) or "column" in str(e)


@pytest.mark.parametrize("make", [lambda n: "(" * n + "hcp(N)" + ")" * n + " >= 0",
                                  lambda n: "not " * n + "hcp(N) >= 0",
                                  lambda n: "hcp(N) >= " + "-" * n + "1",
                                  lambda n: "not (" * n + "hcp(N) >= 0" + ")" * n,
                                  lambda n: "not (" * (n // 2) + "- (" * (n - n // 2) + "hcp(N)"
                                  + ")" * (n - n // 2) + " >= 0" + ")" * (n // 2)])
def test_nesting_is_refused_before_the_parser_recurses_that_deep(make):
    """Past MAX_NESTING levels a constraint is refused before it is parsed
    (running into the recursion limit made a garbage collection at that
    depth fail too, reported by pytest as an error of the test)."""
    import whist_solve.constraints as constraints
    assert Constraint(make(40)).test(DEAL) in (True, False)
    with pytest.raises(ConstraintError, match=r"nested too deeply \(more than 100 levels\)"):
        Constraint(make(constraints.MAX_NESTING + 1))
    with pytest.raises(ConstraintError, match="nested too deeply"):
        Constraint(make(1000))


@pytest.mark.parametrize("text, levels", [
    # (a function's brackets count too: hcp(N) is one level)
    ("not (" * 60 + "hcp(N) >= 0" + ")" * 60, 121),      # (accepted before: 61, the brackets alone)
    ("- (" * 51 + "hcp(N)" + ")" * 51 + " >= 0", 103),
    ("not not (hcp(N) >= 0) and " * 40 + "hcp(S) > 0", 4),
    ("(" * 30 + "not " * 30 + "hcp(N) >= 0" + ")" * 30, 60),
    ("hcp(N) - (hcp(S) - (hcp(E)))" + " > 0", 3)])
def test_nesting_counts_the_nots_and_minus_signs_before_a_bracket(text, levels):
    """A 'not' or a minus sign before a bracket is a level of its own,
    as the parser sees it."""
    import whist_solve.constraints as constraints
    assert constraints._nesting(text) == levels
    if levels > constraints.MAX_NESTING:
        with pytest.raises(ConstraintError, match="nested too deeply"):
            Constraint(text)
    else:
        assert Constraint(text).test(DEAL) in (True, False)


def test_length_is_bounded_for_one_constraint_and_for_all_together():
    """At most MAX_LENGTH characters of constraint text are parsed, alone or
    in all (the parser's time and memory grow with the length); up to it,
    a constraint is read."""
    import whist_solve.constraints as constraints
    n = constraints.MAX_LENGTH
    term = "hcp(N) >= 0"
    fits = " and ".join([term] * ((n + 5) // (len(term) + 5)))
    assert len(fits) <= n and Constraint(fits).test(DEAL) is True
    over = fits + " and " + term
    assert len(over) > n
    with pytest.raises(ConstraintError, match=rf"too long \({len(over):,} characters, at most {n:,}\)"):
        Constraint(over)
    assert Constraints([fits]).test(DEAL) is True
    with pytest.raises(ConstraintError, match=rf"constraints too long: {len(fits) + len(term):,} "
                                              rf"characters in 2 constraints"):
        Constraints([fits, term])
    with pytest.raises(ConstraintError, match="in 2 constraints"):
        Constraints([Constraint(fits), term])


def test_long_flat_chains_compile_and_evaluate():
    """Hundreds of terms chained by and, or, + and - are one list each,
    not a nesting as deep as the chain (500 terms were refused as "nested
    too deeply"); each chain's value is worked out here by hand."""
    true, false = "hcp(N) == 14", "hcp(N) == 15"
    assert value(" and ".join([true] * 1000)) is True
    assert value(" and ".join([true] * 500 + [false] + [true] * 500)) is False
    assert value(" or ".join([false] * 1000 + [true])) is True
    assert value(" or ".join([false] * 1000)) is False
    total = " + ".join(["hcp(N)"] * 700) + " - " + " - ".join(["hcp(S)"] * 300)
    assert value(f"{total} == {700 * 14 - 300 * 22}") is True
    assert value(f"{total} == {700 * 14 - 300 * 22 + 1}") is False
