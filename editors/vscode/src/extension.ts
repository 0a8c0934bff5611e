// Starts `rulec lsp` for .rule files; everything else (diagnostics, fixes, formatting,
// hover, lenses) is the server's. The `rulec.show` command opens what a lens carries.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = vscode.workspace.getConfiguration("rulec").get<string>("path", "rulec");
  const server: ServerOptions = { command, args: ["lsp"] };
  const options: LanguageClientOptions = { documentSelector: [{ scheme: "file", language: "rule" }] };
  client = new LanguageClient("rulec", "rulec", server, options);
  context.subscriptions.push(
    vscode.commands.registerCommand("rulec.show", async (shown: unknown) => {
      const text = typeof shown === "string" ? shown : JSON.stringify(shown, null, 2);
      const doc = await vscode.workspace.openTextDocument({ content: text, language: "json" });
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
