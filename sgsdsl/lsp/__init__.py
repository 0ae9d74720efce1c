"""The .sgs language server (`sgsdsl lsp`, optional extra `sgsdsl[lsp]`): analysis.py knows the language,
server.py speaks the protocol through pygls."""
