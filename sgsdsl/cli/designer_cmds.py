"""The designer tooling commands (explain, lsp, docs), gathered in one place so the CLI registers them apart."""

from __future__ import annotations

from . import docs_cmd, explain_cmd, lsp_cmd

COMMANDS = [*explain_cmd.COMMANDS, *lsp_cmd.COMMANDS, *docs_cmd.COMMANDS]
