import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The development wallet (frontend/src/lib/wallet/devWallet.ts, which imports nothing) as a page
 * script: injected before the app loads and announced through EIP-6963, so the dashboard sees an
 * ordinary injected wallet. `window.__e2eWallet` lets a test switch accounts, refuse a request, or
 * read the methods the page asked of the wallet (`requests`).
 */
export const E2E_WALLET_NAME = "E2E Wallet";

let compiled: string | null = null;

function devWalletSource(): string {
  if (compiled) return compiled;
  const file = path.resolve(__dirname, "..", "frontend", "src", "lib", "wallet", "devWallet.ts");
  const js = ts.transpileModule(readFileSync(file, "utf8"), {
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ES2020 },
  }).outputText;
  // A page script has no modules: the exports become plain declarations inside the IIFE.
  compiled = js.replace(/^export /gm, "");
  return compiled;
}

export function walletInitScript(rpcUrl: string, address: string): string {
  return `(() => {
${devWalletSource()}
  const wallet = createDevWallet(${JSON.stringify(rpcUrl)}, ${JSON.stringify(address)});
  window.__e2eWallet = wallet;
  const info = { uuid: "6f1c1b1e-0000-4000-8000-00000000e2e0", name: ${JSON.stringify(E2E_WALLET_NAME)}, icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>", rdns: "test.usdx.e2e" };
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider: wallet }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
})();`;
}
