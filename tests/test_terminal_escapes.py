"""Nothing from a rules file or a log reaches the terminal as a control sequence (issue 31 item 2): OSC 52 (write the
clipboard), OSC 0 (retitle the window) and CSI 2J (clear the screen), in 7-bit and C1 form, go through every
printer of rule- or log-supplied text and come out as visible escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.engine.agents import Request
from sgsdsl.narrate import narrate, transcript
from sgsdsl.terminal import TerminalAgent
from sgsdsl.textsafe import shown

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
ATTACK = "A\x1b]52;c;aGk=\x07B\x1b]0;pwned\x07C\x1b[2JD\x9b2JE\u202eF"
CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")


def _clean(text: str) -> bool:
    return not any(c in text for c in CONTROLS)


def _rules(tmp_path: Path, timing: str = "turn_start") -> Path:
    path = tmp_path / "esc.sgs"
    path.write_text(f'import "{MINI.as_posix()}"\nrule 测 t {{\n  on {timing} {{ log("{ATTACK}") }}\n}}\n',
                    encoding="utf-8")
    return path


def test_shown_escapes_controls_and_keeps_text() -> None:
    assert shown(ATTACK) == "A\\x1b]52;c;aGk=\\x07B\\x1b]0;pwned\\x07C\\x1b[2JD\\x9b2JE\\u202eF"
    assert shown("杀 → 2 HP\n\tnext　line") == "杀 → 2 HP\n\tnext　line"
    assert shown("a\nb", newlines=False) == "a\\x0ab"


def test_narration_of_notes_names_prompts_and_unknown_kinds() -> None:
    entries = [{"e": "note", "text": ATTACK}, {"e": "game_start", "mode": ATTACK, "players": 4, "seed": 1},
               {"e": ATTACK, "x": ATTACK}, {"e": "general", "player": "P0", "general": ATTACK},
               {"ask": 0, "prompt": ATTACK, "options": [ATTACK], "answer": [0], "kind": "choose"}]
    lines = transcript(entries)
    assert len(lines) == 5 and all(_clean(line) for line in lines) and all("\\x1b]52" in line for line in lines)
    used = narrate({"e": "use", "user": ATTACK, "card": ATTACK, "targets": [ATTACK + "x"]}, viewer=0)
    assert used is not None and used.count("\\x9b") == 3


def test_the_terminal_agent_escapes_prompts_options_and_views() -> None:
    written: list[str] = []
    agent = TerminalAgent(lambda _: "0", written.append)
    view = {"seat": 0, "role": ATTACK, "hand": [ATTACK], "draw_pile": 3, "discard_top": [ATTACK],
            "players": [{"seat": 0, "general": ATTACK, "role": ATTACK, "hp": 1, "max_hp": 1, "alive": True,
                         "equips": [ATTACK], "judge": [], "hand": 1}]}
    request = Request(seat=0, kind="choose", prompt=ATTACK, options=[ATTACK, "b"], low=1, high=1)
    assert agent.decide(request, view) == [0]
    out = "\n".join(written)
    assert _clean(out) and out.count("\\x1b]52") == 8  # general, role twice, equip, discard, hand, prompt, option


def test_replay_show_simulate_and_play(tmp_path: Path) -> None:
    rules = _rules(tmp_path)
    log = tmp_path / "game.jsonl"
    made = CliRunner().invoke(main, ["simulate", str(rules), "--players", "4", "--games", "1", "--log", str(log)])
    assert made.exit_code == 0, made.output
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["mode"] = ATTACK
    log.write_text("\n".join([json.dumps(header), *lines[1:], json.dumps({"e": ATTACK})]) + "\n", encoding="utf-8")
    shown_log = CliRunner().invoke(main, ["replay", str(log), "--show"])
    assert shown_log.exit_code == 0 and re.search(r"^A\\x1b\]52", shown_log.output, re.M), shown_log.output[-500:]
    assert _clean(shown_log.output)
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 1 and _clean(replayed.output), replayed.output
    played = CliRunner().invoke(main, ["play", str(rules), "--players", "4", "--round-cap", "2"],
                                input="0\n" * 40)
    assert re.search(r"^A\\x1b\]52", played.output, re.M) and _clean(played.output), played.output[-500:]


def test_rule_errors_and_scenario_failures(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    body = f'draw(mark_value(none, "{ATTACK}"), 1)'
    bad.write_text(f'import "{MINI.as_posix()}"\nrule 测 t {{\n  on turn_start {{ {body} }}\n}}\n', encoding="utf-8")
    sim = CliRunner().invoke(main, ["simulate", str(bad), "--players", "4", "--games", "1"])
    assert "engine error" in sim.output and _clean(sim.output), sim.output[-500:]
    scenario = tmp_path / "esc.scenario"
    scenario.write_text(f"scenario: {ATTACK}\nrule: none\nrules: {_rules(tmp_path).name}\nseat P0: 刘备 lord\n"
                        "seat P1: 孙权 rebel\nseat P2: 吕蒙\nseat P3: 甄姬\nexpect P0 dead\n", encoding="utf-8")
    ran = CliRunner().invoke(main, ["test", str(scenario)])
    assert "FAIL" in ran.output and "\\x1b]52" in ran.output and _clean(ran.output), ran.output[-800:]
