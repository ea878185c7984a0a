// The rules-dsl extension: .rules files are coloured by the TextMate grammar of syntaxes/ (declared
// in package.json, nothing to run), and checked by the language server 'rules lsp', started here
// over stdio when the first .rules file opens (VS Code activates the extension on its language).
// Settings: rulesDsl.command (default 'rules') and rulesDsl.args (default ['lsp']); a change of
// either restarts the server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function start() {
  const settings = vscode.workspace.getConfiguration("rulesDsl");
  const server = {
    command: settings.get("command", "rules"),
    args: settings.get("args", ["lsp"]),
    transport: TransportKind.stdio,
  };
  client = new LanguageClient("rulesDsl", "rules-dsl", server, {
    documentSelector: [{ language: "rules" }],
  });
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `rules-dsl: could not start '${server.command} ${server.args.join(" ")}' (${error.message}); ` +
        "install rules-dsl, or set rulesDsl.command to the rules program of its environment."
    );
  });
}

function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("rulesDsl")) {
        await deactivate();
        await start();
      }
    })
  );
  return start();
}

function deactivate() {
  const running = client;
  client = undefined;
  return running ? running.stop().catch(() => undefined) : undefined;
}

module.exports = { activate, deactivate };
