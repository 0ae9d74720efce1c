"""`sgsdsl play`: play one seat yourself against agents (heuristic by default), in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from ..api import Loaded
from ..engine.errors import EngineError
from ..engine.game import Game
from ..lang.docs import comment_above
from ..narrate import NarratedAgent, Narrator
from ..replay import log_header
from ..rule_errors import describe
from ..sim import AgentKindError, agent_budget, make_agents
from ..terminal import PlayerQuit, TerminalAgent
from ..textsafe import shown
from .lab_common import parse_pins, parse_pool
from .loading import file_mode, fitting_players, load_rules_or_exit, rule_paths, setup_or_exit
from .paths import no_dash_o
from .simulate_cmd import writable_or_exit, write_log_or_exit


@click.command("play")
@no_dash_o
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--mode", default=None, help="mode id [default: the mode of the one rules file named, else identity]")
@click.option("--players", type=click.IntRange(2, 12), default=None,
              help="[default: 5, or the mode's own count when it cannot seat 5 (3v3: 6, 同舟共济: 8)]")
@click.option("--seat", type=click.IntRange(0, 11), default=0, show_default=True, help="the seat you play")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--option", "opts", multiple=True, help="mode option, name=value (repeatable)")
@click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True)
@click.option("--opponents", default="heuristic", show_default=True,
              help="the agents at the other seats: random, heuristic, search or search:N (N rollouts a decision)")
@click.option("--general", "pins", multiple=True, metavar="P0=caopi",
              help="pin a general to a seat (repeatable), yours included: playtest your own general")
@click.option("--pool", "pool_spec", default=None, metavar="FILE|IDS",
              help="the generals on offer: a file of ids (one per line or comma separated) or a comma list")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="write the game's log (JSONL) for `sgsdsl replay` and `replay --show`; an abandoned game's log "
                   "too, marked as abandoned")
def play_cmd(rules, rule_names, mode, players, seat, seed, opts, round_cap, opponents, pins, pool_spec,
             log_path) -> None:
    """Play a game in the terminal: you answer for one seat, agents for the others. During the game, `? NAME`
    shows the text of any skill (or of every skill of a general)."""
    loaded, program = load_rules_or_exit(list(rules), rule_names, "compiled", "play")
    if mode is None:
        mode = file_mode(rule_paths(list(rules), rule_names, "play"), loaded)
    if players is None:
        players = fitting_players(program, mode, 5)
    if seat >= players:
        raise click.UsageError(f"--seat {seat} does not exist with {players} players (0 to {players - 1})")
    options = setup_or_exit(program, mode, players, opts)
    try:
        agent_budget(opponents)
    except AgentKindError as err:
        raise click.UsageError(f"--opponents: {err}") from None
    pinned = parse_pins(program, pins, players)
    pool = parse_pool(program, pool_spec, players) if pool_spec is not None else None
    if log_path:
        writable_or_exit(Path(log_path))
    narrator = Narrator(seat)
    human = NarratedAgent(TerminalAgent(_read_line, click.echo, skill_texts(loaded)), narrator, click.echo)
    others = make_agents((opponents,), players, seed)
    agents = [human if i == seat else others[i] for i in range(players)]
    try:
        # recorded: the log is what the narration reads (and what --log writes)
        game = Game(program, mode, players, seed, agents, options, round_cap=round_cap, record=True, pinned=pinned,
                    pool=pool)
    except EngineError as err:
        raise click.UsageError(str(err)) from None
    narrator.follow(game.log)

    def keep_log(**abandoned: str) -> None:
        if not log_path:
            return
        header = log_header(loaded, Path(log_path), list(rules), rule_names, mode=mode,
                            agents=[opponents if i != seat else "human" for i in range(players)], players=players,
                            seed=seed, options=options, round_cap=round_cap, human_seat=seat,
                            **({"pinned": {str(s): g for s, g in sorted(pinned.items())}} if pinned else {}),
                            **({"pool": list(pool)} if pool is not None else {}), **abandoned)
        write_log_or_exit(game, Path(log_path), header)
        click.echo(f"log written to {log_path}{' (abandoned where you stopped)' if abandoned else ''} "
                   f"(sgsdsl replay {log_path} --show)")

    try:
        game.run()
    except PlayerQuit as why:
        click.echo(shown(f"game abandoned ({why})"))
        keep_log(abandoned=str(why))
        raise SystemExit(1) from None
    except EngineError as err:
        click.echo(shown(f"engine error: {describe(err)}"), err=True)
        raise SystemExit(1) from None
    for line in narrator.new_lines():
        click.echo(line)
    keep_log()
    winners, reason = game.result or ((), "unfinished")
    you = game.players[seat]
    if winners:
        verdict = "you win" if you.seat in game.winners_seats else "you lose"
        click.echo(shown(f"game over: {', '.join(winners)} win ({verdict}; you were {you.role}) after {game.round} "
                         "rounds"))
    else:
        click.echo(shown(f"game over: a draw ({reason}) after {game.round - 1} rounds; you were {you.role}"))


def skill_texts(loaded: Loaded) -> dict[str, str]:
    """Every skill's printed text (the comment above it in its .sgs file, by the rules files' habit), by id and by
    name; a general's name or id gives all its skills: what `? NAME` shows during a game."""
    out: dict[str, str] = {}
    if loaded.checked is None:
        return out
    for m in loaded.checked.modules:
        source = loaded.sources.get(m.path, "")
        for g in m.generals:
            texts = []
            for s in g.skills:
                text = f"{s.name.text} ({s.ident.text}, {g.name.text}): {comment_above(source, s.span.line) or '—'}"
                out.setdefault(s.ident.text, text)
                out.setdefault(s.name.text, text)
                texts.append(text)
            summary = "\n".join(texts) or f"{g.name.text} has no skills"
            out.setdefault(g.ident.text, summary)
            out.setdefault(g.name.text, summary)
    return out


def _read_line(prompt: str) -> str:
    """One line from the terminal; the end of input (or Ctrl-D/Ctrl-C) reads as EOFError."""
    try:
        return click.prompt(prompt, default="", show_default=False, prompt_suffix="")
    except click.Abort:
        raise EOFError from None


COMMANDS = [play_cmd]
