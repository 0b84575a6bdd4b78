"""Reading and writing PBN files (SPEC §2): PBN 2.1 import format plus the
whist tags.

Reading
-------
``read_pbn(text)`` / ``read_pbn_file(path)`` return one :class:`Board` per
game.  The reader follows the PBN 2.1 standard (chapters 3 and 4.8):

* A game ends at a *semi-empty* line (only spaces/tabs), except inside a
  ``{ ... }`` comment, which may span lines and hold empty lines.
* ``%`` in column 1 starts an escape line (``% PBN 2.1``, ``% EXPORT``...):
  the whole line is ignored.  ``;`` starts a comment to the end of the line.
* A tag pair is ``[`` name string ``]``; any white space, line breaks
  included, may separate the four tokens.  Several tags may share a line.
  In strings ``\\"`` is a quote and ``\\\\`` a backslash; any other backslash
  is kept as written (``"Declarer;Denomination\\2R;Result\\2R"``).
* A tag that already occurred in the game is ignored (first one wins), except
  ``Note`` tags, which may repeat (collected in ``Board.notes``).  One
  leniency: a repeated ``Event``, ``Board`` or ``Deal`` tag in a game that
  already has a ``Deal`` starts a new game, for files that forgot the empty
  line between games.
* Everything after a tag up to the next tag (Auction calls, Play cards, table
  rows...) is that tag's *section*: ``Board.sections[name]`` holds its lines
  as written (columns kept for tables) but with comments blanked out and
  without indentation.  ``Note`` tags do not interrupt the section they sit
  in.
* Tag value inheritance (PBN 2.1 §4.8): the value ``"#"`` is the value of the
  same tag in the nearest previous game that has the tag (``""`` if none).  A
  value ``"##text"`` is ``text`` for this game and for every later game that
  does not give the tag; a later plain value of that tag replaces the
  default from there on (the standard's example: a ``##`` date redefined in
  mid-file for the next day's boards).  ``"##"`` alone therefore means an
  empty default; nothing is ever incremented (the standard defines no
  numbering).  The standard forbids ``#`` for Dealer, Vulnerable, Deal,
  Declarer, Contract, Auction and Play; we accept it for every tag.
  A game with no Deal that sets ``##`` defaults is a file header, not a
  board: it is not returned.

A malformed game never stops the reader: its problems are listed in
``Board.errors`` (plain messages, without the board label) and the next game
is read.  ``Board.check()`` (called by ``start_position``/``position``)
raises them as one :class:`WhistError` naming the board.

Writing
-------
``write_board`` / ``write_pbn`` write export-style PBN: the mandatory tags in
the standard's order, the other identification tags alphabetically, then
Auction and Play with their sections, then the other sections (tables)
alphabetically.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence, Union

from .cards import (
    SEATS,
    CardError,
    PositionError,
    Position,
    WhistError,
    format_hand,
    full_deck,
    is_joker,
    parse_card,
    parse_hand,
    seat_index,
    sort_cards,
    trick_winner_offset,
)

__all__ = [
    "WhistError",
    "Contract",
    "Board",
    "MANDATORY_TAGS",
    "parse_contract",
    "parse_strain",
    "parse_ranking",
    "read_pbn",
    "read_pbn_file",
    "decode_pbn",
    "format_deal",
    "format_tag",
    "write_board",
    "write_pbn",
    "optimum_result_table",
]

# The Mandatory Tag Set of PBN 2.1 §3.4, in export order.
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)

# Tags whose values stand for "unknown / not applicable" in real files.
_UNKNOWN_VALUES = ("", "?")

_SUIT_SYMBOLS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                 "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"}
# Keys are upper case without spaces or hyphens ("no-trump" -> "NOTRUMP").
_STRAIN_WORDS = {
    "NT": "NT", "N": "NT", "NOTRUMP": "NT", "NOTRUMPS": "NT", "NONE": "NT",
    "S": "S", "SPADE": "S", "SPADES": "S",
    "H": "H", "HEART": "H", "HEARTS": "H",
    "D": "D", "DIAMOND": "D", "DIAMONDS": "D",
    "C": "C", "CLUB": "C", "CLUBS": "C",
}
_RANKING_WORDS = {"UP": "up", "UPTOWN": "up", "\u2191": "up",
                  "DOWN": "down", "DOWNTOWN": "down", "\u2193": "down"}


# ---------------------------------------------------------------------------
# Contracts, strains, rankings
# ---------------------------------------------------------------------------

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


def _normalize_symbols(text: str) -> str:
    for sym, letter in _SUIT_SYMBOLS.items():
        text = text.replace(sym, letter)
    return text


def _strain_key(text: str) -> str:
    return re.sub(r"[\s-]+", "", text.upper())


def parse_contract(text: str) -> Contract:
    """Parse a contract: ``4S``, ``3NT``, ``4S↓``, ``4 S down``, ``5NT↑``,
    ``4SX``, ``7NTXX``, ``2♥``, ``Pass``; PBN end positions give a bare
    strain (``S``, ``NT``: level 0).  No direction means up.  Raises
    :class:`WhistError` on anything else."""
    raw = text
    t = _normalize_symbols(text.strip()).upper()
    if t in ("PASS", "P", "AP", "ALL PASS", "PASSED", "PASSED OUT"):
        return Contract(0, "NT", "up", 0, passed=True)
    m = _CONTRACT_RE.fullmatch(t)
    if not m or (m.group("x1") and m.group("x2")):
        raise WhistError(
            f"bad contract {raw!r} (expected e.g. 4S, 3NT, 4S\u2193, '4 S down', 5NT\u2191, 4SX or Pass)")
    level = 0
    if m.group("level") is not None:
        level = int(m.group("level"))
        if not 1 <= level <= 7:
            raise WhistError(f"bad contract {raw!r}: the level must be 1 to 7")
    strain = _STRAIN_WORDS[_strain_key(m.group("strain"))]
    doubled = len(m.group("x1") or m.group("x2") or "")
    ranking = _RANKING_WORDS[m.group("dir")] if m.group("dir") else "up"
    return Contract(level, strain, ranking, doubled)


def parse_strain(text: str) -> str:
    """'S', 'H', 'D', 'C' or 'NT' from a Trump tag or option value
    (``S``, ``spades``, ``♠``, ``NT``, ``N``, ``notrump``...)."""
    t = _strain_key(_normalize_symbols(str(text)))
    if t in _STRAIN_WORDS:
        return _STRAIN_WORDS[t]
    raise WhistError(f"unknown trump {text!r} (expected S, H, D, C or NT)")


def parse_ranking(text: str) -> str:
    """'up' or 'down' (also ``uptown``, ``downtown``, ``↑``, ``↓``)."""
    t = str(text).strip().upper()
    if t in _RANKING_WORDS:
        return _RANKING_WORDS[t]
    raise WhistError(f"unknown ranking {text!r} (expected up or down)")


def _seat_arg(seat: Union[int, str]) -> int:
    if isinstance(seat, int):
        if 0 <= seat <= 3:
            return seat
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    s = str(seat).strip()
    if len(s) != 1 and s.upper() not in ("NORTH", "EAST", "SOUTH", "WEST"):
        raise WhistError(f"unknown seat {seat!r} (expected N, E, S or W)")
    return seat_index(s)


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------

def format_deal(hands: Sequence[Optional[Iterable[str]]], first: Union[int, str] = 0) -> str:
    """PBN Deal value ``"N:AK3.QJ9..T2.HL ..."``: ``hands`` are N, E, S, W
    (None for an unknown hand, written ``-``); the string starts with seat
    ``first`` and goes clockwise."""
    first = _seat_arg(first)
    parts = []
    for k in range(4):
        hand = hands[(first + k) % 4]
        parts.append("-" if hand is None else format_hand(hand))
    return f"{SEATS[first]}:" + " ".join(parts)


def _parse_card_list(text: str) -> list[str]:
    """A hand ``S.H.D.C[.J]`` or a list of card names (``SA HK JH``)."""
    t = text.strip()
    if "." in t or t == "-":
        return parse_hand(t)
    cards = [parse_card(c) for c in re.split(r"[\s,]+", t) if c]
    dup = sorted({c for c in cards if cards.count(c) > 1})
    if dup:
        raise CardError(f"card {dup[0]} appears twice in {text!r}")
    return cards


def _parse_deal(text: str, kitty: Sequence[str]) -> list[list[str]]:
    """The four hands (N, E, S, W) of a Deal tag value, validated.

    A hand given as ``-`` (unknown) is only accepted when it is the only one
    and all other cards are accounted for: the three known hands (and the
    kitty) leave exactly a hand's worth of a 52- or 54-card deck."""
    t = text.strip()
    m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", t, re.S)
    if not m:
        raise WhistError(f"bad Deal {text!r}: it must start with the first seat, e.g. \"N:\"")
    first = "NESW".index(m.group(1).upper())
    parts = m.group(2).split()
    if len(parts) != 4:
        raise WhistError(f"bad Deal {text!r}: it needs 4 hands, found {len(parts)}")
    hands: list[Optional[list[str]]] = [None] * 4
    for k, part in enumerate(parts):
        seat = (first + k) % 4
        if part == "-":
            continue
        try:
            hands[seat] = parse_hand(part)
        except CardError as e:
            raise WhistError(f"bad hand for {SEATS[seat]} in the Deal: {e}") from None
    unknown = [s for s in range(4) if hands[s] is None]
    if unknown:
        known = [h for h in hands if h is not None]
        deduced = None
        if len(unknown) == 1 and len({len(h) for h in known}) == 1:
            n = len(known[0])
            held = {c for h in known for c in h} | set(kitty)
            for deck in (full_deck(False), full_deck(True)):
                rest = [c for c in deck if c not in held]
                if len(rest) == n:
                    deduced = rest
                    break
        if deduced is None:
            names = " and ".join(SEATS[s] for s in unknown)
            which = "hand of {} is" if len(unknown) == 1 else "hands of {} are"
            raise WhistError(f"the {which.format(names)} unknown ('-' in the Deal); "
                             "a solver needs all four hands")
        hands[unknown[0]] = deduced
    if all(len(h) == 0 for h in hands):
        raise WhistError("the Deal has no cards")
    try:
        # Duplicates across hands, unequal hands, more than 13 cards.
        Position.make(hands, None)
    except PositionError as e:
        msg = str(e).replace(" for a trick with 0 card(s) played", "")
        raise WhistError(msg) from None
    for c in kitty:
        for seat, h in enumerate(hands):
            if c in h:
                raise WhistError(f"duplicate card {c} (in the kitty and held by {SEATS[seat]})")
    return [sort_cards(h) for h in hands]


# ---------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------

# Play section tokens (PBN 2.1 §3.2, §3.6): irregularities ^R/^L, note
# references =1=, NAGs $12, suffixes ! ? !! ?? !? ?!, the end marker *, the
# continuation marker +, and cards (a dash for "no card").
_PLAY_TOKEN_RE = re.compile(r"\^.|=\d*=|\$\d*|[!?]+|\*|\+|-|[A-Za-z0-9]+|\S")


@dataclass
class Board:
    """One game of a PBN file.

    ``tags`` hold the values after inheritance, ``sections`` the section
    lines of each tag that has some, ``errors`` the problems found while
    reading (plain messages; the board is bad if there are any) and
    ``notes`` the values of the ``Note`` tags in file order."""

    file: str
    index: int
    tags: dict
    sections: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    comments: list = field(default_factory=list)   # text of the game's {...} comments

    def __post_init__(self) -> None:
        self._hands: Optional[list[list[str]]] = None
        self._kitty: list[str] = []
        kitty = self._tag("Kitty", "Undealt")
        if kitty is not None:
            try:
                self._kitty = sort_cards(_parse_card_list(kitty))
            except WhistError as e:
                self.errors.append(f"bad Kitty: {e}")
        deal = self._tag("Deal")
        if deal is None:
            self.errors.append("no Deal tag")
            return
        try:
            self._hands = _parse_deal(deal, self._kitty)
        except WhistError as e:
            self.errors.append(str(e))

    # -- tag access ---------------------------------------------------------

    def _tag(self, *names: str) -> Optional[str]:
        """The stripped value of the first of ``names`` present with a real
        value ("" and "?" mean unknown).  Exact tag names first, then any
        case (``[trump "S"]``)."""
        for name in names:
            value = self.tags.get(name)
            if value is None:
                low = name.lower()
                value = next((v for k, v in self.tags.items() if k.lower() == low), None)
            if value is not None and value.strip() not in _UNKNOWN_VALUES:
                return value.strip()
        return None

    def _err(self, message: str) -> WhistError:
        return WhistError(f"board {self.label}: {message}")

    def _seat_tag(self, name: str) -> Optional[int]:
        value = self._tag(name)
        if value is None:
            return None
        try:
            return _seat_arg(value.lstrip("^"))  # "^S": declarer/dummy swapped
        except WhistError as e:
            raise self._err(f"bad {name} tag: {e}") from None

    @property
    def label(self) -> str:
        """The Board tag if present, else the position in the file."""
        value = self.tags.get("Board", "").strip()
        return value if value not in _UNKNOWN_VALUES else str(self.index)

    @property
    def hands(self) -> Optional[list[list[str]]]:
        """The cards of N, E, S, W in the Deal, or None (no or bad Deal)."""
        if self._hands is None:
            return None
        return [list(h) for h in self._hands]

    @property
    def kitty(self) -> list[str]:
        return list(self._kitty)

    def check(self) -> None:
        """Raise the reading errors, if any, as one WhistError."""
        if self.errors:
            raise self._err("; ".join(self.errors))

    def deal_string(self) -> str:
        """The Deal in canonical form, ``N:`` first."""
        self.check()
        return format_deal(self._hands, 0)

    def bidder(self) -> Optional[int]:
        return self._seat_tag("Bidder")

    def declarer(self) -> Optional[int]:
        return self._seat_tag("Declarer")

    def dealer(self) -> Optional[int]:
        return self._seat_tag("Dealer")

    def goal(self) -> Optional[tuple[str, int]]:
        """``[Goal "NS 5"]`` -> ('NS', 5); a single seat names its side."""
        value = self._tag("Goal")
        if value is None:
            return None
        m = re.fullmatch(r"(NS|EW|N-S|E-W|N/S|E/W|N|E|S|W)\s*[:=]?\s*(\d+)", value.upper())
        if not m:
            raise self._err(f"bad Goal tag {value!r} (expected e.g. \"NS 5\" or \"EW 3\")")
        side = m.group(1).replace("-", "").replace("/", "")
        if len(side) == 1:
            side = "NS" if side in "NS" else "EW"
        tricks = int(m.group(2))
        if tricks > 13:
            raise self._err(f"bad Goal tag {value!r}: at most 13 tricks")
        return side, tricks

    def contract(self) -> Optional[Contract]:
        value = self._tag("Contract")
        if value is None:
            return None
        try:
            return parse_contract(value)
        except WhistError as e:
            raise self._err(f"bad Contract tag: {e}") from None

    def variant(self) -> str:
        """'classic' or 'bid': the Variant tag, else 'bid' when the deal has
        jokers or a kitty."""
        value = self._tag("Variant")
        if value is not None:
            v = re.sub(r"[\s_-]+", "", value.lower())
            if v in ("classic", "whist", "classicwhist"):
                return "classic"
            if v in ("bid", "bidwhist"):
                return "bid"
            raise self._err(f"bad Variant tag {value!r} (expected classic or bid)")
        jokers = any(is_joker(c) for h in (self._hands or []) for c in h)
        return "bid" if jokers or self._kitty else "classic"

    def trump(self, override: Optional[str] = None) -> Optional[str]:
        """'S', 'H', 'D', 'C', or None for no-trump: ``override`` (e.g. a
        command-line option, 'NT' for no-trump), else the Trump tag, else
        the Contract's strain."""
        if override is not None:
            strain = parse_strain(override)
        else:
            value = self._tag("Trump")
            if value is not None:
                try:
                    strain = parse_strain(value)
                except WhistError as e:
                    raise self._err(f"bad Trump tag: {e}") from None
            else:
                contract = self.contract()
                if contract is None:
                    raise self._err("missing trump: no Trump tag or Contract")
                if contract.passed:
                    raise self._err("missing trump: no Trump tag and the Contract is Pass")
                strain = contract.strain
        return None if strain == "NT" else strain

    def ranking(self, override: Optional[str] = None) -> str:
        """'up' or 'down': ``override``, else the Ranking tag, else the
        Contract's direction, else 'up'."""
        if override is not None:
            return parse_ranking(override)
        value = self._tag("Ranking")
        if value is not None:
            try:
                return parse_ranking(value)
            except WhistError as e:
                raise self._err(f"bad Ranking tag: {e}") from None
        contract = self.contract()
        if contract is not None and not contract.passed:
            return contract.ranking
        return "up"

    def _play_seat(self) -> Optional[int]:
        return self._seat_tag("Play")

    def leader(self, override: Union[int, str, None] = None) -> int:
        """Seat that leads the first trick of the deal: ``override``, else
        the Leader tag, else the Play tag (the seat that played first),
        else, in bid whist, the Bidder, else the Declarer's left-hand
        opponent, else the Dealer's left."""
        if override is not None:
            return _seat_arg(override)
        for name in ("Leader", "Play"):
            seat = self._seat_tag(name)
            if seat is not None:
                return seat
        if self._tag("Bidder") is not None and self.variant() == "bid":
            return self.bidder()
        for name in ("Declarer", "Dealer"):
            seat = self._seat_tag(name)
            if seat is not None:
                return (seat + 1) % 4
        raise self._err("missing leader: no Leader, Play, Declarer or Dealer tag")

    def _play_columns(self) -> list[str]:
        """The cards of the Play section in PBN column order ('-' for no
        card), up to the ``*`` end marker, annotations dropped."""
        text = " ".join(self.sections.get("Play", []))
        cols: list[str] = []
        for tok in _PLAY_TOKEN_RE.findall(text):
            trick = len(cols) // 4 + 1
            if tok == "*":
                break
            if tok in ("-", "+"):
                cols.append("-")
            elif tok.startswith("^"):
                what = {"^R": "a revoke (^R)", "^L": "a lead out of turn (^L)"}.get(
                    tok.upper(), f"the irregularity {tok}")
                raise self._err(f"the Play section has {what} in trick {trick}: "
                                "irregular play is not supported")
            elif tok[0] in "=$!?":
                continue
            else:
                try:
                    cols.append(parse_card(tok))
                except CardError:
                    raise self._err(f"unknown card {tok!r} in the Play section (trick {trick})") from None
        return cols

    def play_cards(self, trump: Optional[str], ranking: str) -> list[str]:
        """The Play section's cards in play order.

        PBN lists each trick as one group of 4 cards in *seat* order,
        starting with the Play tag's seat (the opening leader), whatever
        seat led the trick; the leader of every later trick is the winner of
        the previous one, which depends on ``trump`` ('S'..'C', or None/'NT'
        for no-trump) and ``ranking``.  The play ends at the first card not
        given (``-``, ``+``): a partly played last trick is normal."""
        cols = self._play_columns()
        if not any(c != "-" for c in cols):
            return []
        trump = None if trump in (None, "", "NT", "N") else trump
        ranking = parse_ranking(ranking)
        seat0 = self._play_seat()
        if seat0 is None:
            seat0 = self.leader()
        cols = cols + ["-"] * (-len(cols) % 4)
        order: list[str] = []
        leader = seat0
        for start in range(0, len(cols), 4):
            group = cols[start:start + 4]
            trick_no = start // 4 + 1
            seats = [(leader + k) % 4 for k in range(4)]
            played = [group[(s - seat0) % 4] for s in seats]
            if "-" not in played:
                order.extend(played)
                leader = (leader + trick_winner_offset(played, trump, ranking)) % 4
                continue
            j = played.index("-")
            later = [(seats[k], c) for k, c in enumerate(played) if k > j and c != "-"]
            if later:
                seat, card = later[0]
                raise self._err(
                    f"trick {trick_no} of the Play section: {SEATS[seats[j]]} has no card ('-') "
                    f"but {SEATS[seat]} played {card} after it (each line lists a trick's cards "
                    f"in seat order from the Play tag's seat {SEATS[seat0]}, the trick's leader "
                    f"being {SEATS[leader]})")
            rest = [c for c in cols[start + 4:] if c != "-"]
            if rest:
                raise self._err(
                    f"the Play section goes on ({rest[0]}) after the unfinished trick {trick_no}")
            order.extend(played[:j])
            break
        return order

    def start_position(self, trump: Optional[str] = None, ranking: Optional[str] = None,
                       leader: Union[int, str, None] = None) -> Position:
        """The deal before any play; the arguments override the file."""
        self.check()
        t = self.trump(trump)
        r = self.ranking(ranking)
        lead = self.leader(leader)
        try:
            return Position.make(self._hands, t, r, lead)
        except PositionError as e:
            raise self._err(str(e)) from None

    def position(self, trump: Optional[str] = None, ranking: Optional[str] = None,
                 leader: Union[int, str, None] = None) -> Position:
        """The position after the cards of the Play section, with the tricks
        they won counted in ``ns_tricks``/``ew_tricks``."""
        pos = self.start_position(trump, ranking, leader)
        cards = self.play_cards(pos.trump, pos.ranking)
        if not cards:
            return pos
        play_seat = self._play_seat()
        if play_seat is not None and play_seat != pos.leader:
            raise self._err(f"the leader is {SEATS[pos.leader]} but the Play section starts "
                            f"with {SEATS[play_seat]}")
        for i, card in enumerate(cards):
            try:
                pos = pos.play(card)
            except PositionError as e:
                # "illegal play HK by E: must follow S" -> "... by E in trick 3: ..."
                raise self._err(str(e).replace(": ", f" in trick {i // 4 + 1}: ", 1)) from None
        return pos


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

_SPACE = " \t\f\v\x1a"
_WORD_STOP = set(_SPACE + ';{}[]"')
_TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]+")
# Control bytes that do not belong in a text file (tab, LF, VT, FF, CR and
# the DOS end-of-file mark ^Z are allowed).
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 11, 12, 13, 26)) + b"\x7f"


@dataclass
class _Tok:
    kind: str   # '[', ']', 'str', 'word', 'comment', 'err'
    text: str   # the value (unescaped string) or the error message
    raw: str    # as written
    line: int
    col: int = 0


@dataclass
class _Game:
    tags: dict = field(default_factory=dict)      # raw values, file order
    sections: dict = field(default_factory=dict)  # name -> [(line, raw token)]
    notes: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    comments: list = field(default_factory=list)


def _semi_empty(line: str) -> bool:
    return not line.strip(_SPACE)


def _scan(text: str) -> list[list[_Tok]]:
    """Split the text into games and each game into tokens, dropping
    comments and escape lines."""
    lines = text.split("\n")
    games: list[list[_Tok]] = []
    toks: list[_Tok] = []
    ln = 0
    in_brace = False
    brace_line = 0
    brace_text: list[str] = []
    while True:
        if ln >= len(lines):
            if not in_brace:
                break
            # A '{' comment never closed: rather than lose the rest of the
            # file, end it (and its game) at the first empty line after it.
            toks.append(_Tok("err", f"line {brace_line}: unterminated {{ comment", "{", brace_line))
            in_brace = False
            ln = brace_line
            while ln < len(lines) and not _semi_empty(lines[ln]):
                ln += 1
            continue
        line = lines[ln]
        ln += 1
        i, n = 0, len(line)
        if in_brace:
            j = line.find("}")
            if j < 0:
                brace_text.append(line)
                continue
            brace_text.append(line[:j])
            toks.append(_Tok("comment", "\n".join(brace_text).strip(), "", brace_line))
            in_brace = False
            i = j + 1
        elif line.startswith("%"):
            continue
        elif _semi_empty(line):
            if toks:
                games.append(toks)
                toks = []
            continue
        while i < n:
            ch = line[i]
            if ch in _SPACE:
                i += 1
            elif ch == ";":
                break
            elif ch == "{":
                j = line.find("}", i + 1)
                if j < 0:
                    in_brace, brace_line = True, ln
                    brace_text = [line[i + 1:]]
                    break
                toks.append(_Tok("comment", line[i + 1:j].strip(), "", ln, i))
                i = j + 1
            elif ch in "[]":
                toks.append(_Tok(ch, ch, ch, ln, i))
                i += 1
            elif ch == '"':
                j, buf = i + 1, []
                while j < n and line[j] != '"':
                    if line[j] == "\\" and j + 1 < n and line[j + 1] in '"\\':
                        j += 1
                    buf.append(line[j])
                    j += 1
                if j >= n:
                    toks.append(_Tok("err", f"line {ln}: unterminated string {line[i:].strip()!r}",
                                     line[i:], ln))
                    break
                toks.append(_Tok("str", "".join(buf), line[i:j + 1], ln, i))
                i = j + 1
            else:
                j = i + 1 if ch == "}" else i
                while j < n and line[j] not in _WORD_STOP:
                    j += 1
                toks.append(_Tok("word", line[i:j], line[i:j], ln, i))
                i = j
    if toks:
        games.append(toks)
    return games


def _parse_game(toks: list[_Tok]) -> list[_Game]:
    """Tag pairs and section data of one scanned game (or more, when a game
    lacks its empty line; see the module docstring)."""
    game = _Game()
    games = [game]
    current: Optional[str] = None  # the tag whose section collects data
    ignoring = False               # data after an ignored duplicate tag
    outside_reported = False
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "err":
            game.errors.append(tok.text)
            i += 1
        elif tok.kind == "comment":
            if tok.text:
                game.comments.append(tok.text)
            i += 1
        elif tok.kind == "[":
            parts = toks[i + 1:i + 4]
            kinds = [t.kind for t in parts]
            if (kinds == ["word", "str", "]"] and _TAG_NAME_RE.fullmatch(parts[0].text)):
                name, value = parts[0].text, parts[1].text
                i += 4
                if (name in ("Event", "Board", "Deal") and name in game.tags
                        and "Deal" in game.tags):
                    game = _Game()
                    games.append(game)
                    current, ignoring, outside_reported = None, False, False
                if name == "Note":
                    game.notes.append(value)
                elif name in game.tags:
                    ignoring, current = True, None
                else:
                    game.tags[name] = value
                    ignoring, current = False, name
            else:
                if "err" not in kinds:  # an unterminated string says it already
                    got = " ".join(t.raw for t in toks[i:i + 4] if t.kind != "err")
                    game.errors.append(
                        f"line {tok.line}: bad tag {got!r} (expected [Name \"value\"])")
                # Skip to the end of the broken tag.
                i += 1
                while i < len(toks) and toks[i].kind not in ("[", "]"):
                    if toks[i].kind == "err":
                        game.errors.append(toks[i].text)
                    i += 1
                if i < len(toks) and toks[i].kind == "]":
                    i += 1
                current, ignoring = None, True
        elif tok.kind == "]":
            game.errors.append(f"line {tok.line}: unexpected ']'")
            i += 1
        else:
            if current is not None:
                game.sections.setdefault(current, []).append((tok.line, tok.col, tok.raw))
            elif not ignoring and not outside_reported:
                game.errors.append(f"line {tok.line}: text outside a tag: {tok.raw!r}")
                outside_reported = True
            i += 1
    return games


def _section_lines(items: list[tuple[int, int, str]]) -> list[str]:
    """Section tokens back into their source lines, keeping the columns
    (table alignment) but not the indentation; comments become spaces."""
    lines: list[str] = []
    last = start = None
    for line, col, raw in items:
        if line == last:
            pad = max(1, col - start - len(lines[-1]))
            lines[-1] += " " * pad + raw
        else:
            lines.append(raw)
            last, start = line, col
    return lines


def read_pbn(text: str, filename: str = "<string>") -> list[Board]:
    """All boards of a PBN text.  Bad boards come back with ``errors``;
    only a text that is not PBN at all (binary data, no tag anywhere) raises
    :class:`WhistError`."""
    if "\x00" in text:
        raise WhistError(f"{filename}: not a PBN text file (binary data)")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    last: dict[str, str] = {}      # tag -> value in the nearest previous game
    defaults: dict[str, str] = {}  # tag -> value set by "##" for later games
    boards: list[Board] = []
    any_tag = False
    for toks in _scan(text):
        for game in _parse_game(toks):
            any_tag = any_tag or bool(game.tags or game.notes)
            if not game.tags and not game.errors:
                continue  # comments only
            tags: dict[str, str] = {}
            header = False
            for name, raw in game.tags.items():
                if raw == "#":
                    value = last.get(name, "")
                elif raw.startswith("##"):
                    value = raw[2:]
                    defaults[name] = value
                    header = True
                else:
                    value = raw
                    if name in defaults:  # a ## value redefined mid-file
                        defaults[name] = value
                tags[name] = value
            for name, value in defaults.items():
                tags.setdefault(name, value)
            last.update(tags)
            if header and "Deal" not in tags and not game.errors:
                continue  # a file header game: ## defaults only, no deal
            sections = {name: _section_lines(items) for name, items in game.sections.items()}
            boards.append(Board(filename, len(boards) + 1, tags, sections,
                                list(game.errors), list(game.notes), list(game.comments)))
    if boards and not any_tag:
        raise WhistError(f"{filename}: not a PBN file (no tag found; {boards[0].errors[0]})")
    return boards


def decode_pbn(data: bytes, filename: str) -> str:
    """The text of a PBN file: UTF-8 (with or without BOM), each line that
    is not valid UTF-8 read as ISO-8859-1 (PBN's official character set).
    Binary data raises :class:`WhistError` naming the file."""
    if b"\x00" in data:
        raise WhistError(f"{filename}: not a PBN text file (binary data)")
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if controls and controls * 100 >= len(data):
        raise WhistError(f"{filename}: not a PBN text file (binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    out = []
    for line in data.splitlines(keepends=True):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(line.decode("latin-1"))
    return "".join(out).lstrip("\ufeff")


def read_pbn_file(path: str) -> list[Board]:
    """Read a PBN file (``-`` reads standard input, named ``<stdin>``)."""
    if path == "-":
        name = "<stdin>"
        data = sys.stdin.buffer.read()
    else:
        name = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise WhistError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise WhistError(f"{path}: is a directory, not a PBN file") from None
        except PermissionError:
            raise WhistError(f"{path}: permission denied") from None
        except OSError as e:
            raise WhistError(f"{path}: cannot read the file ({e.strerror or e})") from None
    return read_pbn(decode_pbn(data, name), name)


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _quote(value: str) -> str:
    """A PBN string token.  ``"`` is escaped; a backslash is doubled only
    where a reader would otherwise take it for an escape (before ``"`` or
    ``\\``, or at the end), so values such as ``Denomination\\2R`` are
    written as every PBN program writes them and read back unchanged."""
    out = []
    value = str(value)
    for i, ch in enumerate(value):
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            nxt = value[i + 1] if i + 1 < len(value) else ""
            out.append("\\\\" if nxt in ('"', "\\", "") else "\\")
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_tag(name: str, value: str) -> str:
    if not _TAG_NAME_RE.fullmatch(name):
        raise ValueError(f"bad PBN tag name {name!r}")
    return f"[{name} {_quote(value)}]"


def write_board(tags: Mapping[str, str], sections: Optional[Mapping[str, Sequence[str]]] = None) -> str:
    """PBN text of one game (ending with a newline): the mandatory tags in
    the standard's order, the other tags without a section alphabetically,
    Auction and Play with their sections, then the other tags with a
    section (tables) alphabetically."""
    sections = sections or {}
    for name in sections:
        if sections[name] and name not in tags:
            raise ValueError(f"section {name!r} has no tag")
    special = ("Auction", "Play")
    others = [n for n in tags if n not in MANDATORY_TAGS and n not in special]
    order = ([n for n in MANDATORY_TAGS if n in tags]
             + sorted(n for n in others if not sections.get(n))
             + [n for n in special if n in tags]
             + sorted(n for n in others if sections.get(n)))
    lines = []
    for name in order:
        lines.append(format_tag(name, tags[name]))
        lines.extend(str(line) for line in sections.get(name, ()))
    return "\n".join(lines) + "\n"


def write_pbn(boards: Iterable) -> str:
    """A PBN file: a ``% PBN 2.1`` / ``% EXPORT`` header, then the games
    separated by empty lines.  Each item is ``(tags, sections)``, a tags
    dict, or a :class:`Board`."""
    games = []
    for item in boards:
        if isinstance(item, Board):
            tags, sections = item.tags, item.sections
        elif isinstance(item, Mapping):
            tags, sections = item, {}
        else:
            tags, sections = item
        games.append(write_board(tags, sections))
    return "% PBN 2.1\n% EXPORT\n" + "\n".join(games)


def optimum_result_table(table: Mapping, total: int = 13) -> tuple[str, list[str]]:
    """PBN ``OptimumResultTable`` of a double-dummy table.

    ``table`` is ``{strain: {ranking: {seat: ns_tricks}}}`` as the ``table``
    command computes it: strain 'S' 'H' 'D' 'C' 'NT', ranking 'up'/'down',
    seat ('N'..'W' or 0..3) the seat that leads to the first trick, and the
    tricks N-S take.  ``total`` is the number of tricks of the deal (13;
    12 in bid whist).

    The PBN table is bridge-style: one row per declarer (N, S, E, W) and
    strain (NT, S, H, D, C), the declarer being the seat to the right of the
    leader, and the tricks of the declarer's side::

        [OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
        N NT  7
        N  S  9

    When the table holds downtown values, a Ranking column (``up``/``down``,
    width 4, left aligned) comes before Result and each declarer/strain has
    a row per ranking::

        [OptimumResultTable "Declarer;Denomination\\2R;Ranking\\4L;Result\\2R"]
        N NT up    7
        N NT down  5

    Returns the tag value and the section lines."""
    rankings_used = {r for per_strain in table.values() for r in per_strain}
    with_ranking = any(r != "up" for r in rankings_used)
    if with_ranking:
        value = "Declarer;Denomination\\2R;Ranking\\4L;Result\\2R"
    else:
        value = "Declarer;Denomination\\2R;Result\\2R"
    norm = {("NT" if s in ("N", "NT") else s): v for s, v in table.items()}
    lines = []
    for declarer in (0, 2, 1, 3):
        leader = (declarer + 1) % 4
        for strain in ("NT", "S", "H", "D", "C"):
            per_ranking = norm.get(strain)
            if not per_ranking:
                continue
            for ranking in ("up", "down"):
                seats = per_ranking.get(ranking)
                if not seats:
                    continue
                ns = seats.get(SEATS[leader], seats.get(leader))
                if ns is None:
                    continue
                result = ns if declarer % 2 == 0 else total - ns
                if with_ranking:
                    lines.append(f"{SEATS[declarer]} {strain:>2} {ranking:<4} {result:>2}")
                else:
                    lines.append(f"{SEATS[declarer]} {strain:>2} {result:>2}")
    return value, lines
