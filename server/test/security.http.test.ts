/**
 * The security review's checks on the HTTP surface (issue 7, item 4; docs/SECURITY.md): rate limits
 * (and the client address behind a proxy), helmet's headers and CORS on every kind of answer (basics.test.ts
 * checks them on one answer each), and the RPC URL's key kept out of /api/health.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { RunningServer } from "../src/index";
import { call, DASHBOARD_ORIGIN, emailUser, randomAddress, stack, startTestServer } from "./helpers";
import { expectRefusal } from "./securityHelpers";

describe("Security review", () => {
  describe("rate limits", () => {
    const csv = `name,address\nBob,${randomAddress()}\n`;

    it("answers contact imports past the CSV limit with 429 JSON, its policy in the headers", async () => {
      const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "2" });
      try {
        const { idToken } = await emailUser();
        const send = () => call(limited, "POST", "/api/contacts/import", { token: idToken, body: { csvData: csv } });
        expect((await send()).status).to.equal(200);
        expect((await send()).status).to.equal(200);
        const third = await send();
        expectRefusal(third, 429, "Too many CSV uploads from this address: wait a minute and try again.");
        expect(third.headers.get("ratelimit-policy")).to.match(/q=2\b/);
        expect(third.headers.get("x-content-type-options"), "helmet runs before the limiter").to.equal("nosniff");
      } finally {
        await limited.close();
      }
    });

    it("counts each client behind the dashboard's proxy apart, by the address the proxy appends", async () => {
      const limited = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: "2" });
      try {
        // What the Vite proxy (xfwd) sends: whatever the browser claimed, then the address it saw.
        const nonce = (forwardedFor: string) => call(limited, "POST", "/api/auth/nonce", { headers: { "x-forwarded-for": forwardedFor } });
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expectRefusal(await nonce("198.51.100.7"), 429, "Too many sign-in requests from this address: wait a minute and try again.");
        // A client cannot start afresh by claiming another address in front of its real one.
        expectRefusal(await nonce("203.0.113.9, 198.51.100.7"), 429);
        // Another client behind the same proxy has its own budget: one user cannot lock everyone out.
        expect((await nonce("198.51.100.8")).status).to.equal(200);
      } finally {
        await limited.close();
      }
    });

    it("ignores X-Forwarded-For entirely with TRUST_PROXY=off", async function () {
      // It starts a server of its own, which took over 30 s while both CI lanes shared the cores.
      this.timeout(90_000);
      const limited = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: "2", TRUST_PROXY: "off" });
      try {
        const nonce = (forwardedFor: string) => call(limited, "POST", "/api/auth/nonce", { headers: { "x-forwarded-for": forwardedFor } });
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expect((await nonce("198.51.100.8")).status).to.equal(200);
        expectRefusal(await nonce("198.51.100.9"), 429);
      } finally {
        await limited.close();
      }
    });
  });

  describe("security headers and CORS on API answers", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server.close();
    });

    it("sends helmet's headers on answers of every kind: 200, 400, 401, 404", async () => {
      const answers = {
        200: await call(server, "GET", "/api/health"),
        400: await call(server, "POST", "/api/auth/wallet-auth", { body: "{" }),
        401: await call(server, "GET", "/api/contacts", { token: "forged" }),
        404: await call(server, "GET", "/api/no-such-thing"),
      };
      for (const [status, answer] of Object.entries(answers)) {
        expect(answer.status).to.equal(Number(status));
        const h = (name: string) => answer.headers.get(name);
        expect(h("x-content-type-options"), status).to.equal("nosniff");
        expect(h("x-frame-options"), status).to.equal("DENY");
        expect(h("content-security-policy"), status)
          .to.contain("frame-ancestors 'none'")
          .and.contain("default-src 'self'")
          .and.contain("object-src 'none'");
        expect(h("strict-transport-security"), status).to.match(/^max-age=\d{8,}; includeSubDomains$/);
        expect(h("referrer-policy"), status).to.equal("no-referrer");
        expect(h("cross-origin-resource-policy"), status).to.equal("same-origin");
        expect(h("x-powered-by"), status).to.equal(null);
        expect(h("content-type"), status).to.match(/^application\/json/);
      }
    });

    it("answers a preflight from the dashboard's origin, and nobody else's", async () => {
      const preflight = (origin: string) =>
        call(server, "OPTIONS", "/api/contacts/1", {
          headers: { origin, "access-control-request-method": "DELETE", "access-control-request-headers": "authorization,content-type" },
        });
      const ours = await preflight(DASHBOARD_ORIGIN);
      expect(ours.status).to.equal(204);
      expect(ours.headers.get("access-control-allow-origin")).to.equal(DASHBOARD_ORIGIN);
      expect(ours.headers.get("access-control-allow-methods")).to.contain("DELETE");
      expect(ours.headers.get("access-control-allow-headers")).to.contain("authorization");
      // Look-alikes: a suffix, a prefix, another port, another scheme, a sandboxed frame's "null".
      for (const origin of [
        "https://evil.example",
        `${DASHBOARD_ORIGIN}.evil.example`,
        "http://127.0.0.1:51730",
        "https://127.0.0.1:5173",
        "null",
      ]) {
        const theirs = await preflight(origin);
        expect(theirs.headers.get("access-control-allow-origin"), origin).to.equal(null);
      }
    });

    it("gives another origin no Access-Control-Allow-Origin on a signed-in answer, and says it varies by Origin", async () => {
      const { idToken } = await emailUser();
      const evil = await call(server, "GET", "/api/contacts", { token: idToken, headers: { origin: "https://evil.example" } });
      expect(evil.status, "CORS is the browser's check; the server still answers the token").to.equal(200);
      expect(evil.headers.get("access-control-allow-origin")).to.equal(null);
      const ours = await call(server, "GET", "/api/contacts", { token: idToken, headers: { origin: DASHBOARD_ORIGIN } });
      expect(ours.headers.get("access-control-allow-origin")).to.equal(DASHBOARD_ORIGIN);
      // A shared cache must not hand the dashboard's CORS answer to another origin, or the reverse.
      expect(ours.headers.get("vary")).to.match(/\bOrigin\b/);
    });
  });

  describe("secrets in the server's settings", () => {
    it("never shows the RPC URL's key in /api/health, even when the provider refuses it", async () => {
      // A stand-in for a node provider whose URL carries the key (https://…/v3/<key>): it forwards to
      // the test node, then answers 401 as a provider does for a revoked or rate-limited key.
      const KEY = "0123456789abcdefSECRETKEY";
      let refuse = false;
      const provider = http.createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", async () => {
          if (refuse) {
            res.writeHead(401, { "content-type": "text/plain" }).end("invalid project id");
            return;
          }
          const answer = await fetch(stack().rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
          res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
        });
      });
      await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
      const origin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
      const server = await startTestServer({ RPC_URL: `${origin}/v3/${KEY}` });
      try {
        expect((await call(server, "GET", "/api/health")).status).to.equal(200);
        refuse = true;
        let health = await call(server, "GET", "/api/health");
        // Health asks the node nothing: its chain part turns at the loops' next failed head read,
        // which can come a poll after the indexer's first error.
        for (let i = 0; i < 300 && (health.body.indexer.lastError === null || health.body.chain.ok !== false); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          health = await call(server, "GET", "/api/health");
        }
        expect(health.status).to.equal(503);
        expect(health.body.chain.error).to.equal(`the RPC node at ${origin} is not answering`);
        // The loops' own errors are there (the test is not passing on an empty answer)...
        expect(health.body.indexer.lastError).to.be.a("string").and.not.equal("");
        // ...and the key is nowhere in them, whoever wrote them (ethers puts the URL in its errors).
        expect(JSON.stringify(health.body)).not.to.contain(KEY);
      } finally {
        await server.close();
        provider.closeAllConnections();
        await new Promise((resolve) => provider.close(resolve));
      }
    });
  });
});
