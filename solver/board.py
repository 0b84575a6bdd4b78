"""A board of a PBN file as the rules read it: what its tags mean.

:class:`Board` holds a game's tags and sections as the reader found them
(:mod:`whist_solve.pbn` is the syntax) and interprets them (SPEC §2): the
Deal and the Kitty, the trump, the ranking and the leader with their
defaults (Trump, else the Contract; Ranking, else the Contract's direction,
else up; Leader, else the Play tag, else the Bidder in bid whist, else the
Declarer's or the Dealer's left), the Goal, and the position after the
cards of the Play section, replayed trick by trick.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence, TypeVar, Union

from .cards import (Position, duplicates, format_hand, full_deck, hand_sizes, is_joker,
                    parse_card, parse_hand, sort_cards, trick_winner_offset)
from .errors import CardError, PositionError, WhistError
from .par import parse_vulnerable
from .vocab import (BOOKS_FOR_LEVEL, SEATS, Contract, parse_contract, parse_ranking, parse_seat,
                    parse_strain, trump_of)

__all__ = ["Board", "format_deal", "UnknownHands", "PartialDeal"]

# Tags whose values stand for "unknown / not applicable" in real files.
_UNKNOWN_VALUES = ("", "?")
# The most characters of a board's label that a message shows (see Board.named).
MAX_LABEL = 60

_T = TypeVar("_T")


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------

def format_deal(hands: Sequence[Optional[Iterable[str]]], first: Union[int, str] = 0) -> str:
    """PBN Deal value ``"N:AK3.QJ9..T2.HL ..."``: ``hands`` are N, E, S, W
    (None for an unknown hand, written ``-``); the string starts with seat
    ``first`` and goes clockwise."""
    first = parse_seat(first)
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
    dup = duplicates(cards)
    if dup:
        raise CardError(f"card {dup[0]} appears twice in {text!r}")
    return cards


# Bid whist's deal (SPEC section 1): 12 cards a hand and a kitty of 6, of
# the 54-card deck.
BID_HAND = 12
BID_KITTY = 6


def undealt_kitty(hands: Sequence[Sequence[str]]) -> list[str]:
    """The kitty of a whole bid whist deal given without one: with four
    hands of BID_HAND cards, the BID_KITTY cards of the 54-card deck they do
    not hold; else [] (a reduced deal's kitty cannot be told)."""
    if len(hands) != 4 or any(len(h) != BID_HAND for h in hands):
        return []
    held = {c for h in hands for c in h}
    return [c for c in full_deck(True) if c not in held]


class UnknownHands(WhistError):
    """The Deal leaves some hands unknown (``-``): only ``simulate`` reads
    such a board.  ``known`` holds the four hands, None for an unknown one."""

    def __init__(self, message: str, known: list):
        super().__init__(message)
        self.known = known


def unknown_hands_message(unknown: Sequence[int]) -> str:
    if len(unknown) == 1:
        return f"{SEATS[unknown[0]]}'s hand is not known ('-' in the Deal): use simulate"
    names = ", ".join(SEATS[s] for s in unknown[:-1]) + f" and {SEATS[unknown[-1]]}"
    return f"the hands of {names} are not known ('-' in the Deal): use simulate"


def _check_known(hands: Sequence[Optional[list[str]]], kitty: Sequence[str]) -> None:
    """Duplicates and unequal sizes among the known hands (and the kitty)."""
    known = [(s, h) for s, h in enumerate(hands) if h is not None]
    sizes = {len(h) for _s, h in known}
    if len(sizes) > 1:
        raise WhistError(f"unequal hands ({hand_sizes(hands)})")
    size = sizes.pop() if sizes else 0
    if size > 13:
        raise WhistError(f"hands of {size} cards (at most 13)")
    seen: dict = {}
    for s, h in known:
        for c in h:
            if c in seen:
                raise WhistError(f"duplicate card {c} (held by {SEATS[seen[c]]} and {SEATS[s]})"
                                 if seen[c] != s else f"duplicate card {c} in {SEATS[s]}'s hand")
            seen[c] = s
    for c in kitty:
        if c in seen:
            raise WhistError(f"duplicate card {c} (in the kitty and held by {SEATS[seen[c]]})")


def _parse_deal(text: str, kitty: Sequence[str]) -> list[list[str]]:
    """The four hands (N, E, S, W) of a Deal tag value, validated.

    A hand given as ``-`` (unknown) is deduced when it is the only one and
    all other cards are accounted for: the three known hands (and the
    kitty) leave exactly a hand's worth of a 52- or 54-card deck.  Other
    unknown hands raise :class:`UnknownHands` (after the known hands are
    checked), which carries them for ``simulate``."""
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
            _check_known(hands, kitty)
            if not any(known):
                raise WhistError("the Deal has no known cards")
            raise UnknownHands(unknown_hands_message(unknown),
                               [None if h is None else sort_cards(h) for h in hands])
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


@dataclass(frozen=True)
class PartialDeal:
    """What a board tells a simulation (SPEC §2, partial knowledge):
    ``known``: the four hands N E S W, None for an unknown one; ``unseen``:
    the cards dealt at random to the unknown hands and the kitty (None: the
    rest of the game's deck); ``kitty``: the kitty's size in bid whist
    (None: whatever the unknown hands do not get); ``jokers``: the game's
    deck has the jokers; ``trump_card``/``dealer``: classic whist's
    turned-up card, in the dealer's hand; ``constraints``: the Constraint
    tag (a list of texts, and-ed)."""

    known: tuple
    unseen: Optional[tuple]
    kitty: Optional[int]
    jokers: bool
    trump_card: Optional[str] = None
    dealer: Optional[int] = None
    constraints: tuple = ()

    @property
    def unknown_seats(self) -> tuple:
        return tuple(s for s in range(4) if self.known[s] is None)

    @property
    def hand_size(self) -> int:
        return next(len(h) for h in self.known if h is not None)


# ---------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------

# Play section tokens (PBN 2.1 §3.2, §3.6): irregularities ^R/^L, note
# references =1=, NAGs $12, suffixes ! ? !! ?? !? ?!, the end marker *, the
# continuation marker +, and cards (a dash for "no card").
# (a card may be written with its suit's symbol, as web pages copy it: ♣6)
_PLAY_TOKEN_RE = re.compile(r"\^.|=\d*=|\$\d*|[!?]+|\*|\+|-|[\u2660-\u2667][A-Za-z0-9]+"
                            r"|[A-Za-z0-9]+|\S")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


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
    more_constraints: list = field(default_factory=list)   # the Constraint tags after the first (all apply)
    note_places: list = field(default_factory=list)   # per Note, the tag whose section it follows (or None)
    comment_places: list = field(default_factory=list)   # per comment, the tag it follows (or None)
    comment_semis: list = field(default_factory=list)    # per comment, a ';' one (to the line's end)

    # Set by read_pbn on the boards they concern only (class defaults
    # here: an attribute on every board of a big file costs memory):
    # another board of the file has the same label (messages then add the
    # board's place in the file); the escape lines that open the board's
    # file; the text of a game the reader could not take in whole; the
    # text of the header games (## defaults, no deal) just before it.
    label_shared = False
    escapes = ()        # (not annotated: no dataclass fields)
    raw = None
    headers = ()

    @property
    def brace_comments(self) -> list:
        """The text of the board's ``{...}`` comments (a ``;`` comment, to
        the line's end, is a note a program or a composer keeps)."""
        semis = self.comment_semis
        return [c for i, c in enumerate(self.comments) if not (i < len(semis) and semis[i])]

    def __post_init__(self) -> None:
        self._hands: Optional[list[list[str]]] = None
        self._known: Optional[list] = None      # hands, None when not known ('-')
        self.unknown_error: Optional[str] = None
        self._kitty: list[str] = []
        kitty = self.tag("Kitty", "Undealt")
        if kitty is not None:
            try:
                self._kitty = sort_cards(_parse_card_list(kitty))
            except WhistError as e:
                self.errors.append(f"bad Kitty: {e}")
            undealt = self.tag("Undealt")
            if self.tag("Kitty") is not None and undealt is not None and not self.errors:
                try:
                    other = sort_cards(_parse_card_list(undealt))
                except WhistError as e:
                    self.errors.append(f"bad Undealt: {e}")
                else:
                    if other != self._kitty:
                        self.errors.append(f"the Kitty ({kitty}) and Undealt ({undealt}) "
                                           "tags name different cards")
        deal = self.tag("Deal")
        if deal is None:
            blank = self._blank_tag("Deal")
            self.errors.append("no Deal tag" if blank is None else
                               f"the Deal tag is {blank}: no cards to play")
            return
        try:
            self._hands = _parse_deal(deal, self._kitty)
            self._known = self._hands   # (the same lists: neither is changed, readers copy)
        except UnknownHands as e:
            # Reported like any reading error by the commands that need
            # every hand; simulate reads the known ones.
            self._known = e.known
            self.unknown_error = str(e)
            self.errors.append(str(e))
        except WhistError as e:
            self.errors.append(str(e))

    # -- tag access ---------------------------------------------------------

    def tag(self, *names: str) -> Optional[str]:
        """The stripped value of the first of ``names`` present with a real
        value ("" and "?" mean unknown).  Exact tag names first, then any
        case (``[trump "S"]``)."""
        for name in names:
            value = self._raw_tag(name)
            if value is not None and value.strip() not in _UNKNOWN_VALUES:
                return value.strip()
        return None

    def _raw_tag(self, name: str) -> Optional[str]:
        """The value of the tag ``name`` as written (exact name first, then
        any case), None when it is absent."""
        value = self.tags.get(name)
        if value is None:
            low = name.lower()
            value = next((v for k, v in self.tags.items() if k.lower() == low), None)
        return value

    def _blank_tag(self, name: str) -> Optional[str]:
        """How the tag ``name`` is written when it is there with no real
        value (tag() takes it for absent): 'empty ("")' or 'unknown ("?")';
        None when it is absent or has a value."""
        value = self._raw_tag(name)
        if value is None or value.strip() not in _UNKNOWN_VALUES:
            return None
        return 'unknown ("?")' if value.strip() == "?" else 'empty ("")'

    def _err(self, message: str) -> WhistError:
        return WhistError(f"{self.named}: {message}")

    def _parsed_tag(self, name: str, parse: Callable[[str], _T]) -> Optional[_T]:
        """The tag ``name`` read by ``parse``, or None when absent; a value
        ``parse`` refuses is a "bad <name> tag" error on this board."""
        value = self.tag(name)
        if value is None:
            return None
        try:
            return parse(value)
        except WhistError as e:
            raise self._err(f"bad {name} tag: {e}") from None

    def _seat_tag(self, name: str) -> Optional[int]:
        # "^S": declarer/dummy swapped
        return self._parsed_tag(name, lambda value: parse_seat(value.lstrip("^")))

    @property
    def label(self) -> str:
        """The Board tag if present, else the position in the file."""
        value = self.tag("Board")       # any case, like the other tags
        return value if value is not None else str(self.index)

    @property
    def named(self) -> str:
        """``board LABEL`` as messages name the board: a label of more than
        MAX_LABEL characters cut with an ellipsis (the JSON output keeps
        it whole); ``board LABEL (Nth in the file)`` when other boards of
        the file have the same label."""
        label = self.label
        if len(label) > MAX_LABEL:
            label = label[:MAX_LABEL] + "\u2026"
        return f"board {label}{self.place}"

    @property
    def place(self) -> str:
        """`` (3rd in the file)`` when other boards of the file have the same
        label (a team event's file repeats each board, one per room), else
        empty: what messages and titles add to the label."""
        return f" ({ordinal(self.index)} in the file)" if self.label_shared else ""

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
        """The Bidder tag, else in bid whist the Declarer tag (the bidder
        declares)."""
        self._bidder_declares()
        seat = self._seat_tag("Bidder")
        if seat is None and self.game() == "bid":
            seat = self._seat_tag("Declarer")
        return seat

    def _bidder_declares(self) -> None:
        """In bid whist the bidder is the declarer: a Declarer tag that
        names another seat contradicts the Bidder tag."""
        b, d = self._seat_tag("Bidder"), self._seat_tag("Declarer")
        if b is not None and d is not None and b != d and self.game() == "bid":
            raise self._err(f"the Bidder ({SEATS[b]}) and the Declarer ({SEATS[d]}) differ "
                            "(in bid whist the bidder declares)")

    def bidder_seat(self, override: Optional[str] = None) -> int:
        """The bid whist bidder: ``override`` (a seat letter), else the
        Bidder tag."""
        if override is not None:
            return SEATS.index(override)
        b = self.bidder()
        if b is None:
            raise WhistError("no bidder (give --bidder or a Bidder tag)")
        return b

    def exchange_warnings(self) -> list[str]:
        """What to say of a bid whist deal that the exchange plays as it is
        but that is most likely not what was meant (nothing when the deal
        cannot be read: its error is said elsewhere):

        - one card short of a whole deck (53 cards with the jokers, 51
          without): a reduced deal as SPEC allows, but most likely a card
          left out of the Kitty tag;
        - hands too short for any bid: with n cards a hand the bidding
          side takes at most n + 1 books (the discard's included), and the
          lowest bid needs 7."""
        try:
            hands, kitty = self.exchange_deal()
        except WhistError:
            return []
        said = []
        n = len(hands[0])
        cards = sum(len(h) for h in hands) + len(kitty)
        deck = 54 if any(is_joker(c) for h in (*hands, kitty) for c in h) else 52
        if cards == deck - 1:
            said.append(f"{cards} cards, one short of a {deck}-card deck (a card left out of the "
                        f"kitty?): played as a reduced deal, the bidder keeping {n} of "
                        f"{n + len(kitty)}")
        most = n + 1
        if most < 1 + BOOKS_FOR_LEVEL:
            said.append(f"hands of {n} card{'s' if n != 1 else ''}: the bidding side takes at most "
                        f"{most} books, and the lowest bid needs {1 + BOOKS_FOR_LEVEL}: no bid "
                        f"can be made")
        return said

    def exchange_deal(self) -> tuple[list[list[str]], list[str]]:
        """The hands before the bid whist exchange, and the kitty."""
        self.check()
        hands = self.hands
        if not hands:
            raise WhistError("no deal (missing Deal tag)")
        kitty = self.kitty
        if not kitty:
            if self.tag("Kitty", "Undealt") is not None:
                raise WhistError("the kitty is empty: no exchange to make (solve, puzzles "
                                 "and review play such a board as it is)")
            # (bid whist's by its jokers or its Variant: 12-card hands
            # without either may be a whist deal after its first trick)
            kitty = undealt_kitty(hands) if self.game() == "bid" else []
            if not kitty:
                undealt = (f"a bid whist deal of {BID_HAND} cards a hand, with jokers dealt or "
                           f"a Variant \"bid\" tag, has the {BID_KITTY} cards not dealt")
                for name in ("Kitty", "Undealt"):
                    blank = self._blank_tag(name)
                    if blank is not None:
                        raise WhistError(f"the {name} tag is {blank}: give the kitty's cards "
                                         f"({undealt})")
                raise WhistError(f"no kitty (give a Kitty or Undealt tag; {undealt})")
        if self.game() != "bid":
            raise self._err(f"the Variant is {self.tag('Variant')!r}: the exchange of the "
                            "kitty is bid whist's")
        # (a Bidder and a Declarer that differ are refused where the bidder
        # is asked for, bidder(): not when --bidder names it)
        return hands, kitty

    # -- partial knowledge (simulate) ----------------------------------------

    def known_hands(self) -> list:
        """The four hands N E S W, None for a hand not known (``-``); raises
        the board's other reading errors."""
        others = [e for e in self.errors if e != self.unknown_error]
        if others:
            raise self._err("; ".join(others))
        if self._known is None:
            raise self._err("no deal (missing Deal tag)")
        return [None if h is None else list(h) for h in self._known]

    def known_deal_string(self) -> str:
        """The Deal in canonical form, ``N:`` first, ``-`` for an unknown hand."""
        return format_deal(self.known_hands(), 0)

    def unseen(self) -> Optional[list[str]]:
        """The Unseen tag's cards (a hand ``S.H.D.C[.J]`` or card names), or
        None."""
        return self._parsed_tag("Unseen", _parse_card_list)

    def constraint_tags(self) -> list[str]:
        """The expressions of the Constraint tags, in file order ([] when
        there is none): every one applies.  Parsed by the simulation."""
        value = self.tag("Constraint")
        return ([] if value is None else [value]) + list(self.more_constraints)

    def trump_card(self) -> Optional[str]:
        """Classic whist's turned-up card (the TrumpCard tag), checked: a
        Dealer is given, no other known hand holds it, the dealer's known
        hand does, and a Trump tag (if any) names its suit."""
        card = self._parsed_tag("TrumpCard", parse_card)
        if card is None:
            return None
        if is_joker(card):
            raise self._err(f"bad TrumpCard tag: a joker ({card}) cannot be the turned-up trump")
        dealer = self.dealer()
        if dealer is None:
            raise self._err(f"the TrumpCard {card} needs a Dealer tag (it stays in the dealer's hand)")
        known = self._known or [None] * 4
        for seat, h in enumerate(known):
            if h is not None and card in h and seat != dealer:
                raise self._err(f"the TrumpCard {card} is in {SEATS[seat]}'s hand, but the "
                                f"turned-up card stays in the dealer's ({SEATS[dealer]})")
        if known[dealer] is not None and card not in known[dealer]:
            raise self._err(f"the TrumpCard {card} is not in the dealer's ({SEATS[dealer]}) hand")
        strain = self._trump_tag()
        if strain is not None and strain != card[0]:
            raise self._err(f"the TrumpCard {card} makes {card[0]} trumps, "
                            f"but the Trump tag says {strain}")
        return card

    def _trump_tag(self) -> Optional[str]:
        """The Trump tag's strain ('S', 'H', 'D', 'C' or 'NT'), None
        without the tag."""
        return self._parsed_tag("Trump", parse_strain)

    def partial_deal(self) -> PartialDeal:
        """What the board tells a simulation (see :class:`PartialDeal`).
        Errors name the board: a bad Unseen or TrumpCard tag, a Kitty with
        unknown hands (the kitty is dealt at random then), too few unseen
        cards."""
        known = self.known_hands()
        unknown = [s for s in range(4) if known[s] is None]
        jokers = self.game() == "bid"
        unseen = self.unseen()
        kitty_tag = self.kitty
        if kitty_tag and unknown:
            raise self._err("a Kitty tag with unknown hands: the kitty is dealt at random "
                            "(list the cards dealt at random in an Unseen tag instead)")
        if unseen is None and not unknown and kitty_tag:
            unseen = list(kitty_tag)
        n = next(len(h) for h in known if h is not None)
        held = {c for h in known if h is not None for c in h}
        if unseen is not None:
            for c in unseen:
                if c in held:
                    owner = next(SEATS[s] for s, h in enumerate(known) if h is not None and c in h)
                    raise self._err(f"bad Unseen tag: {c} is also in {owner}'s hand")
            if not jokers and any(is_joker(c) for c in unseen):
                raise self._err("bad Unseen tag: a joker in a game without jokers")
            pool = len(unseen)
        else:
            pool = len([c for c in full_deck(jokers) if c not in held])
        need = n * len(unknown)
        if pool < need:
            raise self._err(f"too few unseen cards: the unknown hands need {need}, {pool} are unseen")
        kitty = pool - need if jokers else None
        tc = self.trump_card()
        return PartialDeal(known=tuple(None if h is None else tuple(h) for h in known),
                           unseen=None if unseen is None else tuple(unseen), kitty=kitty,
                           jokers=jokers, trump_card=tc, dealer=self.dealer() if tc else None,
                           constraints=tuple(self.constraint_tags()))

    def declarer(self) -> Optional[int]:
        self._bidder_declares()
        return self._seat_tag("Declarer")

    def declaring_seat(self) -> Optional[int]:
        """The seat whose side the contract is: the Declarer tag, else in
        bid whist the Bidder tag (the bidder declares), else the Leader
        tag or the Play tag's seat (the bidder leads)."""
        seat = self.declarer()
        if seat is None and self.game() == "bid":
            for name in ("Bidder", "Leader", "Play"):
                seat = self._seat_tag(name)
                if seat is not None:
                    break
        return seat

    def kitty_book(self) -> int:
        """Books the declaring side holds before the play: in bid whist,
        the bidder's discard (1) when there is a kitty (a Kitty tag; a
        Deal of 12-card hands, whose kitty the bidder has taken and
        discarded; or Unseen cards, given or by default in a partial deal,
        that the unknown hands leave over), else 0."""
        if self.game() != "bid":
            return 0
        if self.kitty:
            return 1
        sizes = {len(h) for h in (self._known or []) if h is not None}
        if sizes == {12}:
            return 1
        if self._known is not None and (any(h is None for h in self._known)
                                        or self.tag("Unseen") is not None):
            try:
                return 1 if self.partial_deal().kitty else 0
            except WhistError:
                return 0          # (a bad partial deal is reported where it is read)
        return 0

    def dealer(self) -> Optional[int]:
        return self._seat_tag("Dealer")

    def goal(self) -> Optional[tuple[str, int]]:
        """``[Goal "NS 5"]`` -> ('NS', 5); a single seat names its side."""
        value = self.tag("Goal")
        if value is None:
            return None
        m = re.fullmatch(r"(NS|EW|N-S|E-W|N/S|E/W|N|E|S|W)\s*[:=]?\s*(\d+)", value.upper())
        if not m:
            raise self._err(f"bad Goal tag {value!r} (expected e.g. \"NS 5\" or \"EW 3\")")
        side = m.group(1).replace("-", "").replace("/", "")
        if len(side) == 1:
            side = "NS" if side in "NS" else "EW"
        digits = m.group(2).lstrip("0")
        tricks = int(digits or "0") if len(digits) <= 2 else 99   # no 5000-digit int()
        if tricks > 13:
            raise self._err(f"bad Goal tag {value!r}: at most 13 tricks")
        return side, tricks

    def contract(self) -> Optional[Contract]:
        return self._parsed_tag("Contract", parse_contract)

    def vulnerability(self) -> Optional[tuple[bool, bool]]:
        """(N-S vulnerable, E-W vulnerable) from the Vulnerable tag (or
        its short form Vul), None without one; a value that is no
        vulnerability, or a Vul that says otherwise, raises."""
        value = self.tag("Vulnerable", "Vul")
        if value is None:
            return None
        vul = parse_vulnerable(value)
        short = self.tag("Vul")
        if short is not None and short != value and parse_vulnerable(short) != vul:
            raise self._err(f"the Vulnerable ({value}) and Vul ({short}) tags differ")
        return vul

    def passed_out(self) -> bool:
        """Whether the Contract is Pass (every player passed); a bad
        Contract tag raises, as contract() does."""
        c = self.contract()
        return c is not None and c.passed

    def game(self) -> str:
        """'classic' or 'bid': the Variant tag, else 'bid' when the deal, or
        the Unseen cards of a partial deal, have jokers, or there is a kitty."""
        value = self.tag("Variant")
        if value is not None:
            v = re.sub(r"[\s_-]+", "", value.lower())
            if v in ("classic", "whist", "classicwhist", "rotating", "rotatingnt",
                     "rotatingtrump", "rotatingtrumps"):   # (the rotating-trump variant is classic whist)
                if any(is_joker(c) for h in (self._hands or []) for c in h):
                    raise self._err(f"the deal has jokers but the Variant is {value!r} "
                                    "(jokers are for bid whist)")
                return "classic"
            if v in ("bid", "bidwhist"):
                return "bid"
            raise self._err(f"bad Variant tag {value!r} (expected classic, rotating or bid)")
        jokers = any(is_joker(c) for h in (self._known or []) if h is not None for c in h)
        if not jokers and self.tag("Unseen") is not None:
            try:
                jokers = any(is_joker(c) for c in self.unseen() or ())
            except WhistError:
                pass               # (a bad Unseen tag is reported where it is read)
        return "bid" if jokers or self._kitty else "classic"

    def trump(self, override: Optional[str] = None) -> Optional[str]:
        """'S', 'H', 'D', 'C', or None for no-trump: ``override`` (e.g. a
        command-line option, 'NT' for no-trump), else the Trump tag, else
        the Contract's strain."""
        if override is not None:
            strain = parse_strain(override)
        else:
            strain = self._trump_tag()
            if strain is None:
                contract = self.contract()
                if contract is None and self.tag("TrumpCard") is not None:
                    return self.trump_card()[0]
                if contract is None:
                    raw = self.tags.get("Contract")
                    if raw is not None:      # PBN's "?" (unknown) or "" (none)
                        raise self._err(f"missing trump: no Trump tag, and the Contract is "
                                        f"{'unknown' if raw.strip() == '?' else 'empty'} "
                                        f"({raw.strip()!r}); give --trump")
                    raise self._err("missing trump: no Trump tag or Contract")
                if contract.passed:
                    raise self._err("missing trump: the board was passed out (Contract "
                                    "\"Pass\") and has no Trump tag; give --trump")
                strain = contract.strain
        return None if strain == "NT" else strain

    def ranking(self, override: Optional[str] = None) -> str:
        """'up' or 'down': ``override``, else the Ranking tag, else the
        Contract's direction, else 'up'."""
        if override is not None:
            return parse_ranking(override)
        value = self.tag("Ranking")
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
        else, in bid whist, the Bidder (or the Declarer), else the
        Declarer's left-hand opponent, else the Dealer's left."""
        if override is not None:
            return parse_seat(override)
        for name in ("Leader", "Play"):
            seat = self._seat_tag(name)
            if seat is not None:
                return seat
        if self.game() == "bid":
            seat = self.declaring_seat()     # the bidder leads
            if seat is not None:
                return seat
        for name in ("Declarer", "Dealer"):
            seat = self._seat_tag(name)
            if seat is not None:
                return (seat + 1) % 4
        # (a tag there with no seat, '?' or '', is said as it is)
        unknown = [f"{name} {self.tags[name].strip()!r}"
                   for name in ("Leader", "Play", "Declarer", "Dealer") if name in self.tags]
        raise self._err("missing leader: no Leader, Play, "
                        + ("Bidder, " if self.game() == "bid" else "")
                        + "Declarer or Dealer tag"
                        + (f" with a seat ({', '.join(unknown)})" if unknown else ""))

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

    def has_play(self) -> bool:
        """Does the Play section record a card (read without the trump or
        the ranking, which only order its cards)?"""
        return any(c != "-" for c in self._play_columns())

    def play_cards(self, trump: Optional[str], ranking: str,
                   leader: Optional[int] = None) -> list[str]:
        """The Play section's cards in play order.

        PBN lists each trick as one group of 4 cards in *seat* order,
        starting with the Play tag's seat (the opening leader), whatever
        seat led the trick; the leader of every later trick is the winner of
        the previous one, which depends on ``trump`` ('S'..'C', or None/'NT'
        for no-trump) and ``ranking``.  The play ends at the first card not
        given (``-``, ``+``): a partly played last trick is normal.
        ``leader``: the seat the cards are to be played from (the start
        position's); a Play tag naming another seat is an error."""
        cols = self._play_columns()
        if not any(c != "-" for c in cols):
            return []
        trump = trump_of(trump)
        ranking = parse_ranking(ranking)
        seat0 = self._play_seat()
        if seat0 is None:
            seat0 = self.leader()
        elif leader is not None and seat0 != leader:
            said = "the Leader tag" if self._seat_tag("Leader") == leader else "as asked"
            raise self._err(f"the leader is {SEATS[leader]} ({said}) but the Play section "
                            f"starts with {SEATS[seat0]}")
        cols = cols + ["-"] * (-len(cols) % 4)
        order: list[str] = []
        leader = seat0
        # who holds each card of the deal, to name a card played by a seat
        # that does not hold it where it is played: a trick written one card
        # short shifts every card after it, and the trick where that first
        # shows is the one to name (not a gap at the section's end)
        holder = {c: s for s in range(4) for c in self._hands[s]} if self._hands else {}
        tricks = len(self._hands[seat0]) if self._hands else None
        gone: set = set()
        for start in range(0, len(cols), 4):
            group = cols[start:start + 4]
            trick_no = start // 4 + 1
            seats = [(leader + k) % 4 for k in range(4)]
            played = [group[(s - seat0) % 4] for s in seats]
            if tricks is not None and trick_no > tricks:
                extra = next((c for c in cols[start:] if c != "-"), None)
                if extra is None:
                    break           # (rows of '-' after the last trick)
                raise self._err(f"the Play section goes on ({extra}) after the last trick "
                                f"({tricks})")
            j = played.index("-") if "-" in played else 4       # the first card not given
            later = [(seats[k], c) for k, c in enumerate(played) if k > j and c != "-"]
            if later:
                seat, card = later[0]
                raise self._err(
                    f"trick {trick_no} of the Play section: {SEATS[seats[j]]} has no card ('-') "
                    f"but {SEATS[seat]} played {card} after it (each line lists a trick's cards "
                    f"in seat order from the Play tag's seat {SEATS[seat0]}, the trick's leader "
                    f"being {SEATS[leader]})")
            for seat, card in zip(seats, played[:j]):
                if card not in holder:
                    continue
                if card in gone or holder[card] != seat:
                    where = ("nobody holds it (played already)" if card in gone
                             else f"it is held by {SEATS[holder[card]]}")
                    hint = (f" (each line of the Play section lists a trick's cards in seat "
                            f"order from the Play tag's seat {SEATS[seat0]}, whoever led it)"
                            if trick_no > 1 else "")
                    raise self._err(f"illegal play {card} in trick {trick_no}: {SEATS[seat]} "
                                    f"is on turn and {where}{hint}")
                gone.add(card)
            if j == 4:
                order.extend(played)
                leader = (leader + trick_winner_offset(played, trump, ranking)) % 4
                continue
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
        self.game()          # a bad Variant tag, or jokers in classic whist
        t = self.trump(trump)
        r = self.ranking(ranking)
        lead = self.leader(leader)
        try:
            return Position.make(self._hands, t, r, lead)
        except PositionError as e:
            raise self._err(str(e)) from None

    def position(self, trump: Optional[str] = None, ranking: Optional[str] = None,
                 leader: Union[int, str, None] = None, tricks: Optional[int] = None) -> Position:
        """The position after the cards of the Play section, with the tricks
        they won counted in ``ns_tricks``/``ew_tricks``.

        ``tricks`` stops the replay after that many complete tricks (0: the
        opening lead's position, the Play section ignored); asking for more
        tricks than the section records is an error."""
        pos = self.start_position(trump, ranking, leader)
        if tricks == 0:
            return pos
        try:
            return self._replay(pos, tricks)
        except WhistError as e:
            hint = self._override_hint(pos, trump, ranking, leader, tricks)
            if not hint:
                raise
            raise WhistError(f"{e}{hint}") from None

    def _override_hint(self, pos: Position, trump, ranking, leader, tricks) -> str:
        """When the Play section replays with the board's own trump, ranking
        and leader but not with those given: what the options changed."""
        given = []
        if trump is not None and pos.trump != self._own(self.trump):
            given.append(f"--trump {trump}")
        if ranking is not None and pos.ranking != self._own(self.ranking):
            given.append(f"--ranking {ranking}")
        if leader is not None and pos.leader != self._own(self.leader):
            given.append(f"--leader {leader}")
        if not given:
            return ""
        try:
            self._replay(self.start_position(), tricks)
        except WhistError:
            return ""
        return (f" (the Play section is right with the board's own trump, ranking and leader: "
                f"{', '.join(given)} changes who won or led its tricks)")

    def replayed_otherwise(self, trump: Optional[str] = None,
                           ranking: Optional[str] = None) -> list[str]:
        """The options (``--trump S``, ``--ranking down``) under which the
        Play section's cards are replayed otherwise than the board's own
        trump and ranking make them: a position the table never had.  []
        without a Play section, or when they agree."""
        if not self.has_play():
            return []
        given = []
        own = self._own(self.trump)          # ('?': the board names none)
        if trump is not None and own != "?" and trump_of(trump) != own:
            given.append(f"--trump {trump}")
        if ranking is not None and parse_ranking(ranking) != self._own(self.ranking):
            given.append(f"--ranking {ranking}")
        return given

    @staticmethod
    def _own(read):
        """``read()`` (the board's own trump, ranking or leader), or a value
        no position has when the board does not say."""
        try:
            return read()
        except WhistError:
            return "?"

    def _replay(self, pos: Position, tricks: Optional[int]) -> Position:
        """``pos`` (the deal before any play) after the Play section's cards,
        ``tricks`` complete tricks of them when not None."""
        cards = self.play_cards(pos.trump, pos.ranking, pos.leader)
        if tricks is not None:
            if tricks < 0:
                raise self._err(f"cannot stop after trick {tricks}")
            recorded = len(cards) // 4
            if tricks > recorded:
                if not self.has_play():
                    raise self._err(f"cannot stop after trick {tricks}: the board records no "
                                    "play (no cards in a Play section)")
                what = ("no complete trick" if recorded == 0 else
                        f"only {recorded} complete trick" + ("" if recorded == 1 else "s"))
                raise self._err(f"cannot stop after trick {tricks}: the Play section "
                                f"records {what}")
            cards = cards[:4 * tricks]
        for i, card in enumerate(cards):
            try:
                pos = pos.play(card)
            except PositionError as e:
                # "illegal play HK by E: must follow S" -> "... by E in trick 3: ..."
                msg = str(e).replace(": ", f" in trick {i // 4 + 1}: ", 1)
                if i >= 4 and "is on turn and" in msg:
                    # (a trick written in the order played, from its leader)
                    seat = self._play_seat()
                    msg += (f" (each line of the Play section lists a trick's cards in seat "
                            f"order from the Play tag's seat {SEATS[seat]}, whoever led it)"
                            if seat is not None else "")
                raise self._err(msg) from None
        return pos
