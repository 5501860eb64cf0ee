import { expect } from "chai";
import type { RunningServer } from "../src/index";
import { SEEDED_ACCOUNTS } from "@common/seedAccounts";
import type { DashboardConfig } from "@common/apiTypes";
import { call, DASHBOARD_ORIGIN, stack, startTestServer } from "./helpers";
import { rpc } from "./stack";

/** One of the development wallet's accounts, as GET /api/config lists them. */
type DevAccount = NonNullable<DashboardConfig["devAccounts"]>[number];

describe("API basics", () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("keeps an idle connection open for 65 s and says so, longer than a load balancer keeps its own (60 s by default)", async () => {
    const { headers } = await call(server, "GET", "/api/live");
    expect(headers.get("keep-alive")).to.equal("timeout=65");
  });

  describe("GET /api/health", () => {
    it("is green when the chain, the database, the auth emulator and the indexer all answer", async () => {
      const { status, body } = await call(server, "GET", "/api/health");
      expect(status).to.equal(200);
      expect(body.status).to.equal("ok");
      expect(body.chain.ok).to.equal(true);
      expect(body.database).to.deep.equal({ ok: true, kind: "pglite" });
      expect(body.auth).to.deep.equal({ ok: true, mode: "emulator" });
      expect(body.indexer.lag).to.equal(0);
      expect(body.indexer.checkpoint).to.equal(body.chain.blockNumber);
      expect(body.batchWatcher).to.deep.equal({ running: true, lastError: null });
      expect(body.mockBank).to.deep.equal({ enabled: true, running: true, lastError: null });
      expect(body.alerts).to.deep.equal({ running: true, lastError: null });
    });
  });

  describe("GET /api/config", () => {
    it("tells the dashboard the network, the deployed addresses, Firebase and the development wallet's accounts", async () => {
      const { status, body } = await call(server, "GET", "/api/config");
      expect(status).to.equal(200);
      const { manifest } = server.services.chain;
      expect(body).to.deep.include({
        network: "localhost",
        chainId: 31337,
        chainIdHex: "0x7a69",
        explorerUrl: null,
        rpcUrl: stack().rpcUrl,
      });
      expect(body.contracts).to.deep.equal({
        proxy: manifest.proxy,
        implementation: manifest.implementation,
        owner: manifest.owner,
        batchPayments: manifest.batchPayments,
        deploymentBlock: manifest.deploymentBlock,
      });
      expect(body.firebase).to.deep.include({ projectId: "demo-usdx", emulatorUrl: `http://${stack().emulatorHost}` });
      // The local chain is no fork: the badge names it by its label.
      expect(body).to.deep.include({ networkLabel: "Hardhat Local", fork: null });
      // The local chain never reorganises: mined is final.
      expect(body.confirmations).to.equal(0);
      // The oracle's guard: a rise of more than 1% of every balance, or any decrease, is typed again.
      expect(body.multiplierMaxStepPercent).to.equal(1);
      const nodeAccounts = await rpc<string[]>(stack().rpcUrl, "eth_accounts");
      for (const account of body.devAccounts) {
        expect(account.address.toLowerCase(), account.name).to.equal(
          nodeAccounts[SEEDED_ACCOUNTS.find((a) => a.name === account.name)!.index],
        );
      }
      expect(body.devAccounts.find((a: DevAccount) => a.name === "minter")?.roles).to.deep.equal(["MINTER_ROLE"]);
    });
  });

  describe("every answer is JSON, errors as { success: false, error }", () => {
    it("answers an unknown endpoint with a JSON 404", async () => {
      const { status, body } = await call(server, "GET", "/api/nothing-here?x=1");
      expect(status).to.equal(404);
      expect(body).to.deep.equal({ success: false, error: "No such endpoint: GET /api/nothing-here" });
    });

    it("answers malformed JSON with 400", async () => {
      const { status, body } = await call(server, "POST", "/api/auth/wallet-auth", { body: '{"address": ' });
      expect(status).to.equal(400);
      expect(body).to.deep.equal({ success: false, error: "Malformed JSON in the request body." });
    });

    it("answers a body over 1 MB with 413", async () => {
      const { status, body } = await call(server, "POST", "/api/auth/wallet-auth", { body: { message: "x".repeat(1_100_000) } });
      expect(status).to.equal(413);
      expect(body.error).to.equal("The request body is larger than the 1 MB limit.");
    });

    it("answers wrong types with 400 naming each field", async () => {
      const { status, body } = await call(server, "POST", "/api/auth/wallet-auth", { body: { address: 42, message: [], signature: null } });
      expect(status).to.equal(400);
      expect(body.error).to.match(/^Invalid request body: address: .*; message: .*; signature: /);
    });

    it("answers a non-JSON body with 400, not a crash", async () => {
      const { status, body } = await call(server, "POST", "/api/auth/wallet-auth", {
        body: "address=0x1",
        headers: { "content-type": "text/plain" },
      });
      expect(status).to.equal(400);
      expect(body.success).to.equal(false);
    });
  });

  describe("security headers and CORS", () => {
    it("sends helmet's headers and no X-Powered-By", async () => {
      const { headers } = await call(server, "GET", "/api/health");
      expect(headers.get("x-content-type-options")).to.equal("nosniff");
      expect(headers.get("content-security-policy")).to.contain("default-src 'self'");
      expect(headers.get("x-powered-by")).to.equal(null);
    });

    it("allows the dashboard's origin and no other", async () => {
      const ours = await call(server, "GET", "/api/token", { headers: { origin: DASHBOARD_ORIGIN } });
      expect(ours.headers.get("access-control-allow-origin")).to.equal(DASHBOARD_ORIGIN);
      const theirs = await call(server, "GET", "/api/token", { headers: { origin: "https://evil.example" } });
      expect(theirs.headers.get("access-control-allow-origin")).to.equal(null);
    });
  });
});
