"""Choosing boards of a file by their labels (the command line's
``--board``): the label is what every output calls a board, its Board tag,
else its position in the file (``Board.label``).

A ``--board`` value is a label; it is also read as a list of items
separated by commas (``1,4,9-12``), each a label or a range ``A-B`` of
whole numbers.  A number matches a label that is the same number (``7``
takes a board tagged ``07``; ``3-8`` takes boards 3 to 8).  Labels are
compared without regard to case, runs of spaces or Unicode's two ways of
writing an accented letter.  A value that is the label of a board of a
file (``Round 1-2``, ``A,B``, ``8-3``) takes that board there and nothing
else, whatever its items would mean; an item that cannot be read (an
empty one, a range that runs backwards) only says so when the value finds
no board.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable, List, Optional, Tuple

from .errors import WhistError

_RANGE = re.compile(r"([0-9]+)\s*-\s*([0-9]+)")
# (the longest number an item reads: more digits than a board count has
# are no board's)
_MAX_DIGITS = 12


def _key(label: str) -> str:
    return " ".join(unicodedata.normalize("NFC", label).split()).casefold()


def _number(label: str) -> Optional[int]:
    text = label.strip()
    if text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS:
        return int(text)
    return None


class _Item:
    """One label, number or range of a --board value; ``problem`` says
    why a part of the value is not read as an item."""
    __slots__ = ("text", "key", "span", "problem", "found")

    def __init__(self, text: str, key: Optional[str] = None,
                 span: Optional[Tuple[int, int]] = None, problem: Optional[str] = None):
        self.text = text
        self.key = key
        self.span = span
        self.problem = problem
        self.found = False

    def matches(self, key: str, number: Optional[int]) -> bool:
        if self.span is not None:
            return number is not None and self.span[0] <= number <= self.span[1]
        return self.key is not None and self.key == key


def _item(part: str) -> _Item:
    """An item of a value split at its commas."""
    if not part:
        return _Item(part, problem="an empty item: items are separated by single commas")
    m = _RANGE.fullmatch(part)
    number = _number(part)
    if number is not None:
        return _Item(part, span=(number, number))
    if not m:
        if part.isascii() and part.isdigit():
            return _Item(part, problem=f"a number of more than {_MAX_DIGITS} digits")
        return _Item(part, key=_key(part))
    lo, hi = m.group(1), m.group(2)
    if len(lo) > _MAX_DIGITS or len(hi) > _MAX_DIGITS:
        return _Item(part, problem=f"a number of more than {_MAX_DIGITS} digits")
    if int(lo) > int(hi):
        return _Item(part, problem=f"a backwards range: write {int(hi)}-{int(lo)}")
    return _Item(part, span=(int(lo), int(hi)))


def find_label(labels: List[str], wanted: str) -> Optional[int]:
    """The index of the first of ``labels`` that ``wanted`` names, as a
    --board value of one label does (without regard to case or runs of
    spaces; a number takes a label that is the same number: ``7`` takes
    ``07``), the label written the same way first; None if none."""
    w = wanted.strip()
    if w in labels:
        return labels.index(w)
    key, number = _key(w), _number(w)
    for i, label in enumerate(labels):
        if _key(label) == key or (number is not None and _number(label) == number):
            return i
    return None


class BoardSelection:
    """The boards a run is asked for.  ``pick(labels)`` says which boards
    of a file are among them and notes which values and items found a
    board; ``unmatched()`` gives what found none, in the order given."""

    def __init__(self, values: Iterable[str]):
        # per value: the value whole as a label, and its items when it
        # splits into more than itself
        self.values: List[Tuple[_Item, List[_Item]]] = []
        for value in values:
            text = value.strip()
            if not text:
                raise WhistError("an empty value (give a board's label, as the output "
                                 "names it, or a range such as 3-8)")
            parts = [p.strip() for p in text.split(",")]
            items = [_item(p) for p in parts]
            if len(items) == 1 and items[0].problem is None and items[0].span is None:
                items = []              # a plain label: the value whole is all there is
            self.values.append((_Item(text, key=_key(text)), items))

    def __bool__(self) -> bool:
        return bool(self.values)

    def pick(self, labels: List[str]) -> List[bool]:
        """Which of a file's boards (by their labels, in order) are asked
        for.  A value that is the label of a board of the file takes those
        boards only; else its items take theirs."""
        keys = [_key(label) for label in labels]
        numbers = [_number(label) for label in labels]
        chosen = [False] * len(labels)
        for whole, items in self.values:
            hits = [i for i, k in enumerate(keys) if whole.matches(k, None)]
            if hits:
                whole.found = True
            else:
                for item in items:
                    found = [i for i in range(len(labels)) if item.matches(keys[i], numbers[i])]
                    item.found = item.found or bool(found)
                    hits += found
            for i in hits:
                chosen[i] = True
        return chosen

    def unmatched(self) -> List[Tuple[str, Optional[str]]]:
        """What found no board, in the order given, as (text, why it was
        not read as an item, or None): each value that found none as a
        label, or its items that found none when it has items; a value
        that found a board as a label has nothing unmatched."""
        out: List[Tuple[str, Optional[str]]] = []
        for whole, items in self.values:
            if whole.found:
                continue
            if not items:
                out.append((whole.text, None))
            out += [(item.text or whole.text, item.problem) for item in items
                    if item.problem or not item.found]
        return out
