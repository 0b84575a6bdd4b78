"""Is a contract makeable on a deal without a kitty (bridge, classic
whist)?  Double-dummy from the opening lead: the declarer's left-hand
opponent leads, the contract's strain is trump and its direction the
ranking, and the declarer's side must take level + 6 of the 13 tricks.
Bid whist's own question, with the exchange of the kitty, is
:func:`whist_solve.bid.check_contract`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Tuple, Union

from .cards import Position
from .errors import WhistError
from .par import contract_score
from .vocab import (BOOKS_FOR_LEVEL, SEATS, Contract, is_bid, opening_leader, parse_contract,
                    parse_seat)

# A deal from its opening lead: 13 cards a hand.
DEAL_TRICKS = 13


@dataclass(frozen=True)
class ContractCheck:
    """The verdict: ``tricks`` the declarer's side takes with best play
    from the opening lead, ``need`` (level + 6), and one optimal play
    (``line``, every card from the opening lead)."""
    contract: Contract
    declarer: int
    tricks: int
    line: Tuple[str, ...]

    @property
    def need(self) -> int:
        return self.contract.level + BOOKS_FOR_LEVEL

    @property
    def makeable(self) -> bool:
        return self.tricks >= self.need

    @property
    def set_by(self) -> int:
        return max(0, self.need - self.tricks)

    @property
    def leader(self) -> int:
        return opening_leader(self.declarer)

    def score(self, vulnerable: Optional[bool]) -> Optional[int]:
        """The duplicate bridge score of the declarer's side for the tricks
        it takes (its doubling counted), or None when its vulnerability is
        not known or the contract is downtown."""
        if vulnerable is None or self.contract.ranking != "up":
            return None             # (bridge has no downtown contract to score)
        return contract_score(self.contract.level, self.contract.strain, self.contract.doubled,
                              vulnerable, self.tricks)


def check_deal_contract(hands: Sequence[Iterable[str]], contract: Union[Contract, str],
                        declarer: Union[int, str], solver=None) -> ContractCheck:
    """Is ``contract`` (a Contract, or text such as ``4SX``) makeable by
    ``declarer`` (a seat number or letter) on the deal ``hands`` (N, E, S,
    W, 13 cards each)?"""
    from .engine import Solver

    if isinstance(contract, str):
        contract = parse_contract(contract)
    if not isinstance(contract, Contract):
        raise WhistError(f"not a contract: {contract!r} (a Contract, or text such as '4S')")
    if contract.passed:
        raise WhistError("the board was passed out: no contract to check")
    if not is_bid(contract):
        raise WhistError(f"the contract {contract} needs a level 1 to 7")
    seat = parse_seat(declarer) if isinstance(declarer, str) else declarer
    if seat not in range(4):
        raise WhistError(f"not a seat: {declarer!r} (N, E, S or W)")
    hands = [list(h) for h in hands]
    if len(hands) != 4 or any(len(h) != DEAL_TRICKS for h in hands):
        sizes = ", ".join(f"{SEATS[i]} {len(h)}" for i, h in enumerate(hands))
        raise WhistError(f"a contract is checked from the opening lead, on hands of "
                         f"{DEAL_TRICKS} cards ({sizes}; an end position is puzzles' question)")
    pos = Position.make(hands, contract.trump, contract.ranking, opening_leader(seat))
    solver = solver if solver is not None else Solver()
    res = solver.solve(pos, cards=False, line=True)
    declarer_tricks = DEAL_TRICKS - int(res.tricks)   # (the defenders are on lead)
    return ContractCheck(contract=contract, declarer=seat, tricks=declarer_tricks,
                         line=tuple(res.line or ()))


__all__ = ["ContractCheck", "check_deal_contract"]
