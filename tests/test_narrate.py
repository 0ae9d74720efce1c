"""Narrated play and readable replays: `play` tells what the other seats did, `play --log` writes a log that
`replay` verifies, and `replay --show` prints it as a transcript (one narration for both)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from rich.cells import cell_len

from sgsdsl.cli import main
from sgsdsl.engine.agents import Request
from sgsdsl.narrate import narrate, transcript
from sgsdsl.terminal import TerminalAgent, render_view


def test_play_narrates_logs_and_the_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    r = runner.invoke(main, ["play", "--players", "4", "--seat", "1", "--seed", "2", "--round-cap", "3",
                             "--log", str(log)], input="0\n" * 3000, catch_exceptions=False)
    assert r.exit_code == 0, r.output[-2000:]
    out = r.output
    # what opponents did, in sentences, with the human as "you"
    assert re.search(r"^P[023] \S+ uses \S+ on (you|P\d \S+)$", out, re.M), out[-3000:]
    assert re.search(r"^P[023] \S+ draws 2 cards$", out, re.M)
    assert re.search(r"^you draw \d+ cards?$", out, re.M)
    assert "#" not in "\n".join(line for line in out.splitlines() if line.startswith(("P0 ", "P2 ", "P3 ")))
    assert f"log written to {log}" in out
    ok = runner.invoke(main, ["replay", str(log)])
    assert ok.exit_code == 0 and "every state hash matches" in ok.output, ok.output
    shown = runner.invoke(main, ["replay", str(log), "--show"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0].startswith("game.jsonl: identity, 4 players, seed 2")
    assert any(re.fullmatch(r"  P1 — choose your general: \S+", x) for x in lines)  # the human's answers too
    assert any(re.fullmatch(r"P\d \S+ uses \S+ on P\d \S+", x) for x in lines)
    assert lines[-1].startswith("game over")


def test_replay_show_refuses_garbage(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(bad), "--show"])
    assert r.exit_code == 1 and "cannot read the log" in r.output


def test_sentences_for_a_viewer() -> None:
    use = {"e": "use", "user": "P3:许褚", "card": "决斗♦A#19", "targets": ["P0:曹操"], "context": "play"}
    assert narrate(use, viewer=0) == "P3 许褚 uses 决斗♦A on you"
    assert narrate(use, viewer=None) == "P3 许褚 uses 决斗♦A on P0 曹操"
    took = {"e": "obtain", "player": "P1:甘宁", "cards": ["闪♦2#3"]}
    assert narrate(took, viewer=0) == "P1 甘宁 obtains 1 card"  # another seat's hand stays hidden
    assert narrate(took, viewer=1) == "you obtain 闪♦2"
    hurt = {"e": "damage", "target": "P0:曹操", "source": "P3:许褚", "amount": 2, "hp": 1, "nature": "fire",
            "card": "杀♠7#1"}
    assert narrate(hurt, viewer=0) == "you take 2 fire damage from P3 许褚 (杀♠7) → 1 HP"
    # a phase marked to be skipped and the phase passed over read apart, so the transcript says neither twice
    assert narrate({"e": "skip", "player": "P6:黄盖", "phase": "play"}) == "P6 黄盖 will skip the play phase"
    assert narrate({"e": "skip", "player": "P0:曹操", "phase": "draw"}, viewer=0) == "you will skip the draw phase"
    assert narrate({"e": "phase_skipped", "player": "P6:黄盖", "phase": "play"}) == "P6 黄盖 skips the play phase"
    provided = {"card": "闪[]", "e": "respond", "play": False, "player": "P3:曹操"}
    assert narrate(provided) == "P3 曹操 uses 闪"  # a card a skill provides, made of no cards
    assert narrate({**provided, "card": "乐不思蜀[桃♦3#7]"}) == "P3 曹操 uses 乐不思蜀[桃♦3]"
    assert narrate({"e": "brand_new_event", "x": 1}) == "brand_new_event: x=1"  # never dropped silently
    assert transcript([{"ask": 0, "prompt": "p", "options": ["a", "b"], "answer": [1], "kind": "choose"}],
                      ) == ["  P0 — p: b"]


def test_board_aligns_cjk_names_by_cell_width() -> None:
    def player(seat: int, general: str) -> dict:
        return {"seat": seat, "general": general, "role": "hidden", "hp": 4, "max_hp": 4, "alive": True,
                "equips": [], "judge": [], "hand": 3}

    view = {"seat": 0, "role": "lord", "hand": [], "draw_pile": 80, "discard_top": [],
            "players": [player(0, "诸葛亮"), player(1, "seat1"), player(2, "SP貂蝉")]}
    rows = [x for x in render_view(view).splitlines() if "hidden" in x]
    assert len({cell_len(x[: x.index("hidden")]) for x in rows}) == 1, rows


def test_the_board_and_options_show_cards_as_people_read_them() -> None:
    """No engine ids on the board or in the options (the log keeps them), and one card is "1 card"."""
    seat = {"seat": 0, "general": "曹操", "role": "lord", "hp": 4, "max_hp": 4, "alive": True,
            "equips": ["绝影♠5#38"], "judge": ["闪电♥Q#77"], "hand": 1}
    view = {"seat": 0, "role": "lord", "hand": ["闪♦J#75"], "draw_pile": 80, "discard_top": ["杀♠10#5"],
            "players": [seat]}
    board = render_view(view)
    assert "#" not in board and "1 card " in board and "1 cards" not in board
    assert "equip 绝影♠5" in board and "judge 闪电♥Q" in board and "discard top 杀♠10" in board
    shown: list[str] = []
    agent = TerminalAgent(lambda _: "0", shown.append)
    request = Request(0, "play", "choose a card or skill to use", ("use 闪♦J#75", "end play phase"), 1, 1)
    assert agent.decide(request, view) == [0]
    assert "  [0] use 闪♦J" in shown and not any("#75" in line for line in shown)
    asked = Request(0, "confirm", "use 破咒 against 杀♠10#5?", ("yes", "no"), 1, 1)
    assert agent.decide(asked, view) == [0]
    assert any(line.startswith("\nuse 破咒 against 杀♠10?") for line in shown), shown


def test_replay_show_refuses_a_tampered_answer(tmp_path: Path) -> None:
    """An answer naming an option that was never offered: `--show` says so and exits 1 (it printed "(nothing)")."""
    log = tmp_path / "g.jsonl"
    r = CliRunner().invoke(main, ["simulate", "--players", "4", "--games", "1", "--log", str(log)])
    assert r.exit_code == 0, r.output
    lines = log.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"ask"' in line and '"answer": [0]' in line)
    lines[i] = lines[i].replace('"answer": [0]', '"answer": [99]')
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(log), "--show"])
    assert r.exit_code == 1 and f"g.jsonl:{i + 1}: the answer names option 99" in r.output, r.output
    assert "(nothing)" not in r.output


def test_narration_agrees_in_number() -> None:
    assert narrate({"e": "discard", "cards": ["闪电♥Q#88"]}) == "闪电♥Q goes to the discard pile"
    assert narrate({"e": "discard", "cards": ["杀♠7#1", "闪♥2#40"]}) == "杀♠7, 闪♥2 go to the discard pile"
    assert narrate({"e": "reshuffle", "cards": 1}) == "the discard pile is shuffled into a new draw pile (1 card)"


def test_a_request_that_brought_nothing_is_told() -> None:
    """A lord skill nobody answered (激将, 护驾) reads in `play` and `replay --show`: without these entries a human
    saw the skill used and then the same request again, with nothing in between."""
    failed = {"e": "provided_nothing", "player": "P0:曹操", "skill": "护驾"}
    assert narrate(failed, viewer=0) == "护驾 brings you nothing"
    assert narrate(failed, viewer=None) == "护驾 brings P0 曹操 nothing"
    idle = {"e": "came_to_nothing", "player": "P0:刘备", "what": "激将"}
    assert narrate(idle, viewer=0) == "nothing comes of your 激将"
    assert narrate(idle, viewer=2) == "nothing comes of P0 刘备's 激将"
    card = {"e": "came_to_nothing", "player": "P1:甘宁", "what": "无中生有♥7#3"}
    assert narrate(card, viewer=None) == "nothing comes of P1 甘宁's 无中生有♥7"


def test_every_log_entry_the_engine_writes_is_told_in_words() -> None:
    """No entry a game writes reaches a reader as `kind: key=value` (a lost skill, a limited skill, a compare…)."""
    from sgsdsl import narrate as narration

    root = Path(narration.__file__).resolve().parent
    kinds = {k for f in sorted(root.rglob("*.py")) for k in re.findall(r'emit_log\("(\w+)"', f.read_text("utf-8"))}
    kinds.add("limited")  # (written as `"awaken" if … else "limited"`)
    assert {"lose_skill", "awaken", "pindian"} <= kinds
    untold = sorted(kinds - set(narration._RULES) - {"scenario_refused"})
    assert not untold, untold


def test_skills_won_lost_and_spent_read_as_sentences() -> None:
    assert narrate({"e": "lose_skill", "player": "P2:续命者", "skill": "续命"}) == "P2 续命者 loses 续命"
    assert narrate({"e": "limited", "player": "P3:废武者", "skill": "废武"}, viewer=3) == "you use 废武 (once a game)"
    assert narrate({"e": "max_hp", "player": "P1:x", "change": -1, "max_hp": 3, "hp": 1}) == \
        "P1 x's maximum HP -1 → 3 (1 HP)"
    assert narrate({"e": "pindian", "initiator": "P0:a", "target": "P1:b", "initiator_card": "杀♠K#3",
                    "target_card": "闪♥2#9", "winner": "P0:a"}, viewer=1) == \
        "P0 a (杀♠K) and you (闪♥2) compare cards: P0 a wins"
    assert narrate({"e": "seats", "persons": ["x"]}) is None
