"""Scenario tests in text: a position, scripted answers and expectations (`.scenario` files)."""

from .runner import Outcome, discover, read_scenario, report, run_file, run_scenario
from .syntax import Scenario, ScenarioError, parse_scenario

__all__ = ["Outcome", "Scenario", "ScenarioError", "discover", "parse_scenario", "read_scenario", "report",
           "run_file", "run_scenario"]
