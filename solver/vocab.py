"""The words of the game, parsed and named in one place: seats, sides,
suits and their symbols, strains, rankings, bid levels, contracts and the
names of bids.

Every other module (rules, PBN, bid whist, the command line, the output)
uses these instead of its own tables: ``parse_*`` read what people and files
write (``S``, ``spades``, ``\u2660``, ``NT``, ``notrump``, ``downtown``,
``\u2193``, ``4 S down``...) and raise :class:`WhistError` on anything else;
the ``*_name``/``*_NAMES`` give the canonical names back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Union

from .errors import WhistError

SEATS = ("N", "E", "S", "W")
SUITS = ("S", "H", "D", "C")
STRAINS = ("S", "H", "D", "C", "NT")
RANKINGS = ("up", "down")

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# The words of each strain, as players say them.
STRAIN_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no-trump"}
RANKING_NAMES = {"up": "uptown", "down": "downtown"}
SIDE_NAMES = {"NS": "N-S", "EW": "E-W"}

# Symbols read as suit letters: the black and the white (outline) suits.
_SYMBOL_LETTERS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                   "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"}
# Keys are upper case without spaces or hyphens ("no-trump" -> "NOTRUMP").
_STRAIN_WORDS = {
    "NT": "NT", "N": "NT", "NOTRUMP": "NT", "NOTRUMPS": "NT", "NONE": "NT", "NO": "NT",
    "S": "S", "SPADE": "S", "SPADES": "S",
    "H": "H", "HEART": "H", "HEARTS": "H",
    "D": "D", "DIAMOND": "D", "DIAMONDS": "D",
    "C": "C", "CLUB": "C", "CLUBS": "C",
}
_RANKING_WORDS = {"UP": "up", "UPTOWN": "up", "\u2191": "up",
                  "DOWN": "down", "DOWNTOWN": "down", "\u2193": "down"}
_SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}

# Bids (SPEC §1): a bid of L promises L + 6 books; at an equal number
# downtown beats uptown and no-trump beats both.
BOOKS_FOR_LEVEL = 6
BID_KINDS = ("uptown", "downtown", "no-trump")   # low to high at an equal number


# --------------------------------------------------------------------------
# Seats and sides


def seat_index(seat: str) -> int:
    """0..3 for N, E, S, W from a seat's letter or a word that starts with
    it (``"north"``)."""
    s = seat.strip().upper()[:1]
    if s not in SEATS:
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    return SEATS.index(s)


def parse_seat(seat: Union[int, str]) -> int:
    """0..3 from an index, a letter or a full name (``N``, ``north``);
    anything else raises :class:`WhistError` (``None``, ``True``, ``1.0``
    included: neither a seat's name nor its index)."""
    if isinstance(seat, bool) or not isinstance(seat, (int, str)):
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    if isinstance(seat, int):
        if 0 <= seat <= 3:
            return seat
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    s = str(seat).strip()
    if len(s) != 1 and s.upper() not in _SEAT_WORDS:
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    return seat_index(s)


def seat_letter(seat: Union[int, str]) -> str:
    """``N``..``W`` from an index or a seat's letter or name."""
    if isinstance(seat, int):
        return SEATS[seat]
    return str(seat).strip().upper()[:1]


def side_of(seat: int) -> str:
    """'NS' or 'EW'."""
    return "NS" if seat % 2 == 0 else "EW"


def opening_leader(declarer: int, bidder_leads: bool = False) -> int:
    """The seat that leads to a contract's first trick: the declarer's
    left-hand opponent, or in bid whist (``bidder_leads``) the bidder,
    who declares, itself."""
    return declarer if bidder_leads else (declarer + 1) % 4


def side_name(seat: int) -> str:
    """``N-S`` or ``E-W``: the side of a seat, as written for people."""
    return SIDE_NAMES[side_of(seat)]


# --------------------------------------------------------------------------
# Strains and rankings


def suit_letters(text: str) -> str:
    """``text`` with the suit symbols replaced by their letters."""
    for sym, letter in _SYMBOL_LETTERS.items():
        text = text.replace(sym, letter)
    return text


def _strain_key(text: str) -> str:
    return re.sub(r"[\s-]+", "", text.upper())


def parse_strain(text: str) -> str:
    """'S', 'H', 'D', 'C' or 'NT' from a Trump tag or option value
    (``S``, ``spades``, ``♠``, ``NT``, ``N``, ``notrump``...)."""
    t = _strain_key(suit_letters(str(text)))
    if t in _STRAIN_WORDS:
        return _STRAIN_WORDS[t]
    raise WhistError(f"unknown trump {text!r} (expected S, H, D, C or NT)")


def strain_of(trump: Optional[str]) -> str:
    """The strain of a trump: None and ``""`` are no-trump, else as
    :func:`parse_strain`."""
    if trump is None or not str(trump).strip():
        return "NT"
    return parse_strain(trump)


def trump_of(strain: Optional[str]) -> Optional[str]:
    """The trump suit of a strain: 'S'..'C', or None for no-trump."""
    return None if strain in (None, "", "NT", "N") else strain


def parse_ranking(text: str) -> str:
    """'up' or 'down' (also ``uptown``, ``downtown``, ``↑``, ``↓``)."""
    t = str(text).strip().upper()
    if t in _RANKING_WORDS:
        return _RANKING_WORDS[t]
    raise WhistError(f"unknown ranking {text!r} (expected up or down)")


def strain_name(trump: Optional[str]) -> str:
    """``spades`` ... ``no-trump``."""
    return STRAIN_NAMES[strain_of(trump)]


# --------------------------------------------------------------------------
# Contracts


@dataclass
class Contract:
    """A contract: ``level`` 1..7 (0 for Pass, and for the bare strain PBN
    uses in end positions, e.g. ``[Contract "S"]``), ``strain`` 'S', 'H',
    'D', 'C' or 'NT', ``ranking`` 'up' or 'down', ``doubled`` 0/1 (X)/2 (XX).
    ``passed`` is true for ``Pass`` (all players passed; no strain)."""

    level: int
    strain: str
    ranking: str
    doubled: int = 0
    passed: bool = False

    @property
    def trump(self) -> Optional[str]:
        """'S', 'H', 'D', 'C', or None for no-trump (and for Pass)."""
        if self.passed or self.strain == "NT":
            return None
        return self.strain

    def name(self) -> str:
        """``4S↓``, ``3NT``, ``4SX``, ``Pass``: uptown gets no arrow."""
        if self.passed:
            return "Pass"
        text = (str(self.level) if self.level else "") + self.strain + "X" * self.doubled
        if self.ranking == "down":
            text += "\u2193"
        return text

    def __str__(self) -> str:
        return self.name()


_CONTRACT_RE = re.compile(
    r"(?P<level>\d+)?\s*"
    r"(?P<strain>NO\s*-?\s*TRUMPS?|NT|SPADES?|HEARTS?|DIAMONDS?|CLUBS?|N|S|H|D|C)\s*"
    r"(?P<x1>XX|X)?\s*"
    r"(?P<dir>UPTOWN|DOWNTOWN|UP|DOWN|\u2191|\u2193)?\s*"
    r"(?P<x2>XX|X)?"
)
# A bid as players say it and bid_name writes it: "4 uptown in spades"
_BID_NAME_RE = re.compile(r"(?P<level>\d+)\s*(?P<dir>UPTOWN|DOWNTOWN|UP|DOWN)\s+IN\s+"
                          r"(?P<strain>SPADES?|HEARTS?|DIAMONDS?|CLUBS?|S|H|D|C)")


def parse_contract(text: str) -> Contract:
    """Parse a contract: ``4S``, ``3NT``, ``4S↓``, ``4 S down``, ``5NT↑``,
    ``4SX``, ``7NTXX``, ``2♥``, ``Pass``, and bids as bid_name says them
    (``4 uptown in spades``, ``3 no-trump downtown``); PBN end positions give a bare
    strain (``S``, ``NT``: level 0).  No direction means up.  Raises
    :class:`WhistError` on anything else."""
    raw = text
    t = suit_letters(text.strip()).upper()
    if t in ("PASS", "P", "AP", "ALL PASS", "PASSED", "PASSED OUT"):
        return Contract(0, "NT", "up", 0, passed=True)
    m = _match_contract(text)
    if not m or (m.re is _CONTRACT_RE and m.group("x1") and m.group("x2")):
        raise WhistError(
            f"bad contract {raw!r} (expected e.g. 4S, 3NT, 4S\u2193, '4 S down', 5NT\u2191, 4SX or Pass)")
    level = 0
    if m.group("level") is not None:
        digits = m.group("level").lstrip("0")
        level = int(digits or "0") if len(digits) <= 2 else 99   # no 5000-digit int()
        if not 1 <= level <= 7:
            raise WhistError(f"bad contract {raw!r}: the level must be 1 to 7")
    strain = _STRAIN_WORDS[_strain_key(m.group("strain"))]
    doubled = len(m.group("x1") or m.group("x2") or "") if m.re is _CONTRACT_RE else 0
    ranking = _RANKING_WORDS[m.group("dir")] if m.group("dir") else "up"
    return Contract(level, strain, ranking, doubled)


def _match_contract(text: str):
    """The match of a contract's text, read as parse_contract reads it
    (suit symbols as letters, any case), or None."""
    t = suit_letters(text.strip()).upper()
    return _CONTRACT_RE.fullmatch(t) or _BID_NAME_RE.fullmatch(t)


def names_ranking(text: str) -> bool:
    """Whether the text of a contract names its direction (``4NT↓``,
    ``4 NT up``, ``3 no-trump downtown``), which parse_contract otherwise
    takes to be up; False for text that is no contract."""
    m = _match_contract(text)
    return bool(m and m.group("dir"))


def is_bid(contract: Contract) -> bool:
    """A bid whist bid: not Pass, a level 1 to 7."""
    return not getattr(contract, "passed", False) and 1 <= contract.level <= 7


# --------------------------------------------------------------------------
# Bids


def bid_kind(trump: Optional[str], ranking: str) -> str:
    """What the bid says: 'uptown' or 'downtown' for a suit, 'no-trump'."""
    if strain_of(trump) == "NT":
        return "no-trump"
    return RANKING_NAMES[parse_ranking(ranking)]


def bid_rank(level: int, trump: Optional[str], ranking: str) -> int:
    """Order of bids (SPEC §1): by number, then at an equal number uptown <
    downtown < no-trump (no-trump uptown and downtown are the same bid)."""
    return 3 * level + BID_KINDS.index(bid_kind(trump, ranking))


def bid_name(level: int, trump: Optional[str], ranking: str) -> str:
    """As players say it: ``"5 downtown in spades"``, ``"4 no-trump uptown"``."""
    strain = strain_of(trump)
    r = RANKING_NAMES[parse_ranking(ranking)]
    if strain == "NT":
        return f"{level} no-trump {r}"
    return f"{level} {r} in {STRAIN_NAMES[strain]}"


def contract_name(level: int, trump: Optional[str], ranking: str) -> str:
    """PBN contract: ``4S↓``, ``3H``, ``5NT↓`` (uptown has no arrow)."""
    text = f"{level}{strain_of(trump)}"
    if parse_ranking(ranking) == "down":
        text += "\u2193"
    return text


def ascii_arrows(name: str) -> str:
    """A contract's name (``4SX\u2193``) in plain ASCII, as parse_contract
    reads it back: the downtown arrow as the word (``4SX down``)."""
    return name.replace("\u2193", " down")


def contract_ascii(level: int, trump: Optional[str], ranking: str) -> str:
    """The contract in plain ASCII, as :func:`parse_contract` reads it back:
    ``4S down``, ``3H``, ``5NT down`` (uptown has no word)."""
    text = f"{level}{strain_of(trump)}"
    if parse_ranking(ranking) == "down":
        text += " down"
    return text
