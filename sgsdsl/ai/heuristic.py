"""A heuristic, side-aware agent driven by the AI hints written in .sgs.

It knows no card, skill or role by name. Allegiance comes from the mode's `win` lines (roles that win
together are allies) and the public role table; what an option does comes from the `tags` written next
to each card (attack, control, heal, draw, defence, risk) and its category. It decides from its seat's
view and the request only, like every agent.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..engine.agents import Agent, Request
from ..engine.model import EQUIP_SLOTS

HARMFUL = frozenset({"attack", "control", "risk"})
HELPFUL = frozenset({"heal", "draw"})
KEEP = frozenset({"defence", "heal"})


class HeuristicAgent(Agent):
    name = "heuristic"

    def __init__(self, seed: int, skill_rate: float = 0.35):
        self.rng = random.Random(seed)
        self.skill_rate = skill_rate

    # ------------------------------------------------------------ allegiance
    def stance(self, view: Any) -> dict[int, float]:
        """Per seat: +1 surely an ally, -1 surely a foe, in between by the odds of the hidden roles.
        Roles that share a `win` line are allies (so are two holders of one role)."""
        me = view["seat"]
        mine = view["role"]
        allies = {mine}
        for side in view["sides"]:
            if mine in side:
                allies.update(side)
        hidden = Counter(view["roles_in_play"])
        for q in view["players"]:
            if q["role"] != "hidden":
                hidden[q["role"]] -= 1
        hidden_total = sum(n for n in hidden.values() if n > 0)
        friendly = sum(n for r, n in hidden.items() if n > 0 and r in allies)
        guess = (2 * friendly / hidden_total - 1) if hidden_total else -1.0
        out: dict[int, float] = {}
        for q in view["players"]:
            if q["seat"] == me:
                out[q["seat"]] = 1.0
            elif q["role"] != "hidden":
                out[q["seat"]] = 1.0 if q["role"] in allies else -1.0
            else:
                out[q["seat"]] = guess
        # evidence: whoever hurt a friend leans foe, whoever hurt a foe leans friend (known roles stay put)
        known = {q["seat"] for q in view["players"] if q["role"] != "hidden" or q["seat"] == me}
        base = dict(out)
        for source, target, amount in view.get("damage_history", ()):
            if source in known or source == target:
                continue
            out[source] = max(-1.0, min(1.0, out[source] - 0.4 * amount * base.get(target, 0.0)))
        return out

    # ------------------------------------------------------------ decisions
    def decide(self, request: Request, view: Any) -> list[int]:
        handler = getattr(self, "on_" + request.kind, None)
        answer = handler(request, view) if handler else None
        return answer if answer is not None else self.fallback(request)

    def fallback(self, r: Request) -> list[int]:
        n = len(r.options)
        k = min(max(r.low, 1 if r.high >= 1 else 0), r.high, n)
        return sorted(self.rng.sample(range(n), k))

    def _decline(self, r: Request) -> list[int]:
        return [len(r.options) - 1]

    def on_confirm(self, r: Request, view: Any) -> list[int]:
        return [0]  # optional skills are written to help their owner

    def on_play(self, r: Request, view: Any) -> list[int]:
        me = view["players"][view["seat"]]
        wounded = me["hp"] < me["max_hp"]
        stance = self.stance(view)
        has_foe = any(v < 0 for s, v in stance.items() if s != view["seat"])
        best, best_score = len(r.options) - 1, 0.0
        for i, tags in enumerate(r.option_tags):
            t = set(tags)
            if "end" in t:
                continue
            score = 0.0
            if "heal" in t:
                score = 3.0 if wounded else 0.0
            elif "draw" in t:
                score = 2.5
            elif t & set(EQUIP_SLOTS):
                score = 2.0
            elif "risk" in t:
                score = 0.2 if self.rng.random() < 0.3 else 0.0
            elif t & {"attack", "control"}:
                score = 1.5 if has_foe else 0.0
            elif "skill" in t or "recast" in t:
                score = 1.0 if self.rng.random() < self.skill_rate else 0.0
            elif "conversion" in t:
                score = 0.8 if has_foe and self.rng.random() < self.skill_rate else 0.0
            else:
                score = 0.5 if self.rng.random() < 0.5 else 0.0
            score += self.rng.random() * 0.1
            if score > best_score:
                best, best_score = i, score
        return [best]

    def on_choose(self, r: Request, view: Any) -> list[int] | None:
        n = len(r.options)
        if r.option_seats and any(s is not None for s in r.option_seats):
            stance = self.stance(view)
            helpful = bool(set(r.about) & HELPFUL) and not set(r.about) & HARMFUL
            sign = 1.0 if helpful else -1.0
            ranked = sorted(range(n), key=lambda i: (-sign * stance.get(r.option_seats[i], 0.0), i))
            wanted = [i for i in ranked if sign * stance.get(r.option_seats[i], 0.0) > 0]
            k = max(r.low, min(r.high, len(wanted)))
            return sorted(ranked[:k])
        if r.option_tags and "discard" in r.prompt:
            ranked = sorted(range(n), key=lambda i: (bool(set(r.option_tags[i]) & KEEP), self.rng.random()))
            return sorted(ranked[: r.low])
        return None

    def on_respond(self, r: Request, view: Any) -> list[int]:
        return [0]  # answering a demand keeps HP; the first offer is a real card when one is held

    def on_rescue(self, r: Request, view: Any) -> list[int]:
        return [0] if self.stance(view).get(r.subject, -1.0) > 0 else self._decline(r)

    def on_nullify(self, r: Request, view: Any) -> list[int]:
        about = set(r.about)
        toward = self.stance(view).get(r.subject, 0.0) if r.subject is not None else 0.0
        harmful_to_friend = bool(about & HARMFUL) and toward > 0
        helpful_to_foe = bool(about & HELPFUL) and toward < 0
        return [0] if harmful_to_friend or helpful_to_foe else self._decline(r)

    def on_use_on(self, r: Request, view: Any) -> list[int]:
        return [0] if self.stance(view).get(r.subject, 0.0) < 0 else self._decline(r)
