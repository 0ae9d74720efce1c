"""Editor files: the TextMate grammar is valid JSON that classifies the language's words, the VS Code
extension folder is complete, and the Pygments lexer reads every bundled .sgs file without an error token."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from pygments.token import Error, Keyword, Name

from sgsdsl.highlight import SgsLexer, keywords, textmate_grammar

ROOT = Path(__file__).resolve().parent.parent
EDITORS = ROOT / "editors"
GRAMMAR = EDITORS / "vscode" / "syntaxes" / "sgs.tmLanguage.json"
BUNDLED = sorted(p for p in ROOT.rglob("*.sgs") if not {"generated", ".git"} & set(p.relative_to(ROOT).parts)
                 and "bad" not in p.relative_to(ROOT).parts)


def test_textmate_grammar_loads_and_its_patterns_compile() -> None:
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.sgs" and grammar["fileTypes"] == ["sgs"]
    for name, rule in grammar["repository"].items():
        re.compile(rule["match"])  # the patterns use only syntax Oniguruma and Python share
        assert {"include": f"#{name}"} in grammar["patterns"]
    kw = re.compile(grammar["repository"]["keyword"]["match"])
    for word in ("card", "skill", "on", "where", "if", "else", "for", "let", "optional"):
        assert kw.fullmatch(word), word
    assert not kw.fullmatch("draw") and not kw.fullmatch("owner")
    assert re.fullmatch(grammar["repository"]["face"]["match"], "♠10")


def test_textmate_grammar_file_is_what_the_generator_writes_for_these_keywords() -> None:
    """The committed file was generated (`python3 -m sgsdsl.highlight`); only its keyword list may lag behind
    a grammar change, which highlights a new keyword as a name until the file is regenerated."""
    committed = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    fresh = textmate_grammar()
    committed["repository"].pop("keyword")
    fresh["repository"].pop("keyword")
    assert committed == fresh


def test_vscode_extension_folder() -> None:
    pkg = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    lang = pkg["contributes"]["languages"][0]
    assert lang["id"] == "sgs" and lang["extensions"] == [".sgs"]
    assert (EDITORS / "vscode" / lang["configuration"]).is_file()
    json.loads((EDITORS / "vscode" / lang["configuration"]).read_text(encoding="utf-8"))
    assert (EDITORS / "vscode" / pkg["contributes"]["grammars"][0]["path"]).resolve() == GRAMMAR.resolve()
    client = (EDITORS / "vscode" / pkg["main"]).read_text(encoding="utf-8")
    assert '"sgsdsl", "lsp"' in client and "vscode-languageclient" in json.dumps(pkg["dependencies"])


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_lexer_reads_every_bundled_file_without_error_tokens(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = list(SgsLexer().get_tokens(text))
    errors = [v for t, v in tokens if t in Error]
    assert not errors, errors[:5]
    assert "".join(v for _, v in tokens) == text if text.endswith("\n") else text + "\n"


def test_lexer_classes() -> None:
    toks = [(t, v) for t, v in SgsLexer().get_tokens('card 杀 sha : basic { copies ♠7 effect { draw(user, 1) } }')
            if v.strip()]
    assert (Keyword.Declaration, "card") in toks and (Name.Class, "杀") in toks
    assert (Name.Function, "draw") in toks and (Keyword, "effect") in toks
    assert set(keywords()) >= {"card", "general", "skill", "where", "optional", "turn_order"}


def test_pygments_entry_point_is_declared() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["entry-points"]["pygments.lexers"]["sgs"] == "sgsdsl.highlight:SgsLexer"
