"""The engine's shortcuts answer what the long way would: each is a claim about the registry, checked here."""

from __future__ import annotations

from helpers import ROOT, program
from sgsdsl.engine.dispatch import new_event
from sgsdsl.engine.events import Event
from sgsdsl.engine.model import Card, Player, UseRecord, VirtualCard
from sgsdsl.engine.registry import ENGINE_VALUES
from sgsdsl.engine.registry.arguments import _CHECKS, _PASSING


def test_unmodified_targetable_is_true() -> None:
    # CardUse.legal_target answers true without asking the value while nobody modifies it
    assert ENGINE_VALUES["targetable"].default(None, None, None, None) is True
    assert ENGINE_VALUES["targetable"].clamp is None


def test_types_passing_at_once_pass_the_full_test() -> None:
    prog = program(str(ROOT / "rules" / "standard.sgs"))
    card = Card(0, prog.cards["sha"], "♠", 1)
    general = prog.generals["caocao"]
    samples = {type(None): None, Player: Player(0), str: "text", Event: new_event("probe", {}),
               UseRecord: UseRecord(None, None, None, [], "play"), Card: card,
               VirtualCard: VirtualCard(prog.cards["sha"], (card,), "probe"), type(general): general,
               type(general.skills[0]): general.skills[0]}
    for declared, passing in _PASSING.items():
        test = _CHECKS[declared][0]
        for cls in passing:
            assert test(samples[cls]), (declared, cls)


def test_new_event_is_an_event_of_its_fields() -> None:
    fields = {"player": None, "amount": 2}
    ev = new_event("drawing", fields)
    assert type(ev) is Event and ev.name == "drawing" and ev.amount == 2 and ev.cancelled is False
    slow = Event("drawing", player=None, amount=2)
    assert vars(ev) == vars(slow)
