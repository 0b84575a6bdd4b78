"""Choosing boards of a file by their labels (the command line's
``--board``): the label is what every output calls a board, its Board tag,
else its position in the file (``Board.label``).

A selection is a list of items, each a label or a range ``A-B`` of whole
numbers (the boards whose label is a number from A to B: ``3-8`` takes
boards 3, 4, ... 8 and also a board tagged ``07``).  Labels are compared
without regard to case or surrounding spaces.  One ``--board`` value may
hold several items separated by commas (``1,4,9-12``); a value that is a
label of its own (``Round 1-2``, ``A,B``) takes that board too, whatever it
would mean split.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from .errors import WhistError

_RANGE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")
# (the longest number a range takes: more digits than a board count has
# are no board's)
_MAX_DIGITS = 12


def _key(label: str) -> str:
    return " ".join(label.split()).casefold()


def _number(label: str) -> Optional[int]:
    text = label.strip()
    if text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS:
        return int(text)
    return None


class _Item:
    """One label or range of a --board value."""
    __slots__ = ("text", "key", "span", "found")

    def __init__(self, text: str, key: Optional[str] = None,
                 span: Optional[Tuple[int, int]] = None):
        self.text = text
        self.key = key
        self.span = span
        self.found = False

    def matches(self, key: str, number: Optional[int]) -> bool:
        if self.key is not None:
            return self.key == key
        return number is not None and self.span[0] <= number <= self.span[1]


def _item(part: str) -> _Item:
    m = _RANGE.match(part)
    if not m:
        return _Item(part, key=_key(part))
    lo, hi = m.group(1), m.group(2)
    if len(lo) > _MAX_DIGITS or len(hi) > _MAX_DIGITS:
        raise WhistError(f"board range {part!r}: a number of more than {_MAX_DIGITS} digits")
    if int(lo) > int(hi):
        raise WhistError(f"board range {part!r} runs backwards (write {hi}-{lo})")
    return _Item(part, span=(int(lo), int(hi)))


class BoardSelection:
    """The boards a run is asked for.  ``matches(label)`` says whether a
    board is one of them and notes which items found a board;
    ``unmatched()`` gives the items that found none, in the order given."""

    def __init__(self, values: Iterable[str]):
        # per value: the value whole as a label (None when it is a plain
        # label already) and its items
        self.values: List[Tuple[Optional[_Item], List[_Item]]] = []
        for value in values:
            text = value.strip()
            if not text:
                raise WhistError("an empty value (give a board's label, as the output "
                                 "names it, or a range such as 3-8)")
            parts = [p.strip() for p in text.split(",")]
            if any(not p for p in parts):
                raise WhistError(f"an empty item in {text!r} "
                                 "(items are separated by single commas)")
            whole = _Item(text, key=_key(text)) if len(parts) > 1 or _RANGE.match(text) else None
            self.values.append((whole, [_item(p) for p in parts]))

    def __bool__(self) -> bool:
        return bool(self.values)

    def matches(self, label: str) -> bool:
        key = _key(label)
        number = _number(label)
        hit = False
        for whole, items in self.values:
            for item in ([whole] if whole else []) + items:
                if item.matches(key, number):
                    item.found = True
                    hit = True
        return hit

    def unmatched(self) -> List[str]:
        """The items that found no board (a value that is itself a board's
        label found it, whatever its items found)."""
        return [item.text for whole, items in self.values
                if not (whole and whole.found) for item in items if not item.found]
