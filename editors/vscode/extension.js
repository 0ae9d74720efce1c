// Starts `sgsdsl lsp` for .sgs files; everything else (diagnostics, hover, completion...) is the server's.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("sgsdsl").get("command") || ["sgsdsl", "lsp"];
  client = new LanguageClient(
    "sgsdsl",
    "sgsdsl language server",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "sgs" }, { scheme: "untitled", language: "sgs" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
