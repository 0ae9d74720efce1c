"""The language server's check of a document stops soon after a newer edit, even inside one enormous definition:
the parser, the tree conversion and the checker count their work (`sgsdsl.lang.cancel`) and ask every
POLL_EVERY units whether the text went stale. Work is counted, not timed."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from sgsdsl.lang import cancel
from sgsdsl.lang.cancel import POLL_EVERY, CheckCancelled
from sgsdsl.lsp import analysis as an

STATEMENTS = 3000


def enormous(tag: str) -> str:
    """One rule of thousands of statements, with an unknown name in its last one (so its check has diagnostics)."""
    body = "".join(f"    draw(event.player, {i % 3 + 1})\n" for i in range(STATEMENTS))
    return f"# {tag}\nrule 测 big {{\n  on turn_start {{\n{body}    draw(nobody_here, 1)\n  }}\n}}\n"


def stale_after(polls: int):
    """A `cancelled` that turns true at its POLLS-th question (an edit arriving midway), counting its questions."""
    asked = itertools.count(1)
    return lambda: next(asked) >= polls


def test_one_enormous_definition_is_cancelled_midway(tmp_path: Path) -> None:
    path = tmp_path / "big.sgs"
    text = enormous("first")
    # uncancelled: the whole load and check of the one definition asks hundreds of times
    with cancel.cancellable(lambda: False) as whole:
        done = an.analyze(path, text)
    assert [d.code for d in done.diagnostics] == ["SGS-E202"] and done.diagnostics[0].span.line == STATEMENTS + 4
    assert whole.polls > 100, whole.polls
    # the parse is remembered now: this run is the checker's walk of the definition alone, still asked often
    with cancel.cancellable(lambda: False) as checking:
        an.analyze(path, text)
    assert checking.polls > 20 and checking.units > 5 * STATEMENTS, (checking.polls, checking.units)
    # an edit arriving during the check: it stops at the next question, within POLL_EVERY units of the edit
    with pytest.raises(CheckCancelled), cancel.cancellable(stale_after(5)) as cut:
        an.analyze(path, text)
    assert cut.polls == 5 and cut.units < 5 * POLL_EVERY + POLL_EVERY, (cut.polls, cut.units)
    # a fresh text: the edit arrives during the parse (tokens counted) and stops it just as soon
    with pytest.raises(CheckCancelled), cancel.cancellable(stale_after(5)) as parsing:
        an.analyze(path, enormous("second"))
    assert parsing.polls == 5 and parsing.units < 6 * POLL_EVERY


def test_analyze_takes_the_servers_cancelled(tmp_path: Path) -> None:
    with pytest.raises(CheckCancelled):
        an.analyze(tmp_path / "big.sgs", enormous("third"), stale_after(3))
    assert cancel.current() is None  # nothing left behind for the next check


def test_outside_the_server_nothing_is_counted(tmp_path: Path) -> None:
    cancel.tick(10 * POLL_EVERY)  # no canceller: nothing to ask, nothing raised
    assert cancel.current() is None
    a = an.analyze(tmp_path / "big.sgs", enormous("fourth"))
    assert [d.code for d in a.diagnostics] == ["SGS-E202"]


def test_the_server_never_publishes_a_stale_check(tmp_path: Path) -> None:
    """In the server: an edit made while the enormous document is being checked stops that check (the worker is
    free for the new text at once) and only the new text's diagnostics are published."""
    pytest.importorskip("pygls", reason="the language server is the optional extra sgsdsl[lsp]")
    from pygls.uris import from_fs_path

    from sgsdsl.lsp import server as srv

    published: list[tuple[str, int]] = []
    polls: list[int] = []

    class Probe(srv.SgsServer):
        def publish(self, uri: str, result: an.Analysis) -> None:
            published.append((result.text[:9], len(result.diagnostics)))

        def analyze(self, uri: str, cancelled: object = None) -> an.Analysis:
            assert callable(cancelled)

            def counted() -> bool:
                polls.append(1)
                if len(polls) == 5:  # midway through the enormous definition: the user types
                    self.generation[uri] += 1
                    self.texts[uri] = "# second\n"
                return bool(cancelled())

            return an.analyze(Path(tmp_path / "big.sgs"), self.texts[uri], counted)

    async def scenario() -> None:
        probe = Probe()
        uri = from_fs_path(str(tmp_path / "big.sgs")) or ""
        probe.texts = {uri: enormous("first")}  # type: ignore[attr-defined]
        await probe.check_later(uri)  # the edit (made by `counted`) abandons it: nothing published
        assert published == [] and len(polls) == 5
        await probe.check_later(uri)  # the newer text is checked and published
        assert published == [("# second\n", 0)]
        probe.checks.shutdown()

    asyncio.run(scenario())
