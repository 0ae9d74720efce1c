"""`sgsdsl lsp`: the language server (pygls). Each handler translates between the protocol and analysis.py.

Documents are re-checked on open and after edits (full text sync), with the unsaved text standing in for the
file, so the diagnostics are exactly those `sgsdsl check` would print for that text. A check waits for a pause in
typing (DEBOUNCE), runs off the event loop (one at a time, so the server keeps answering hovers and completions on
a large document), and is abandoned as soon as a newer edit arrives: the parser, the tree conversion and the checker
ask every few hundred tokens, nodes, statements or expressions (`lang.cancel`), so even one enormous definition
stops within a bounded amount of work and the worker is free for the newer text. Only documents the
editor opened are analysed: a request about any other URI gets an empty answer, and nothing is read from disk
for it.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..fmt import format_text
from ..lang.cancel import CheckCancelled
from ..lang.diagnostics import Diagnostic, Span
from . import analysis as an

_SYMBOL_KIND = {"card": lsp.SymbolKind.Class, "general": lsp.SymbolKind.Object, "skill": lsp.SymbolKind.Function,
                "mode": lsp.SymbolKind.Module, "value": lsp.SymbolKind.Constant, "rule": lsp.SymbolKind.Event,
                "procedure": lsp.SymbolKind.Function}
_COMPLETION_KIND = {"card": lsp.CompletionItemKind.Class, "general": lsp.CompletionItemKind.Struct,
                    "skill": lsp.CompletionItemKind.Method, "mode": lsp.CompletionItemKind.Module,
                    "value": lsp.CompletionItemKind.Constant, "rule": lsp.CompletionItemKind.Event,
                    "action": lsp.CompletionItemKind.Function, "function": lsp.CompletionItemKind.Function,
                    "constant": lsp.CompletionItemKind.Constant, "timing": lsp.CompletionItemKind.Event,
                    "field": lsp.CompletionItemKind.Field, "procedure": lsp.CompletionItemKind.Function}


DEBOUNCE = 0.25  # seconds of quiet after an edit before the document is checked


class SgsServer(LanguageServer):
    """Keeps the latest analysis of each open document."""

    def __init__(self) -> None:
        super().__init__("sgsdsl", "0.1")
        self.analyses: dict[str, an.Analysis] = {}
        self.generation: dict[str, int] = {}  # per open document: bumped by every open, edit and close
        self.checks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sgsdsl-check")

    def is_open(self, uri: str) -> bool:
        return uri in self.generation

    def edited(self, uri: str) -> int:
        self.generation[uri] = self.generation.get(uri, 0) + 1
        return self.generation[uri]

    async def check_later(self, uri: str) -> None:
        """Check URI after a pause in edits; a newer edit (or closing it) abandons this one, also mid-check."""
        mine = self.edited(uri)
        await asyncio.sleep(DEBOUNCE)
        if self.generation.get(uri) != mine:
            return
        stale = lambda: self.generation.get(uri) != mine  # noqa: E731 - polled by the checker's thread
        try:
            result = await asyncio.get_running_loop().run_in_executor(self.checks, self.analyze, uri, stale)
        except CheckCancelled:
            return
        if not stale():
            self.publish(uri, result)

    def analyze(self, uri: str, cancelled: object = None) -> an.Analysis:
        doc = self.workspace.get_text_document(uri)
        path = Path(to_fs_path(uri) or uri)
        text = doc.source
        try:
            return an.analyze(path, text, cancelled if callable(cancelled) else None)
        except CheckCancelled:
            raise
        except Exception as err:  # the editor must get a diagnostic, never a dead server
            return an.Analysis(an.display_path(path), text, [Diagnostic(
                "SGS-E000", f"internal error in sgsdsl ({type(err).__name__}); please report it",
                Span.point(an.display_path(path), 1, 1))])

    def publish(self, uri: str, result: an.Analysis) -> None:
        self.analyses[uri] = result
        mine = [d for d in result.diagnostics if d.span.file == result.shown]
        others = [d for d in result.diagnostics if d.span.file != result.shown]
        if others:  # a broken import: show it at the top of this file too, so it is not invisible
            first = others[0]
            mine.append(Diagnostic(first.code, f"in {first.span.file}:{first.span.line}: {first.message}",
                                   Span.point(result.shown, 1, 1), first.severity))
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, [_diagnostic(d) for d in mine]))

    def analysis(self, uri: str) -> an.Analysis | None:
        """The latest finished analysis of an open document (requests never wait for a check: one of a large
        document may take seconds); None for a URI the editor never opened or one whose first check is running."""
        return self.analyses.get(uri) if self.is_open(uri) else None


def _range(span: Span) -> lsp.Range:
    return lsp.Range(lsp.Position(span.line - 1, span.col - 1), lsp.Position(span.end_line - 1, span.end_col - 1))


def _diagnostic(d: Diagnostic) -> lsp.Diagnostic:
    severity = lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning
    message = d.message + (f"\n{d.suggestion}" if d.suggestion else "")
    return lsp.Diagnostic(_range(d.span), message, severity=severity, code=d.code, source="sgsdsl")


server = SgsServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: SgsServer, params: lsp.DidOpenTextDocumentParams) -> None:
    await ls.check_later(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: SgsServer, params: lsp.DidChangeTextDocumentParams) -> None:
    await ls.check_later(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SgsServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.generation.pop(params.text_document.uri, None)  # abandons a pending or running check of it
    ls.analyses.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: SgsServer, params: lsp.HoverParams) -> lsp.Hover | None:
    pos = params.position
    a = ls.analysis(params.text_document.uri)
    found = an.hover(a, pos.line, pos.character) if a is not None else None
    if found is None:
        return None
    text, (start, end) = found
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text),
                     lsp.Range(lsp.Position(pos.line, start), lsp.Position(pos.line, end)))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: SgsServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    pos = params.position
    a = ls.analysis(params.text_document.uri)
    found = an.completions(a, pos.line, pos.character) if a is not None else []
    items = [lsp.CompletionItem(label, kind=_COMPLETION_KIND.get(kind), detail=detail) for label, kind, detail in found]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: SgsServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    pos = params.position
    a = ls.analysis(params.text_document.uri)
    span = an.definition_at(a, pos.line, pos.character) if a is not None else None
    return lsp.Location(from_fs_path(span.file) or span.file, _range(span)) if span else None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: SgsServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    def sym(name: str, kind: str, node, children) -> lsp.DocumentSymbol:
        name_span = node.name.span
        return lsp.DocumentSymbol(name, _SYMBOL_KIND[kind], _range(node.span), _range(name_span), detail=kind,
                                  children=[sym(n, k, c, []) for n, k, c in children])

    a = ls.analysis(params.text_document.uri)
    return [sym(*s) for s in an.symbols(a.module)] if a is not None else []


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def code_actions(ls: SgsServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """Quick fixes: for a choice agents cannot aim (SGS-W407), write its `tags:` with each word it may take."""
    uri = params.text_document.uri
    a = ls.analysis(uri)
    out: list[lsp.CodeAction] = []
    for d in params.context.diagnostics:
        if a is None or d.code != "SGS-W407":
            continue
        r = d.range
        closing = an.choice_closing(a, Span(a.shown, r.start.line + 1, r.start.character + 1, r.end.line + 1,
                                            r.end.character + 1))
        if closing is None:
            continue
        at = lsp.Position(*closing)
        for word in an.AIM_WORDS:
            edit = lsp.TextEdit(lsp.Range(at, at), f', tags: "{word}"')
            out.append(lsp.CodeAction(f'say whom it is for: tags: "{word}"', kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[d], edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    return out


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: SgsServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    if not ls.is_open(params.text_document.uri):
        return None
    doc = ls.workspace.get_text_document(params.text_document.uri)
    result = format_text(doc.source)
    if result.text is None or result.text == doc.source:
        return [] if result.text is not None else None
    lines = doc.source.split("\n")
    end = lsp.Position(len(lines) - 1, len(lines[-1]))
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), result.text)]


def main() -> None:
    server.start_io()
