// Starts `skanc lsp` for .skan documents; everything else (diagnostics, formatting, hover, completion, quick
// fixes, rename) is the server's.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

exports.activate = function activate() {
  const command = vscode.workspace.getConfiguration("skan").get("path") || "skanc";
  client = new LanguageClient(
    "skanc",
    "skanc",
    { command, args: ["lsp"] },
    {
      documentSelector: [{ language: "skan" }],
      // skanc.against: the released version to check against, sent at start and on every change.
      initializationOptions: { against: vscode.workspace.getConfiguration("skanc").get("against") || "" },
      synchronize: { configurationSection: "skanc" },
    }
  );
  return client.start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};
