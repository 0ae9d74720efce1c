"""The agents that reason: the role belief, the heuristic agent and the search agent. When a native build exists
for exactly these sources and the engine's, the belief and the heuristic agent load compiled from it, as the
engine's hot modules do; see `sgsdsl/native.py`."""

from ..native import activate as _activate

_activate(__path__, "ai")
