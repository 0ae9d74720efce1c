"""`sgsdsl lsp` driven through the protocol: a pygls client starts the server as a subprocess and speaks
JSON-RPC over its stdin/stdout, as an editor does."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main

pytest.importorskip("pygls", reason="the language server is the optional extra sgsdsl[lsp]")
from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BASE = """\
# 杀：对攻击范围内的一名其他角色使用。
card 杀 sha : basic {
  copies ♠7 ♠8
  use play target one other
  effect { damage(target, 1, source: user) }
}

general 曹操 caocao : 魏 male 4 {
  # 奸雄：当你受到伤害后，你可以获得造成此伤害的牌。
  skill 奸雄 jianxiong {
    on damaged where event.target == owner and event.card != none optional { obtain(owner, event.card) }
  }
}
"""
MAIN_BROKEN = """\
import "base.sgs"

# 测：受到伤害后摸一张牌。
skill 测 ce {
  on damaged where event.victim == owner { draw(owner, 1) }
}
"""
MAIN_FIXED = MAIN_BROKEN.replace("event.victim", "event.target")
TIMEOUT = 60


class Session:
    """A started server with the diagnostics it published, per document."""

    def __init__(self, client: LanguageClient):
        self.client = client
        self.published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()

    async def diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        while True:
            p = await asyncio.wait_for(self.published.get(), TIMEOUT)
            if p.uri == uri:
                return list(p.diagnostics)


async def _run(folder: Path, script) -> None:
    client = LanguageClient("sgsdsl-test", "1")
    session = Session(client)

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: lsp.PublishDiagnosticsParams) -> None:
        session.published.put_nowait(params)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    await client.start_io(sys.executable, "-m", "sgsdsl.cli", "lsp", cwd=str(folder), env=env)
    try:
        await asyncio.wait_for(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(folder)))), TIMEOUT)
        client.initialized(lsp.InitializedParams())
        await script(session)
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        assert await asyncio.wait_for(client._server.wait(), TIMEOUT) == 0  # exits cleanly on `exit`
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()  # a failed assertion above: do not leave the server running
        await asyncio.wait_for(client.stop(), TIMEOUT)


def run(folder: Path, script) -> None:
    asyncio.run(_run(folder, script))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "base.sgs").write_text(BASE, encoding="utf-8")
    (tmp_path / "main.sgs").write_text(MAIN_BROKEN, encoding="utf-8")
    return tmp_path


def open_doc(session: Session, path: Path, text: str) -> str:
    uri = from_fs_path(str(path))
    session.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="sgs", version=1, text=text)))
    return uri


def change(session: Session, uri: str, version: int, text: str) -> None:
    session.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of a substring (plus an offset into it)."""
    at = text.index(needle) + offset
    line = text.count("\n", 0, at)
    return lsp.Position(line, at - (text.rfind("\n", 0, at) + 1))


def test_diagnostics_match_check_and_follow_edits(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    checked = json.loads(CliRunner().invoke(main, ["check", "--format", "json", "main.sgs"]).output)["diagnostics"]
    assert [d["code"] for d in checked] == ["SGS-E206"]

    async def script(s: Session) -> None:
        uri = open_doc(s, folder / "main.sgs", MAIN_BROKEN)
        diags = await s.diagnostics(uri)
        got = [(d.code, d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1,
                d.range.end.character + 1) for d in diags]
        assert got == [(d["code"], d["line"], d["col"], d["end_line"], d["end_col"]) for d in checked]
        assert diags[0].severity == lsp.DiagnosticSeverity.Error and "victim" in diags[0].message
        # as you type: the unsaved fix clears it, a new slip brings a syntax error
        change(s, uri, 2, MAIN_FIXED)
        assert await s.diagnostics(uri) == []
        change(s, uri, 3, MAIN_FIXED.replace("skill 测 ce", "skill 测 ce ("))
        assert [d.code for d in await s.diagnostics(uri)] == ["SGS-E102"]

    run(folder, script)
    assert (folder / "main.sgs").read_text(encoding="utf-8") == MAIN_BROKEN  # the server never writes files


def test_hover_completion_definition_symbols_formatting(folder: Path) -> None:
    async def script(s: Session) -> None:
        c = s.client
        text = (MAIN_FIXED + "general 某 mou : 魏 male 3 { has 测 }\n"
                "value v(p: player) = has_skill(p, 奸雄) and 杀 in [杀]\n")
        uri = open_doc(s, folder / "main.sgs", text)
        assert await s.diagnostics(uri) == []
        doc = lsp.TextDocumentIdentifier(uri)

        async def hover(needle: str, offset: int = 0) -> str:
            h = await c.text_document_hover_async(lsp.HoverParams(doc, pos(text, needle, offset)))
            assert h is not None, needle
            return h.contents.value

        card = await hover("杀 in")
        assert "card, basic" in card and "♠7 ♠8" in card and "对攻击范围内" in card
        skill = await hover("奸雄)")
        assert "skill of 曹操" in skill and "获得造成此伤害的牌" in skill
        assert "受到伤害后摸一张牌" in await hover("测 ce")
        assert "draw(" in await hover("draw(") and "action" in await hover("draw(")
        field = await hover("event.target", 7)
        assert "`event.target`: player" in field and "on damaged" in field
        assert "event.amount" in await hover("event.target")

        async def labels(needle: str, offset: int) -> set[str]:
            res = await c.text_document_completion_async(lsp.CompletionParams(doc, pos(text, needle, offset)))
            return {i.label for i in res.items}

        fields = await labels("event.target", 6)
        assert {"target", "amount", "source", "card"} <= fields and "phase" not in fields
        names = await labels("draw(owner", 0)
        assert {"杀", "曹操", "奸雄", "测", "draw", "damage", "damaged"} <= names

        loc = await c.text_document_definition_async(lsp.DefinitionParams(doc, pos(text, "奸雄)")))
        assert loc.uri == from_fs_path(str((folder / "base.sgs").resolve())) and loc.range.start.line == 9
        imp = await c.text_document_definition_async(lsp.DefinitionParams(doc, pos(text, "base.sgs")))
        assert imp.uri.endswith("base.sgs")

        syms = await c.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc))
        assert [(x.name, x.detail) for x in syms] == [("测", "skill"), ("某", "general"), ("v", "value")]

        messy = "card  杀 sha:basic{copies ♠7}\n"
        uri2 = open_doc(s, folder / "messy.sgs", messy)
        await s.diagnostics(uri2)
        edits = await c.text_document_formatting_async(lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(uri2), lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
        assert [e.new_text for e in edits] == ["card 杀 sha : basic { copies ♠7 }\n"]

    run(folder, script)


def test_a_procedure_has_hover_definition_outline_and_completion(folder: Path) -> None:
    """A procedure is a definition like a value: hover shows its parameters, its comment and what agents read of
    a character passed to it; go-to-definition, the outline and completion know it."""
    async def script(s: Session) -> None:
        c = s.client
        text = ('import "base.sgs"\n\n# 伤：对其造成1点伤害。\nprocedure hurt(q: player, who: player) {\n'
                "  damage(q, 1, source: who)\n}\n\nskill 试 shi {\n  active limit 1 per phase {\n"
                "    hurt(choose(owner, others(owner)), owner)\n  }\n}\n")
        uri = open_doc(s, folder / "proc.sgs", text)
        assert await s.diagnostics(uri) == []
        doc = lsp.TextDocumentIdentifier(uri)
        h = await c.text_document_hover_async(lsp.HoverParams(doc, pos(text, "hurt(choose")))
        assert h is not None
        shown = h.contents.value
        assert "**procedure** `hurt(q: player, who: player)`" in shown and "对其造成1点伤害" in shown
        assert "`q` as `attack`" in shown and "`who`" not in shown.split("agents read")[1]
        loc = await c.text_document_definition_async(lsp.DefinitionParams(doc, pos(text, "hurt(choose")))
        assert loc is not None and loc.range.start.line == 3
        syms = await c.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc))
        assert [(x.name, x.detail, x.kind) for x in syms] == [("hurt", "procedure", lsp.SymbolKind.Function),
                                                              ("试", "skill", lsp.SymbolKind.Function)]
        res = await c.text_document_completion_async(lsp.CompletionParams(doc, pos(text, "hurt(choose")))
        assert any(i.label == "hurt" and i.kind == lsp.CompletionItemKind.Function for i in res.items)

    run(folder, script)


def test_requests_about_unopened_documents_get_empty_answers(folder: Path) -> None:
    async def script(s: Session) -> None:
        c = s.client
        for name in ("main.sgs", "never-there.sgs"):  # one on disk, one not: neither was opened
            doc = lsp.TextDocumentIdentifier(from_fs_path(str(folder / name)))
            assert await c.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(0, 0))) is None
            done = await c.text_document_completion_async(lsp.CompletionParams(doc, lsp.Position(0, 0)))
            assert not done.items
            assert await c.text_document_definition_async(lsp.DefinitionParams(doc, lsp.Position(0, 0))) is None
            assert not await c.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc))
        uri = open_doc(s, folder / "main.sgs", MAIN_FIXED)  # the server still answers afterwards
        assert await s.diagnostics(uri) == []

    run(folder, script)


def test_a_burst_of_edits_is_checked_once_at_its_end(folder: Path) -> None:
    big = BASE + "".join(f"value v{i}(p: player) = u{i} + 1\n" for i in range(3000))  # thousands of errors

    async def script(s: Session) -> None:
        uri = open_doc(s, folder / "main.sgs", big)
        for version in range(2, 30):  # typing: each edit abandons the check of the one before
            change(s, uri, version, big + f"# {version}\n")
        change(s, uri, 30, MAIN_FIXED)
        # the first diagnostics published are those of the last text (the large ones were never finished)
        assert await s.diagnostics(uri) == []
        h = await s.client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                     pos(MAIN_FIXED, "draw(")))
        assert h is not None and "draw(" in h.contents.value

    run(folder, script)


UNAIMED = """\
import "base.sgs"

general 易手者 yishouzhe : 群 male 4 {
  skill 易手 yishou {
    active limit 1 per phase {
      let me = next_alive(owner)
      swap_cards(me,
                 choose(owner, others(owner), prompt: "with whom"))
    }
  }
}
"""


def test_a_choice_agents_cannot_aim_gets_a_warning_and_quick_fixes(folder: Path) -> None:
    """SGS-W407 is published as a warning, and its quick fixes write each word into the choice, before its `)`:
    the text each fix makes checks clean."""
    async def script(s: Session) -> None:
        uri = open_doc(s, folder / "main.sgs", UNAIMED)
        found = await s.diagnostics(uri)
        assert [(d.code, d.severity, d.range.start) for d in found] == [
            ("SGS-W407", lsp.DiagnosticSeverity.Warning, pos(UNAIMED, "choose("))]
        actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), found[0].range, lsp.CodeActionContext(diagnostics=found)))
        assert [x.title for x in actions] == [f'say whom it is for: tags: "{w}"'
                                              for w in ("help", "attack", "control", "neutral")]
        edit = actions[1].edit.changes[uri][0]
        assert edit.range.start == pos(UNAIMED, '"with whom")', len('"with whom"'))
        fixed = UNAIMED.replace('"with whom")', '"with whom", tags: "attack")')
        change(s, uri, 2, fixed)
        assert await s.diagnostics(uri) == []
        none = await s.client.text_document_code_action_async(lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), found[0].range, lsp.CodeActionContext(diagnostics=[])))
        assert not none

    run(folder, script)
