"""A list comprehension inside another, whose inner list reads the outer one's variable, plays on the compiled back
end as the interpreter plays it. (The compiler moves a comprehension's list into a helper defined before the
statement; that helper once read the outer variable where it was not bound, a NameError in every game.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game

NESTED = """\
import "standard"
general 嵌套者 qiantaozhe : 魏 male 4 {
  skill 嵌套 qiantao {
    on phase_start where event.player == owner and event.phase == prepare {
      let ps = [q for q in others(owner) if any([c.color == red for c in hand(q)])]
      let sizes = [count([c for c in hand(q) if c.suit == suit_of_first(q)]) for q in players()]
      draw(owner, min(count(ps) + sum(sizes), 3))
    }
  }
}
value suit_of_first(p: player) = first([c.suit for c in hand(p)])
mode 对决 nested_duel { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nested_comprehensions_play_alike_on_both_back_ends(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "nested.sgs"
    path.write_text(NESTED, encoding="utf-8")
    loaded = check_paths([str(path)])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    logs = []
    for program in (compiled_program(loaded), interpreted_program(loaded)):
        g = Game(program, "nested_duel", 2, seed, [RandomAgent(seed * 10 + i) for i in range(2)], None, round_cap=3,
                 record=True)
        for p in g.players:  # (the mode deals no generals)
            g.set_general(p, program.generals["qiantaozhe"])
        g.run()
        logs.append(g.log)
    compiled, interpreted = logs
    assert compiled == interpreted
    assert len([e for e in compiled if e.get("e") == "draw"]) >= 2, compiled[:40]
