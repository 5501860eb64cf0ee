/**
 * HTTP/2 when a certificate is configured (issue 32): with TLS_CERT and TLS_KEY the server listens
 * on TLS, HTTP/2 for clients that offer it (ALPN h2) and HTTP/1.1 for the others on the same port
 * (server/src/listen.ts), and answers over HTTP/2 exactly what it answers over HTTP/1.1. The
 * certificate is made at test time by the selfsigned package (no network, no openssl) for 127.0.0.1.
 */
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { expect } from "chai";
import { sql } from "drizzle-orm";
import { generate } from "selfsigned";
import { contentSecurityPolicy } from "../../common/securityHeaders";
import { ConfigError, servingEnv } from "../src/config";
import { IMMUTABLE, REVALIDATE } from "../src/dashboard";
import type { RunningServer } from "../src/index";
import { DRAIN_MS, KEEP_ALIVE_MS } from "../src/listen";
import { EXPORT_PAGE_ROWS } from "../src/services/indexing/exports";
import { type DashboardBuild, dashboardBuild, ROOT_PRELOADS } from "./dashboardBuild";
import { DASHBOARD_ORIGIN, emailUser, randomAddress, startTestServer, testConfig } from "./helpers";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

let cert: string;
let files: { dir: string; cert: string; key: string };

/** An HTTP/2 session to the server from `from`, a loopback address: the peer the server sees. */
async function connect(server: RunningServer, from = "127.0.0.1"): Promise<http2.ClientHttp2Session> {
  const { port } = new URL(server.url);
  const socket = () =>
    tls.connect({ socket: net.connect({ host: "127.0.0.1", port: Number(port), localAddress: from }), ca: cert, ALPNProtocols: ["h2"] });
  const session = http2.connect(server.url, { createConnection: socket });
  await Promise.race([once(session, "connect"), once(session, "error").then(([error]) => Promise.reject(error))]);
  return session;
}

/** One request on `session`; a body is sent with its Content-Length unless `headers` names none (then it is streamed). */
function onSession(session: http2.ClientHttp2Session, path: string, sent: Sent = {}): Promise<Answer> {
  const stream = session.request({ ":method": sent.method ?? "GET", ":path": path, ...sent.headers });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.once("response", ({ ":status": status, ...headers }) => {
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.once("end", () => resolve({ status: Number(status), headers, body: Buffer.concat(chunks) }));
    });
    stream.once("error", reject);
    stream.end(sent.body);
  });
}

async function overHttp2(server: RunningServer, path: string, sent: Sent & { from?: string } = {}): Promise<Answer> {
  const session = await connect(server, sent.from);
  try {
    return await onSession(session, path, sent);
  } finally {
    session.close();
  }
}

/** One request over HTTP/1.1 on TLS: ALPN offering only http/1.1, or (alpn false) no ALPN at all, as older clients send. */
function overHttp1(
  server: RunningServer,
  path: string,
  sent: Sent & { alpn?: boolean } = {},
): Promise<Answer & { protocol: string | false | null }> {
  const { port } = new URL(server.url);
  const alpn = sent.alpn === false ? {} : { ALPNProtocols: ["http/1.1"] };
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: "127.0.0.1",
      port,
      path,
      method: sent.method ?? "GET",
      // Kept alive as a browser's is (an agent-less request asks for Connection: close), then closed here.
      headers: { connection: "keep-alive", ...sent.headers },
      ca: cert,
      agent: false,
      ...alpn,
    });
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      const socket = res.socket as tls.TLSSocket;
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("end", () => {
        socket.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), protocol: socket.alpnProtocol });
      });
    });
    req.once("error", reject);
    req.end(sent.body);
  });
}

/**
 * What a client reads of an answer, less what differs from one request to the next whatever the
 * protocol (the clock, a rate limit's remaining budget) and the headers of an HTTP/1.1 connection,
 * which HTTP/2 has none of.
 */
const UNCOMPARED = new Set(["date", "ratelimit", "connection", "keep-alive", "transfer-encoding"]);
function seen({ status, headers, body }: Answer) {
  // A 204 has no Content-Length (RFC 9110, 8.6): cors sends "0" on a preflight's, Node's HTTP/2 leaves it out.
  const compared = Object.entries(headers).filter(([name]) => !UNCOMPARED.has(name) && !(status === 204 && name === "content-length"));
  return { status, headers: Object.fromEntries(compared), body: body.toString("base64") };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = (answer: Answer) => JSON.parse(answer.body.toString("utf8"));

describe("HTTP/2 when a certificate is configured (TLS_CERT, TLS_KEY)", () => {
  before(async () => {
    // EC P-256 with a SHA-256 signature; 127.0.0.1 in its names, as a client that checks it needs.
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    });
    cert = pems.cert;
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-tls-test-"));
    files = { dir, cert: path.join(dir, "cert.pem"), key: path.join(dir, "key.pem") };
    writeFileSync(files.cert, pems.cert);
    writeFileSync(files.key, pems.private);
  });
  after(() => rmSync(files.dir, { recursive: true, force: true }));

  describe("the server on TLS", () => {
    let build: DashboardBuild;
    let server: RunningServer;
    let closed = false;
    const SIGN_INS_PER_MINUTE = 3;

    before(async () => {
      build = dashboardBuild();
      // TRUST_PROXY=off: the client's address is the connection's peer, whatever X-Forwarded-For says.
      const settings = { DASHBOARD_DIST: build.dist, TLS_CERT: files.cert, TLS_KEY: files.key };
      server = await startTestServer({ ...settings, TRUST_PROXY: "off", RATE_LIMIT_AUTH_PER_MINUTE: String(SIGN_INS_PER_MINUTE) });
    });
    after(async () => {
      if (!closed) await server?.close();
      build?.remove();
    });

    it("negotiates h2 by ALPN, and names its https URL", async () => {
      const session = await connect(server);
      try {
        expect(session.alpnProtocol).to.equal("h2");
        expect((await onSession(session, "/api/live")).status).to.equal(200);
      } finally {
        session.close();
      }
      expect(server.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(server.services.serving.url).to.equal(server.url);
    });

    it("sends the dashboard's files as over HTTP/1.1: the same status, headers and bytes (brotli copies, Link, caching, CSP)", async () => {
      for (const [route, accepts] of [
        ["/", "br, gzip"],
        ["/payments", "gzip"],
        ["/assets/app-Kq2PRE.js", "gzip, deflate, br, zstd"],
        ["/assets/index-Bx3k9Q.js", "gzip"], // no copy: compressed on the fly
        ["/robots.txt", "identity"],
        ["/assets/index-old.js", "br"],
        ["/%2e%2e/secret.txt", "br"],
      ]) {
        const sent = { headers: { "accept-encoding": accepts } };
        const [h2, h1] = [await overHttp2(server, route, sent), await overHttp1(server, route, sent)];
        expect(seen(h2), route).to.deep.equal(seen(h1));
      }
      const head = { method: "HEAD", headers: { "accept-encoding": "br" } };
      expect(seen(await overHttp2(server, "/contacts", head))).to.deep.equal(seen(await overHttp1(server, "/contacts", head)));

      const page = await overHttp2(server, "/", { headers: { "accept-encoding": "br, gzip" } });
      expect([page.status, page.headers["content-encoding"]]).to.deep.equal([200, "br"]);
      expect(page.body.equals(readFileSync(path.join(build.dist, "index.html.br")))).to.equal(true);
      expect(page.headers.link).to.equal(ROOT_PRELOADS);
      expect(page.headers["cache-control"]).to.equal(REVALIDATE);
      expect(page.headers["content-security-policy"]).to.equal(contentSecurityPolicy());
      expect(page.headers.vary).to.match(/accept-encoding/i);
      const asset = await overHttp2(server, "/assets/app-Kq2PRE.js", { headers: { "accept-encoding": "br" } });
      expect([asset.status, asset.headers["content-encoding"], asset.headers["cache-control"]]).to.deep.equal([200, "br", IMMUTABLE]);
      expect(asset.body.equals(readFileSync(path.join(build.dist, "assets", "app-Kq2PRE.js.br")))).to.equal(true);
    });

    it("answers the API as over HTTP/1.1: helmet's headers, CORS, JSON errors", async () => {
      const health = await overHttp2(server, "/api/health");
      expect([health.status, json(health).status]).to.deep.equal([200, "ok"]);
      expect(health.headers["strict-transport-security"]).to.match(/^max-age=/);
      const preflight = {
        method: "OPTIONS",
        headers: { origin: DASHBOARD_ORIGIN, "access-control-request-method": "DELETE", "access-control-request-headers": "authorization" },
      };
      for (const [route, sent] of [
        ["/api/config", { headers: { origin: DASHBOARD_ORIGIN } }],
        ["/api/contacts/1", preflight],
        ["/api/no-such-thing", {}],
      ] as const) {
        const [h2, h1] = [await overHttp2(server, route, sent), await overHttp1(server, route, sent)];
        expect(seen(h2), route).to.deep.equal(seen(h1));
      }
    });

    it("reads JSON bodies, with a Content-Length or streamed without one, and answers a malformed one with the 400 sentence", async () => {
      const { idToken } = await emailUser();
      const address = randomAddress();
      const body = JSON.stringify({ csvData: `Name,Address,Amount\nBob,${address},12.5\n` });
      const headers = { authorization: `Bearer ${idToken}`, "content-type": "application/json" };
      const sized = { ...headers, "content-length": String(Buffer.byteLength(body)) };
      const [h2, h2Streamed, h1] = [
        await overHttp2(server, "/api/batch/parse-csv", { method: "POST", headers: sized, body }),
        await overHttp2(server, "/api/batch/parse-csv", { method: "POST", headers, body }),
        await overHttp1(server, "/api/batch/parse-csv", { method: "POST", headers: sized, body }),
      ];
      expect(h2.status, h2.body.toString()).to.equal(200);
      expect(json(h2).data.validRecipients).to.deep.equal([{ line: 2, name: "Bob", address, amount: "12.5" }]);
      expect(seen(h2Streamed)).to.deep.equal(seen(h2));
      expect(seen(h2)).to.deep.equal(seen(h1));

      const malformed = await overHttp2(server, "/api/batch/parse-csv", { method: "POST", headers, body: '{"csvData": "Name,' });
      expect([malformed.status, json(malformed)]).to.deep.equal([400, { success: false, error: "Malformed JSON in the request body." }]);
    });

    it("streams a CSV export as over HTTP/1.1", async () => {
      const { idToken } = await emailUser();
      const sent = { headers: { authorization: `Bearer ${idToken}` } };
      const [h2, h1] = [await overHttp2(server, "/api/holders/export", sent), await overHttp1(server, "/api/holders/export", sent)];
      expect([h2.status, h2.headers["content-type"]]).to.deep.equal([200, "text/csv; charset=utf-8"]);
      expect(h2.body.toString("utf8").split("\r\n").length, "a header row and the seeded holders").to.be.greaterThan(2);
      expect(seen(h2)).to.deep.equal(seen(h1));
    });

    it("stops reading an export's pages once its client cancels the stream", async () => {
      // Twenty pages of Approval rows in the head's block (only this server's database holds them).
      const pages = 20;
      const head = (await server.services.events.indexedBlock())!;
      const [owner, spender] = [randomAddress(), randomAddress()];
      await server.services.db.db.execute(sql`
        insert into chain_events (block_number, log_index, block_hash, block_time, transaction_hash, contract, event_name, signature, args)
        select ${head}::bigint, 100000 + g, '0x' || repeat('b', 64), 1767225600, '0x' || lpad(to_hex(g), 64, '0'), 'USDX', 'Approval', 'Approval(address,address,uint256)',
          jsonb_build_object('owner', ${owner}::text, 'spender', ${spender}::text, 'value', '1')
        from generate_series(1, ${pages * EXPORT_PAGE_ROWS}) g`);
      let reads = 0;
      const exportsService = server.services.exports as unknown as {
        pages(read: (p: unknown) => Promise<unknown[]>): AsyncGenerator<unknown>;
      };
      const pagesOf = exportsService.pages.bind(exportsService);
      exportsService.pages = (read) => pagesOf(async (p) => ((reads += 1), read(p)));
      const { idToken } = await emailUser();
      const session = await connect(server);
      try {
        const path = `/api/events/export?eventName=Approval&fromBlock=${head}`;
        const stream = session.request({ ":path": path, authorization: `Bearer ${idToken}` });
        await once(stream, "data");
        stream.pause(); // the server fills the stream's window, then waits for it to drain
        await sleep(300);
        const before = reads;
        expect(before, "the export waits for the client instead of reading ahead").to.be.below(pages);
        stream.close(http2.constants.NGHTTP2_CANCEL);
        await sleep(500);
        expect(reads, "no page is read once the client has gone").to.equal(before);
      } finally {
        exportsService.pages = pagesOf;
        session.close();
      }
    });

    it("keys the rate limits on the connection's own peer, which X-Forwarded-For cannot change", async () => {
      const nonce = (from: string, headers: Record<string, string> = {}) =>
        overHttp2(server, "/api/auth/nonce", { method: "POST", from, headers });
      for (let i = 0; i < SIGN_INS_PER_MINUTE; i++) expect((await nonce("127.0.0.2")).status).to.equal(200);
      const refused = await nonce("127.0.0.2");
      expect([refused.status, json(refused).error]).to.deep.equal([
        429,
        "Too many sign-in requests from this address: wait a minute and try again.",
      ]);
      expect((await nonce("127.0.0.2", { "x-forwarded-for": "198.51.100.7" })).status).to.equal(429);
      // Another peer has a budget of its own: the address is the client's, not one shared by every HTTP/2 request.
      expect((await nonce("127.0.0.3")).status).to.equal(200);
    });

    it("still answers HTTP/1.1 clients on the same port, and what Node's parser refuses with the JSON sentence", async () => {
      for (const alpn of [true, false]) {
        const answer = await overHttp1(server, "/api/live", { alpn });
        expect([answer.status, answer.protocol], `ALPN offered: ${alpn}`).to.deep.equal([200, alpn ? "http/1.1" : false]);
        expect(answer.headers["keep-alive"]).to.equal(`timeout=${KEEP_ALIVE_MS / 1000}`);
      }
      const socket = tls.connect({ host: "127.0.0.1", port: Number(new URL(server.url).port), ca: cert, ALPNProtocols: ["http/1.1"] });
      await once(socket, "secureConnect");
      socket.end("NOT HTTP\r\n\r\n");
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      await once(socket, "close");
      const [head, body] = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n");
      expect(head.split("\r\n")[0]).to.equal("HTTP/1.1 400 Bad Request");
      expect(JSON.parse(body)).to.deep.equal({ success: false, error: "The request is not valid HTTP." });
    });

    // Last: it stops the server.
    it("close() tells open HTTP/2 sessions to go away, lets a request under way finish, and resolves", async () => {
      const { idToken } = await emailUser();
      const session = await connect(server);
      const body = JSON.stringify({ csvData: "Name,Address,Amount\n" });
      const stream = session.request({
        ":method": "POST",
        ":path": "/api/batch/parse-csv",
        authorization: `Bearer ${idToken}`,
        "content-type": "application/json",
      });
      const answer = new Promise<number>((resolve, reject) => {
        stream.once("response", (headers) => resolve(Number(headers[":status"])));
        stream.once("error", reject);
      });
      stream.write(body.slice(0, 10));
      // The server acknowledges a ping after the frames before it: the request has reached it.
      await new Promise((resolve, reject) => session.ping((error) => (error ? reject(error) : resolve(undefined))));
      const goaway = once(session, "goaway");
      const sessionClosed = once(session, "close");
      const started = Date.now();
      const closing = server.close();
      closed = true;
      await goaway;
      stream.end(body.slice(10));
      expect(await answer).to.equal(200);
      stream.resume();
      await sessionClosed;
      await closing;
      expect(Date.now() - started, "the session closes once its request is answered, long before the drain's cut-off").to.be.lessThan(
        DRAIN_MS / 2,
      );
    });
  });

  describe("settings refused at start", () => {
    const refusal = (settings: Record<string, string>) => {
      try {
        testConfig(settings);
      } catch (error) {
        expect(error).to.be.instanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(settings)} was not refused`);
    };

    it("refuses one without the other", () => {
      expect(refusal({ TLS_CERT: files.cert })).to.include(
        "TLS_CERT is set and TLS_KEY is not: TLS needs both, the certificate (TLS_CERT) and its private key (TLS_KEY), as PEM files.",
      );
      expect(refusal({ TLS_KEY: files.key })).to.include("TLS_KEY is set and TLS_CERT is not");
    });

    it("refuses a file it cannot read, and a file that holds no certificate or key", () => {
      const missing = path.join(files.dir, "no-such.pem");
      expect(refusal({ TLS_CERT: missing, TLS_KEY: files.key })).to.equal(
        `TLS_CERT names '${missing}', which the server cannot read (ENOENT).`,
      );
      expect(refusal({ TLS_CERT: files.key, TLS_KEY: files.key })).to.equal(
        `TLS_CERT names '${files.key}', which holds no PEM certificate ('-----BEGIN CERTIFICATE-----').`,
      );
      expect(refusal({ TLS_CERT: files.cert, TLS_KEY: files.cert })).to.include(
        `TLS_KEY names '${files.cert}', which holds no PEM private key`,
      );
    });

    it("refuses a key that is not the certificate's", () => {
      const other = path.join(files.dir, "other-key.pem");
      const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      writeFileSync(other, privateKey.export({ type: "pkcs8", format: "pem" }));
      expect(refusal({ TLS_CERT: files.cert, TLS_KEY: other })).to.equal(
        `TLS_KEY '${other}' is not the private key of the certificate in TLS_CERT '${files.cert}' (CN=localhost): name the key the certificate was issued for.`,
      );
    });

    it("makes the server's own origin https under npm run start:production", () => {
      expect(servingEnv({ TLS_CERT: files.cert, TLS_KEY: files.key }).DASHBOARD_ORIGIN).to.equal(
        "https://127.0.0.1:3001,https://localhost:3001",
      );
    });
  });
});
