"""`sgsdsl play`: play one seat yourself against agents (heuristic by default), in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.errors import EngineError
from ..engine.game import Game
from ..narrate import NarratedAgent, Narrator
from ..replay import log_header
from ..sim import AgentKindError, agent_budget, make_agents
from ..terminal import PlayerQuit, TerminalAgent
from .loading import file_mode, fitting_players, load_rules_or_exit, rule_paths, setup_or_exit
from .simulate_cmd import writable_or_exit, write_log_or_exit


@click.command("play")
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--mode", default=None, help="mode id [default: the mode of the one rules file named, else identity]")
@click.option("--players", type=click.IntRange(2, 12), default=None,
              help="[default: 5, or the mode's own count when it cannot seat 5 (3v3: 6, 同舟共济: 8)]")
@click.option("--seat", type=click.IntRange(0, 11), default=0, show_default=True, help="the seat you play")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--option", "-o", "opts", multiple=True, help="mode option, name=value (repeatable)")
@click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True)
@click.option("--opponents", default="heuristic", show_default=True,
              help="the agents at the other seats: random, heuristic, search or search:N (N rollouts a decision)")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="write the finished game's log (JSONL) for `sgsdsl replay` and `replay --show`")
def play_cmd(rules, rule_names, mode, players, seat, seed, opts, round_cap, opponents, log_path) -> None:
    """Play a game in the terminal: you answer for one seat, agents for the others."""
    loaded, program = load_rules_or_exit(list(rules), rule_names, "compiled")
    if mode is None:
        mode = file_mode(rule_paths(list(rules), rule_names), loaded)
    if players is None:
        players = fitting_players(program, mode, 5)
    if seat >= players:
        raise click.UsageError(f"--seat {seat} does not exist with {players} players (0 to {players - 1})")
    options = setup_or_exit(program, mode, players, opts)
    try:
        agent_budget(opponents)
    except AgentKindError as err:
        raise click.UsageError(f"--opponents: {err}") from None
    if log_path:
        writable_or_exit(Path(log_path))
    narrator = Narrator(seat)
    human = NarratedAgent(TerminalAgent(_read_line, click.echo), narrator, click.echo)
    others = make_agents((opponents,), players, seed)
    agents = [human if i == seat else others[i] for i in range(players)]
    try:
        # recorded: the log is what the narration reads (and what --log writes)
        game = Game(program, mode, players, seed, agents, options, round_cap=round_cap, record=True)
    except EngineError as err:
        raise click.UsageError(str(err)) from None
    narrator.follow(game.log)
    try:
        game.run()
    except PlayerQuit as why:
        click.echo(f"game abandoned ({why})" + ("; no log written" if log_path else ""))
        raise SystemExit(1) from None
    except EngineError as err:
        click.echo(f"engine error: {err}", err=True)
        raise SystemExit(1) from None
    for line in narrator.new_lines():
        click.echo(line)
    if log_path:
        header = log_header(loaded, Path(log_path), list(rules), rule_names, mode=mode,
                            agents=[opponents if i != seat else "human" for i in range(players)], players=players,
                            seed=seed, options=options, round_cap=round_cap, human_seat=seat)
        write_log_or_exit(game, Path(log_path), header)
        click.echo(f"log written to {log_path} (sgsdsl replay {log_path} --show)")
    winners, reason = game.result or ((), "unfinished")
    you = game.players[seat]
    if winners:
        verdict = "you win" if you.seat in game.winners_seats else "you lose"
        click.echo(f"game over: {', '.join(winners)} win ({verdict}; you were {you.role}) after {game.round} rounds")
    else:
        click.echo(f"game over: a draw ({reason}) after {game.round - 1} rounds; you were {you.role}")


def _read_line(prompt: str) -> str:
    """One line from the terminal; the end of input (or Ctrl-D/Ctrl-C) reads as EOFError."""
    try:
        return click.prompt(prompt, default="", show_default=False, prompt_suffix="")
    except click.Abort:
        raise EOFError from None


COMMANDS = [play_cmd]
