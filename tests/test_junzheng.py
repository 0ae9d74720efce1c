"""rules/junzheng.sgs: the 军争 deck is exactly the reference's, and the language forms it needs check."""

from __future__ import annotations

from collections import Counter

from helpers import JUNZHENG, program
from sgsdsl.lang.checker import check
from sgsdsl.lang.parser import parse_text

# ../shared/reference/cards-and-generals.md §2: the 52 军争 cards (13 per suit, one per suit×rank)
REFERENCE = {
    "雷杀": "♠4 ♠5 ♠6 ♠7 ♠8 ♣5 ♣6 ♣7 ♣8", "火杀": "♥4 ♥7 ♥10 ♦4 ♦5", "酒": "♠3 ♠9 ♣3 ♣9 ♦9",
    "闪": "♥8 ♥9 ♥J ♥Q ♦6 ♦7 ♦8 ♦10 ♦J", "桃": "♥5 ♥6 ♦2 ♦3", "铁索连环": "♠J ♠Q ♣10 ♣J ♣Q ♣K",
    "火攻": "♥2 ♥3 ♦Q", "兵粮寸断": "♠10 ♣4", "无懈可击": "♠K ♥A ♥K", "古锭刀": "♠A", "朱雀羽扇": "♦A",
    "藤甲": "♠2 ♣2", "白银狮子": "♣A", "骅骝": "♦K",
}
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _faces(text: str) -> list[tuple[str, int]]:
    return [(f[0], RANKS.get(f[1:]) or int(f[1:])) for f in text.split()]


def test_the_160_card_deck() -> None:
    jz = program(str(JUNZHENG))
    std = program(str(JUNZHENG.parent / "standard.sgs"))
    faces = Counter((c.name, s, r) for c in jz.cards.values() for s, r in c.copies)
    base = Counter((c.name, s, r) for c in std.cards.values() for s, r in c.copies)
    assert sum(faces.values()) == 160
    added = faces - base
    assert sum(added.values()) == 52
    assert added == Counter((name, s, r) for name, text in REFERENCE.items() for s, r in _faces(text))
    assert Counter(s for _, s, _ in added.elements()) == {"♠": 13, "♥": 13, "♣": 13, "♦": 13}
    by_family = Counter(c.family for c in jz.cards.values() for _ in c.copies)
    wanted = {"杀": 44, "闪": 24, "桃": 12, "无懈可击": 7, "酒": 5}
    assert {f: by_family[f] for f in wanted} == wanted
    assert {jz.cards["leisha"].nature, jz.cards["huosha"].nature} == {"thunder", "fire"}
    assert sorted(jz.rules) == ["chain_conduction", "jiu_bonus"]
    assert sorted(jz.modes) == ["identity"] and len(jz.generals) == 25


def _codes(text: str) -> list[str]:
    module, diags = parse_text(text, "t.sgs")
    assert module is not None, diags
    return [d.code for d in check([module]).diagnostics]


def test_top_level_copies_and_rules_are_checked() -> None:
    assert _codes("copies 闪x ♥8\n") == ["SGS-E202"]  # unknown card
    assert _codes("rule 规则 r { on damaged where owner == none { log(\"x\") } }\n") == ["SGS-E202"]  # no owner
    assert _codes("rule 规则 r { on damagd { log(\"x\") } }\n") == ["SGS-E205"]
    assert _codes("card 闪 shan : basic { }\ncopies 闪 ♥8\n") == ["SGS-E213"]
    assert _codes("rule 规则 r { on damaged where event.amount > 1 { mark(event, \"big\") } }\n") == []
