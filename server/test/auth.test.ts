import { expect } from "chai";
import { Wallet } from "ethers";
import { siweNonces } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, emailUser, siweMessage, startTestServer, walletUser, unsignedToken } from "./helpers";

describe("Sign-in", () => {
  let server: RunningServer;
  const admin = Wallet.createRandom();

  before(async () => {
    server = await startTestServer({ ADMIN_WALLETS: admin.address });
  });
  after(async () => {
    await server.close();
  });

  describe("POST /api/auth/nonce", () => {
    it("issues a fresh nonce that expires in five minutes", async () => {
      const a = await call(server, "POST", "/api/auth/nonce");
      const b = await call(server, "POST", "/api/auth/nonce");
      expect(a.status).to.equal(200);
      expect(a.body.nonce).to.match(/^[0-9a-f]{32}$/);
      expect(a.body.nonce).not.to.equal(b.body.nonce);
      const ttl = Date.parse(a.body.expiresAt) - Date.now();
      expect(ttl).to.be.within(4.5 * 60_000, 5 * 60_000);
    });
  });

  describe("POST /api/auth/wallet-auth (Sign-In with Ethereum)", () => {
    it("answers a Firebase custom token for the signing wallet, whose ID token the API accepts", async () => {
      const { idToken, wallet } = await walletUser(server);
      const me = await call(server, "GET", "/api/auth/me", { token: idToken });
      expect(me.status).to.equal(200);
      expect(me.body.user).to.deep.equal({
        uid: `wallet:${wallet.address.toLowerCase()}`,
        email: null,
        wallet: wallet.address,
        admin: false,
      });
    });

    it("gives the admin claim to a wallet in ADMIN_WALLETS, and only to it", async () => {
      const { idToken } = await walletUser(server, admin as unknown as Wallet);
      const me = await call(server, "GET", "/api/auth/me", { token: idToken });
      expect(me.body.user.admin).to.equal(true);
      const audit = await call(server, "GET", "/api/audit", { token: idToken });
      expect(audit.status).to.equal(200);
      const other = await walletUser(server);
      const refused = await call(server, "GET", "/api/audit", { token: other.idToken });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.match(/^Admin only/);
    });

    async function attempt(
      wallet: { address: string; signMessage(m: string): Promise<string> },
      message: string,
      address = wallet.address,
    ) {
      const signature = await wallet.signMessage(message);
      return call(server, "POST", "/api/auth/wallet-auth", { body: { address, message, signature } });
    }

    it("refuses a replayed message: a nonce signs in once", async () => {
      const wallet = Wallet.createRandom();
      const message = await siweMessage(server, wallet);
      expect((await attempt(wallet, message)).status).to.equal(200);
      const again = await attempt(wallet, message);
      expect(again.status).to.equal(401);
      expect(again.body.error).to.match(/^Invalid custom token: this sign-in message was already used/);
    });

    it("refuses a nonce the server never issued", async () => {
      const wallet = Wallet.createRandom();
      const answer = await attempt(wallet, await siweMessage(server, wallet, { nonce: "abcdef0123456789" }));
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.match(/^Invalid custom token: .*not issued here/);
    });

    it("refuses an expired nonce", async () => {
      const wallet = Wallet.createRandom();
      const message = await siweMessage(server, wallet);
      const nonce = /Nonce: (\w+)/.exec(message)![1];
      await server.services.db.db.update(siweNonces).set({ expiresAt: new Date(Date.now() - 1000) });
      const answer = await attempt(wallet, message);
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.contain("has expired");
      expect(nonce).to.have.length(32);
    });

    it("refuses a message past its expirationTime", async () => {
      const wallet = Wallet.createRandom();
      const answer = await attempt(
        wallet,
        await siweMessage(server, wallet, { expirationTime: new Date(Date.now() - 60_000).toISOString() }),
      );
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.equal("Invalid custom token: the sign-in message has expired. Sign in again.");
    });

    it("refuses a message for another domain", async () => {
      const wallet = Wallet.createRandom();
      const answer = await attempt(wallet, await siweMessage(server, wallet, { domain: "evil.example" }));
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.equal("Invalid custom token: the message is for evil.example, not this dashboard.");
    });

    it("refuses a message for another chain", async () => {
      const wallet = Wallet.createRandom();
      const answer = await attempt(wallet, await siweMessage(server, wallet, { chainId: 11155111 }));
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.match(/^Invalid custom token: the message is for chain 11155111/);
    });

    it("refuses a signature by another wallet ('Token mismatch'), leaving the nonce usable", async () => {
      const wallet = Wallet.createRandom();
      const thief = Wallet.createRandom();
      const message = await siweMessage(server, wallet);
      const forged = await call(server, "POST", "/api/auth/wallet-auth", {
        body: { address: wallet.address, message, signature: await thief.signMessage(message) },
      });
      expect(forged.status).to.equal(401);
      expect(forged.body.error).to.equal(`Token mismatch: the message was not signed by ${wallet.address}.`);
      expect((await attempt(wallet, message)).status).to.equal(200);
    });

    it("refuses a body whose address differs from the message's ('Token mismatch')", async () => {
      const wallet = Wallet.createRandom();
      const other = Wallet.createRandom();
      const answer = await attempt(wallet, await siweMessage(server, wallet), other.address);
      expect(answer.status).to.equal(401);
      expect(answer.body.error).to.match(/^Token mismatch: the message signs in/);
    });

    it("answers 400 for a message that is not SIWE, and for a malformed signature", async () => {
      const wallet = Wallet.createRandom();
      const plain = await attempt(wallet, "XFT login 1763700000000");
      expect(plain.status).to.equal(400);
      expect(plain.body.error).to.match(/not a Sign-In with Ethereum/);
      const bad = await call(server, "POST", "/api/auth/wallet-auth", {
        body: { address: wallet.address, message: await siweMessage(server, wallet), signature: "0x1234" },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.contain("signature: must be a 65-byte hex signature");
    });
  });

  describe("Firebase ID tokens on protected routes", () => {
    it("accepts an email user's ID token from the emulator", async () => {
      const user = await emailUser();
      const me = await call(server, "GET", "/api/auth/me", { token: user.idToken });
      expect(me.status).to.equal(200);
      expect(me.body.user).to.include({ uid: user.uid, email: user.email, admin: false });
    });

    it("refuses a request without a token, with a garbage token, or with another scheme", async () => {
      const none = await call(server, "GET", "/api/auth/me");
      expect(none.status).to.equal(401);
      expect(none.body.error).to.match(/^Sign in first/);
      const garbage = await call(server, "GET", "/api/auth/me", { token: "not-a-token" });
      expect(garbage.status).to.equal(401);
      expect(garbage.body.error).to.equal("Your session token is not valid: sign in again.");
      const basic = await call(server, "GET", "/api/auth/me", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
      expect(basic.status).to.equal(401);
    });

    it("refuses an expired token and a token for another project", async () => {
      const now = Math.floor(Date.now() / 1000);
      const base = {
        iss: "https://securetoken.google.com/demo-usdx",
        aud: "demo-usdx",
        sub: "someone",
        user_id: "someone",
        auth_time: now - 7200,
      };
      const expired = await call(server, "GET", "/api/auth/me", { token: unsignedToken({ ...base, iat: now - 7200, exp: now - 3600 }) });
      expect(expired.status).to.equal(401);
      expect(expired.body.error).to.equal("Your session has expired: sign in again.");
      const foreign = unsignedToken({ ...base, iss: "https://securetoken.google.com/other", aud: "other", iat: now, exp: now + 3600 });
      expect((await call(server, "GET", "/api/auth/me", { token: foreign })).status).to.equal(401);
    });
  });

  describe("rate limits", () => {
    it("answers 429 with a JSON message past the sign-in limit", async () => {
      const limited = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: "3" });
      try {
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await call(limited, "POST", "/api/auth/nonce")).status);
        expect(statuses).to.deep.equal([200, 200, 200, 429]);
        const answer = await call(limited, "POST", "/api/auth/wallet-auth", { body: {} });
        expect(answer.status).to.equal(429);
        expect(answer.body).to.deep.equal({
          success: false,
          error: "Too many sign-in requests from this address: wait a minute and try again.",
        });
      } finally {
        await limited.close();
      }
    });
  });
});
