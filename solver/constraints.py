"""Constraints on the unseen hands of a simulation, in the language of
bridge dealing programs: ``hcp(E) >= 12 and length(E, S) >= 5``.

The language (keywords and names in any case):

* numbers: integer literals, ``+``, ``-`` (also unary), parentheses;
* functions of a seat (``N E S W``, or ``north`` ...) and a suit (``S H D C``,
  or ``spades`` ...):

  ``hcp(SEAT)``            high-card points, A 4, K 3, Q 2, J 1 (jokers 0)
  ``hcp(SEAT, SUIT)``      the same in one suit
  ``length(SEAT, SUIT)``   cards held in the suit (jokers belong to no suit)
  ``controls(SEAT)``       A 2, K 1 (also ``controls(SEAT, SUIT)``)
  ``jokers(SEAT)``         jokers held (bid whist)
  ``spades(SEAT)``, ``hearts(SEAT)``, ``diamonds(SEAT)``, ``clubs(SEAT)``:
                           short for ``length(SEAT, suit)``

* comparisons ``< <= > >= == !=`` (``=`` is ``==``), chained as in
  ``10 <= hcp(E) <= 15``;
* ``and``, ``or``, ``not`` (also ``&&``, ``||``, ``!``), parentheses.

An expression is parsed by a grammar (lark, LALR), checked (a number where
a condition belongs is an error, and the reverse) and compiled to closures
over a small table of per-hand counts that :func:`hand_features` computes
once per deal.  Nothing is ever passed to Python's ``eval``.  A malformed
expression raises :class:`ConstraintError` naming the column of the fault
with a caret under it.
"""
from __future__ import annotations

import operator
import re
from typing import Callable, Iterable, List, Sequence

from .errors import WhistError

__all__ = ["ConstraintError", "Constraint", "Constraints", "compile_constraint",
           "compile_constraints", "hand_features", "FUNCTIONS"]


class ConstraintError(WhistError):
    """A constraint that cannot be parsed or checked; the message gives the
    column of the fault and a caret line under the expression."""


# --------------------------------------------------------------------------
# Per-hand counts

_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
_CONTROLS = {"A": 2, "K": 1}

# Features of one hand, at these offsets in the hand's block:
F_HCP = 0           # high-card points
F_CONTROLS = 1      # controls
F_JOKERS = 2        # jokers held
F_LENGTH = 3        # + suit index: length in S, H, D, C
F_SUIT_HCP = 7      # + suit index: points in S, H, D, C
F_SUIT_CONTROLS = 11  # + suit index: controls in S, H, D, C
N_FEATURES = 15


def _card_effects() -> dict:
    """card -> tuple of (feature offset, amount) it adds to its hand."""
    eff = {"JH": ((F_JOKERS, 1),), "JL": ((F_JOKERS, 1),)}
    for s, si in _SUIT_INDEX.items():
        for r in "23456789TJQKA":
            e = [(F_LENGTH + si, 1)]
            if r in _HCP:
                e += [(F_HCP, _HCP[r]), (F_SUIT_HCP + si, _HCP[r])]
            if r in _CONTROLS:
                e += [(F_CONTROLS, _CONTROLS[r]), (F_SUIT_CONTROLS + si, _CONTROLS[r])]
            eff[s + r] = tuple(e)
    return eff


_EFFECTS = _card_effects()


# A card's effects packed in one integer, a byte per feature (no count of
# one hand reaches 256): a hand's counts are the sum of its cards' integers.
_PACKED = {c: sum(amount << (8 * off) for off, amount in e) for c, e in _EFFECTS.items()}
_SHIFTS = tuple(8 * f for f in range(N_FEATURES))


def hand_features(hands: Sequence[Iterable[str]], seats: Iterable[int] = range(4)) -> List[int]:
    """The counts the constraints read, for the four hands N E S W: a flat
    list, seat ``s``'s feature ``f`` at ``s * N_FEATURES + f`` (only the
    ``seats`` asked for; the others' counts are left 0)."""
    feats = [0] * (4 * N_FEATURES)
    packed = _PACKED
    for seat in seats:
        p = sum(map(packed.__getitem__, hands[seat]))
        base = seat * N_FEATURES
        feats[base:base + N_FEATURES] = [(p >> sh) & 255 for sh in _SHIFTS]
    return feats


def _four_hands(hands) -> list:
    """``hands`` as four lists of cards the counts know (the samplers call
    hand_features with hands they dealt themselves, unchecked)."""
    try:
        hands = None if isinstance(hands, str) else [list(h) for h in hands]
    except TypeError:
        hands = None
    if hands is None or len(hands) != 4:
        raise ConstraintError("a constraint tests four hands (N, E, S, W)")
    for h in hands:
        for c in h:
            if not isinstance(c, str) or c not in _PACKED:
                raise ConstraintError(f"unknown card {c!r}")
    return hands


# --------------------------------------------------------------------------
# Grammar

def _left_chain(node, rule: str) -> list:
    """The operands of a chain the grammar nests to the left (a op b op c
    is ((a op b) op c)), in order, each with the operator before it ("+"
    for the first): [(op, node), ...].  Walked in a loop, since the tree
    of a chain of hundreds of terms is as deep as the chain is long."""
    out = []
    while getattr(node, "data", None) == rule:
        out.append((str(node.children[1]), node.children[2]))
        node = node.children[0]
    out.append(("+", node))
    out.reverse()
    return out


_GRAMMAR = r"""
?start: or_expr

?or_expr: and_expr
        | or_expr OR and_expr          -> or_

?and_expr: not_expr
         | and_expr AND not_expr       -> and_

?not_expr: comparison
         | NOT not_expr                -> not_

?comparison: sum
           | sum (CMP sum)+            -> compare

?sum: unary
    | sum ADD unary                    -> binop

?unary: atom
      | MINUS unary                    -> neg

?atom: INT                             -> number
     | NAME LPAR args RPAR             -> call
     | LPAR or_expr RPAR               -> group

args: [NAME (COMMA NAME)*]

OR.3: /or\b/i | "||"
AND.3: /and\b/i | "&&"
NOT.3: /not\b/i | "!"
CMP: "<=" | ">=" | "==" | "!=" | "<" | ">" | "="
ADD: "+" | "-"
MINUS: "-"
LPAR: "("
RPAR: ")"
COMMA: ","
INT: /[0-9]+/
// never a keyword: where the parser cannot take one (after 'and'), the
// lexer would otherwise read it as a function's name, and the error would
// point at the word after it
NAME: /(?!(?i:and|or|not)\b)[A-Za-z_][A-Za-z_0-9]*/

%ignore /[ \t\r\n]+/
"""

_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        from lark import Lark
        _PARSER = Lark(_GRAMMAR, parser="lalr", propagate_positions=True,
                       maybe_placeholders=False)
    return _PARSER


# What the terminals mean, for error messages.
_WORDS = {
    "INT": "a number", "NAME": "a function", "LPAR": "'('", "RPAR": "')'",
    "COMMA": "','", "CMP": "a comparison", "ADD": "'+' or '-'", "MINUS": "'-'",
    "OR": "'or'", "AND": "'and'", "NOT": "'not'", "$END": "the end",
}
_ORDER = ["INT", "NAME", "MINUS", "NOT", "LPAR", "CMP", "ADD", "AND", "OR", "COMMA", "RPAR", "$END"]


def _expected_words(expected: Iterable[str]) -> str:
    exp = set(expected)
    # a number can start wherever '-' or '(' or 'not' can: name the main ones
    if "INT" in exp:
        exp -= {"MINUS", "LPAR", "NOT"}
    if "ADD" in exp:
        exp.discard("MINUS")
    words = [_WORDS[t] for t in _ORDER if t in exp]
    words += sorted(_WORDS.get(t, t) for t in exp if t not in _ORDER)
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _fail(text: str, pos: int, what: str) -> ConstraintError:
    """An error at offset ``pos`` (0-based) of ``text``, with a caret line.
    The text is shown on one line (line breaks and tabs as spaces), so the
    column is counted on that line: for an expression of several lines
    the column of its own line would put the caret elsewhere."""
    line = text.replace("\n", " ").replace("\t", " ").replace("\r", " ")
    pos = min(max(pos or 0, 0), len(text))
    caret = " " * pos + "^"
    return ConstraintError(f"constraint {text!r}: {what} at column {pos + 1}\n  {line}\n  {caret}")


def _pos(x) -> int:
    """The offset in the text where a token or a tree of the parse starts."""
    meta = getattr(x, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.start_pos
    return getattr(x, "start_pos", None) or 0


def _syntax_error(text: str, err) -> ConstraintError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        col = err.pos_in_stream
        ch = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else ""
        allowed = getattr(err, "allowed", None) or ()
        what = f"unexpected character {ch!r}"
        if allowed:
            what += f" (expected {_expected_words(allowed)})"
        return _fail(text, col, what)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            return _fail(text, len(text), f"expected {_expected_words(err.expected)}")
        return _fail(text, _pos(tok), f"unexpected {str(tok)!r} (expected {_expected_words(err.expected)})")
    if isinstance(err, UnexpectedEOF):
        return _fail(text, len(text), f"expected {_expected_words(err.expected)}")
    return _fail(text, 0, "cannot parse")


# --------------------------------------------------------------------------
# Checking and compiling

_SEAT_NAMES = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
_SUIT_NAMES = {"s": 0, "spades": 0, "spade": 0, "h": 1, "hearts": 1, "heart": 1,
               "d": 2, "diamonds": 2, "diamond": 2, "c": 3, "clubs": 3, "club": 3}

# name -> (feature without a suit or None, feature + suit index or None)
FUNCTIONS = {
    "hcp": (F_HCP, F_SUIT_HCP),
    "controls": (F_CONTROLS, F_SUIT_CONTROLS),
    "length": (None, F_LENGTH),
    "jokers": (F_JOKERS, None),
    "spades": (F_LENGTH + 0, None),
    "hearts": (F_LENGTH + 1, None),
    "diamonds": (F_LENGTH + 2, None),
    "clubs": (F_LENGTH + 3, None),
}

_CMP = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
        "==": operator.eq, "=": operator.eq, "!=": operator.ne}

Eval = Callable[[list], object]


class _Compiler:
    def __init__(self, text: str):
        self.text = text
        self.seats: set = set()     # the seats whose counts the expression reads

    def fail(self, node, what: str) -> ConstraintError:
        return _fail(self.text, _pos(node), what)

    def want(self, node, kind: str):
        """Compile ``node``, which must be a number ('int') or a condition
        ('bool')."""
        f, k = self.compile(node)
        if k != kind:
            if kind == "bool":
                raise self.fail(node, "a number where a condition belongs "
                                      "(compare it, as in hcp(E) >= 12)")
            raise self.fail(node, "a condition where a number belongs")
        return f

    def compile(self, node):
        from lark import Token

        if isinstance(node, Token):          # a lone INT reduced away by '?'
            return self._number(node)
        rule = node.data
        ch = node.children
        if rule == "number":
            return self._number(ch[0])
        if rule == "group":
            return self.compile(ch[1])
        if rule == "neg":
            a = self.want(ch[1], "int")
            return (lambda f: -a(f)), "int"
        if rule == "binop":
            terms = _left_chain(node, "binop")
            if len(terms) == 2:
                a = self.want(terms[0][1], "int")
                b = self.want(terms[1][1], "int")
                if terms[1][0] == "+":
                    return (lambda f: a(f) + b(f)), "int"
                return (lambda f: a(f) - b(f)), "int"
            signed = [(1 if op == "+" else -1, self.want(t, "int")) for op, t in terms]

            def total(f, signed=signed):
                x = 0
                for sign, t in signed:
                    x += sign * t(f)
                return x
            return total, "int"
        if rule == "compare":
            terms = [self.want(ch[0], "int")]
            ops = []
            for i in range(1, len(ch), 2):
                ops.append(_CMP[str(ch[i])])
                terms.append(self.want(ch[i + 1], "int"))
            if len(ops) == 1:
                a, b, op = terms[0], terms[1], ops[0]
                return (lambda f: op(a(f), b(f))), "bool"

            def chain(f, terms=terms, ops=ops):
                left = terms[0](f)
                for op, t in zip(ops, terms[1:]):
                    right = t(f)
                    if not op(left, right):
                        return False
                    left = right
                return True
            return chain, "bool"
        if rule == "not_":
            a = self.want(ch[1], "bool")
            return (lambda f: not a(f)), "bool"
        if rule in ("and_", "or_"):
            # a chain (a and b and c ...) is one list, not a nesting as
            # deep as the chain is long: hundreds of terms compile
            parts = [self.want(t, "bool") for _op, t in _left_chain(node, rule)]
            if len(parts) == 2:
                a, b = parts
                if rule == "and_":
                    return (lambda f: a(f) and b(f)), "bool"
                return (lambda f: a(f) or b(f)), "bool"
            want = rule == "or_"        # the value that ends the chain

            def chain_of(f, parts=parts, want=want):
                for p in parts:
                    if bool(p(f)) == want:
                        return want
                return not want
            return chain_of, "bool"
        if rule == "call":
            return self._call(ch[0], ch[2]), "int"
        raise self.fail(node, f"cannot compile {rule}")   # not reached

    def _number(self, tok):
        digits = str(tok).lstrip("0")
        if len(digits) > 9:     # no count comes near; and no 5000-digit int()
            raise self.fail(tok, "number too big")
        v = int(digits or "0")
        return (lambda f: v), "int"

    def _call(self, name_tok, args_node):
        name = str(name_tok).lower()
        if name not in FUNCTIONS:
            known = ", ".join(sorted(FUNCTIONS))
            raise self.fail(name_tok, f"unknown function {str(name_tok)!r} (known: {known})")
        plain, by_suit = FUNCTIONS[name]
        args = [a for a in args_node.children if a is not None and getattr(a, "type", "") == "NAME"]
        if not args:
            raise self.fail(name_tok, f"{name}() needs a seat, as in {name}(E)")
        if len(args) > 2 or (len(args) == 2 and by_suit is None) or (len(args) == 1 and plain is None):
            usage = {"length": "length(SEAT, SUIT)", "jokers": "jokers(SEAT)"}.get(
                name, f"{name}(SEAT)" if by_suit is None else f"{name}(SEAT) or {name}(SEAT, SUIT)")
            at = args[-1] if len(args) > 1 else name_tok
            raise self.fail(at, f"wrong number of arguments: {usage}")
        seat = _SEAT_NAMES.get(str(args[0]).lower())
        if seat is None:
            raise self.fail(args[0], f"unknown seat {str(args[0])!r} (N, E, S or W)")
        if len(args) == 2:
            suit = _SUIT_NAMES.get(str(args[1]).lower())
            if suit is None:
                raise self.fail(args[1], f"unknown suit {str(args[1])!r} (S, H, D or C)")
            index = seat * N_FEATURES + by_suit + suit
        else:
            index = seat * N_FEATURES + plain
        self.seats.add(seat)
        return lambda f: f[index]


# The most levels of nesting a constraint may have: brackets and the
# 'not's and minus signs in a row before an operand (a bracket's too),
# counted before it is parsed.  The parser and the compiler recurse once (or more) per level,
# and 300 brackets were still read; but running into Python's recursion
# limit to find out made whatever ran at that depth fail too (a cleanup
# of the garbage collector, which a test process then reported as an
# error of its own), so a deeper constraint is refused up front.
MAX_NESTING = 100

# The most characters of constraint text one question reads (one
# constraint, or all of a board's tags and --constraint options together).
# The parser takes about 16 microseconds and 400 bytes of memory per
# character, and a compiled constraint keeps about 50 bytes per character
# (measured: 16,000 characters parsed in 0.26 s, 6.3 MB at the peak;
# 192,000 kept 10 MB), so this bounds the time and memory of reading
# them: a file within the 64 MB input limit could otherwise hold a
# constraint that needs tens of gigabytes to parse.  The constraints
# players write are a few dozen to a few hundred characters.
MAX_LENGTH = 20_000

_NEST_TOKENS = re.compile(r"!=|&&|\|\||[()!,-]|[A-Za-z_0-9]+|[^\sA-Za-z_0-9()!,-]+")


def _nesting(text: str) -> int:
    """How deeply ``text`` nests, at most: each bracket open counts one
    level, and each prefix operator ('not', '!', a minus that starts an
    operand) one more, down to the end of its operand (a bracket's
    operators end with it)."""
    depth = run = deepest = 0
    opened = []                    # the levels each open bracket added (itself and the run before it)
    after_operand = False          # the last token ended an operand (a number, a name, ')')
    for m in _NEST_TOKENS.finditer(text):
        t = m.group()
        low = t.lower()
        if t == "(":
            opened.append(run + 1)
            depth += run + 1
            run = 0
            after_operand = False
        elif t == ")":
            depth -= opened.pop() if opened else 0
            after_operand = True
        elif low == "not" or t == "!" or (t == "-" and not after_operand):
            run += 1
            after_operand = False
        elif t[0].isalnum() or t[0] == "_":
            after_operand = low not in ("and", "or")
            if after_operand:
                run = 0
        else:
            run = 0 if t != "-" else run
            after_operand = False
        deepest = max(deepest, depth + run)
    return deepest


def _too_deep(text: str, why: str = "") -> ConstraintError:
    return ConstraintError(f"constraint {text[:40]!r}...: nested too deeply{why}")


class Constraint:
    """One compiled constraint.  Pickles as its text (compiled again on
    arrival).  ``test(hands)`` says whether a deal (four hands of card
    names, N E S W) satisfies it; ``test_features`` takes the counts of
    :func:`hand_features`, for callers testing several constraints."""

    __slots__ = ("text", "_f", "seats")

    def __init__(self, text: str):
        from lark.exceptions import UnexpectedInput

        if not isinstance(text, str):
            raise ConstraintError(f"a constraint is text, not {type(text).__name__}")
        self.text = text
        if not text.strip():
            raise ConstraintError("empty constraint")
        if len(text) > MAX_LENGTH:
            raise ConstraintError(f"constraint {text[:40]!r}...: too long "
                                  f"({len(text):,} characters, at most {MAX_LENGTH:,})")
        if _nesting(text) > MAX_NESTING:
            raise _too_deep(text, f" (more than {MAX_NESTING} levels)")
        try:
            tree = _parser().parse(text)
        except UnexpectedInput as err:
            raise _syntax_error(text, err) from None
        except RecursionError:
            raise _too_deep(text) from None
        compiler = _Compiler(text)
        try:
            self._f = compiler.want(tree, "bool")
            self.seats = tuple(sorted(compiler.seats))
        except RecursionError:
            raise _too_deep(text) from None

    def test_features(self, feats: list) -> bool:
        return bool(self._f(feats))

    def test(self, hands: Sequence[Iterable[str]]) -> bool:
        return bool(self._f(hand_features(_four_hands(hands), self.seats)))

    def __reduce__(self):
        return (Constraint, (self.text,))

    def __repr__(self) -> str:
        return f"Constraint({self.text!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Constraint) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class Constraints:
    """Several constraints, all of which must hold (the ``--constraint``
    option repeated, the ``Constraint`` tags of a board)."""

    __slots__ = ("items", "seats")

    def __init__(self, texts: Iterable = ()):
        texts = list(texts)
        total = sum(len(t.text if isinstance(t, Constraint) else t) for t in texts
                    if isinstance(t, (str, Constraint)))
        if total > MAX_LENGTH and len(texts) > 1:
            raise ConstraintError(f"constraints too long: {total:,} characters in "
                                  f"{len(texts):,} constraints, at most {MAX_LENGTH:,} in all")
        self.items = tuple(t if isinstance(t, Constraint) else Constraint(t) for t in texts)
        self.seats = tuple(sorted({seat for c in self.items for seat in c.seats}))

    @property
    def texts(self) -> tuple:
        return tuple(c.text for c in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def test(self, hands: Sequence[Iterable[str]]) -> bool:
        return self.test_unchecked(_four_hands(hands))

    def test_unchecked(self, hands: Sequence[Iterable[str]]) -> bool:
        """test() of four hands of known cards, not checked (the samplers'
        hands, dealt from a checked pool: a check each try would cost as
        much as the test)."""
        if not self.items:
            return True
        feats = hand_features(hands, self.seats)
        return all(c._f(feats) for c in self.items)

    def __reduce__(self):
        return (Constraints, (self.texts,))

    def __repr__(self) -> str:
        return f"Constraints({list(self.texts)!r})"


def compile_constraint(text: str) -> Constraint:
    """Parse and check one constraint (raises :class:`ConstraintError`)."""
    return Constraint(text)


def compile_constraints(texts: Iterable[str]) -> Constraints:
    """Parse and check several constraints, and-ed together."""
    return Constraints(texts)
