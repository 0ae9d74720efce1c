"""What every part of the checker shares: the modules being checked, the symbol tables, the diagnostics and
how they are reported. `BodyChecker` (rule bodies) and `Checker` (definitions) both build on it, so neither
needs the other's module.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import ast
from .diagnostics import Diagnostic, Span, did_you_mean
from .scope import Symbols


class CheckerBase:
    """The checker's state and its reporting."""

    def __init__(self, modules: list[ast.Module]):
        self.modules = modules
        self.sym = Symbols()
        self.diags: list[Diagnostic] = []
        self._mode_options: dict[str, str] = {}
        self._value_types: dict[str, str | None] = {}
        self._asked: set[str] = set()  # card families some rule asks for (respond, use_card_on…)
        self._dynamic_ask = False  # some rule asks for a family computed at run time
        # id of a list literal -> the known type of each of its items (a choice's `costs:` and `befalls:` are
        # checked item by item)
        self._item_types: dict[int, list[str | None]] = {}
        self._reachability: list[tuple[ast.Ident, str]] = []  # (card named by view_as/provide, what)
        self._replacing: set[str] = set()  # names/ids of cards some mode's `replace … with` puts in the deck

    # ------------------------------------------------------------ reporting
    def error(self, code: str, message: str, span: Span, suggestion: str | None = None,
              notes: tuple[tuple[str, Span], ...] = ()) -> None:
        self.diags.append(Diagnostic(code, message, span, "error", suggestion, notes))

    def warn(self, code: str, message: str, span: Span, suggestion: str | None = None,
             notes: tuple[tuple[str, Span], ...] = ()) -> None:
        self.diags.append(Diagnostic(code, message, span, "warning", suggestion, notes))

    def unknown(self, code: str, what: str, name: str, span: Span, candidates: Iterable[str]) -> None:
        best = did_you_mean(name, candidates)
        self.error(code, f"unknown {what} '{name}'", span, f"did you mean '{best}'?" if best else None)

    def card_name(self, ident: ast.Ident, what: str) -> ast.CardDef | None:
        """A card family named by its display name (what the engine compares at run time)."""
        d = self.sym.cards.get(ident.text)
        if d is not None:
            return d
        by_id = self.sym.card_ids.get(ident.text)
        if by_id is not None:
            self.error("SGS-E202", f"'{ident.text}' is the id of card {by_id.name.text}; a {what} is named by the "
                       "card's name", ident.span, f"write {by_id.name.text}")
            return None
        self.unknown("SGS-E202", "card", ident.text, ident.span, self.sym.cards)
        return None
