/** The mock bank (/api/bank): wallets, their primary, their on-chain balances, and another user's. */
import { expect } from "chai";
import { ZeroAddress } from "ethers";
import { eq } from "drizzle-orm";
import { seededAccount } from "@common/seedAccounts";
import { bankWallets } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { FAST, address, bankCalls, units, usdx } from "./bankHelpers";
import { call, emailUser, revert, signer, snapshot, startTestServer, walletUser } from "./helpers";
import type { BankWallet } from "@common/apiTypes";

describe("Mock bank (/api/bank)", () => {
  let chainSnapshot: string;
  let server: RunningServer;
  let bob: { idToken: string; uid: string };

  before(async () => {
    chainSnapshot = await snapshot();
    server = await startTestServer(FAST);
    bob = await emailUser();
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  const { db, as, addWallet } = bankCalls(() => server);

  describe("wallets", () => {
    let carol: { idToken: string; uid: string };
    before(async () => {
      carol = await emailUser();
    });

    it("makes the first wallet primary, not later ones, and lists on-chain balances", async () => {
      const holder = await (await signer(seededAccount("alice").index)).getAddress();
      const first = await addWallet(carol, "Alice's", holder);
      expect(first).to.include({ name: "Alice's", address: holder, isPrimary: true });
      const onChain = await usdx().balanceOf(holder);
      expect(onChain > 0n).to.equal(true);
      expect(first.balanceRaw).to.equal(onChain.toString());
      const second = await addWallet(carol, "Fresh", address().toLowerCase());
      expect(second.isPrimary).to.equal(false);
      expect(second).to.include({ balance: "0", balanceRaw: "0" });
      expect(second.address).to.match(/[A-F]/); // stored checksummed

      const listed = await as(carol).get("/wallets");
      expect(listed.status).to.equal(200);
      expect(listed.body.mock).to.equal(true);
      expect(listed.body.wallets.map((w: BankWallet) => [w.id, w.isPrimary])).to.deep.equal([
        [first.id, true],
        [second.id, false],
      ]);
      const alicesRow = listed.body.wallets[0];
      expect(alicesRow.balanceRaw).to.equal((await usdx().balanceOf(holder)).toString());
      expect(units(alicesRow.balance)).to.equal(BigInt(alicesRow.balanceRaw));
    });

    it("refuses a duplicate in another case with 409 'Duplicate Wallet'", async () => {
      const addr = address();
      await addWallet(carol, "Dup", addr);
      for (const variant of [addr.toLowerCase(), `0x${addr.slice(2).toUpperCase()}`]) {
        const answer = await as(carol).post("/wallets", { name: "Again", address: variant });
        expect(answer.status).to.equal(409);
        expect(answer.body.error).to.equal(`Duplicate Wallet: ${addr} is already in your wallets as 'Dup'.`);
      }
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, carol.uid));
      expect(rows.filter((w) => w.address === addr)).to.have.length(1);
    });

    for (const [body, status, error] of [
      [{}, 400, "Missing Information: please provide the wallet name and address (missing: name, address)."],
      [{ name: "A" }, 400, "Missing Information: please provide the wallet name and address (missing: address)."],
      [
        { name: "", address: "0x1111111111111111111111111111111111111111" },
        400,
        "Missing Information: please provide the wallet name and address (missing: name).",
      ],
      [
        { name: "A", address: "0x123" },
        400,
        "Invalid Address: '0x123' is not a valid address: it must be 0x followed by 40 hex characters.",
      ],
      [
        { name: "A", address: "0xAbCdEf0000000000000000000000000000000001" },
        400,
        "Invalid Address: '0xAbCdEf0000000000000000000000000000000001' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo.",
      ],
      [{ name: "A", address: ZeroAddress }, 400, "Invalid Address: the zero address cannot hold tokens."],
      [{ name: "A", address: 42 }, 400, "Invalid Address: the address must be text: 0x followed by 40 hex characters."],
    ] as const) {
      it(`answers ${status} for ${JSON.stringify(body)} and stores nothing`, async () => {
        const before = (await db().select().from(bankWallets)).length;
        const answer = await as(carol).post("/wallets", body);
        expect(answer.status).to.equal(status);
        expect(answer.body).to.deep.equal({ success: false, error });
        expect((await db().select().from(bankWallets)).length).to.equal(before);
      });
    }

    it("refuses to remove the primary wallet; after another is made primary (one transaction) the old one can go", async () => {
      const user = await emailUser();
      const a = await addWallet(user, "A", address());
      const b = await addWallet(user, "B", address());
      const refused = await as(user).del(`/wallets/${a.id}`);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.equal("Cannot Remove Primary Wallet: 'A' is your primary wallet; make another wallet primary first.");
      expect((await as(user).get("/wallets")).body.wallets).to.have.length(2);

      const made = await as(user).post(`/wallets/${b.id}/primary`);
      expect(made.status).to.equal(200);
      expect(made.body.mock).to.equal(true);
      expect(made.body.wallet).to.include({ id: b.id, isPrimary: true });
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, user.uid));
      expect(rows.filter((w) => w.isPrimary).map((w) => w.id)).to.deep.equal([b.id]);

      const removed = await as(user).del(`/wallets/${a.id}`);
      expect(removed.status).to.equal(200);
      expect(removed.body).to.deep.equal({ success: true, mock: true, id: a.id });
      expect((await as(user).get("/wallets")).body.wallets.map((w: BankWallet) => w.id)).to.deep.equal([b.id]);
    });

    it("keeps exactly one primary when primaries are switched concurrently", async () => {
      const user = await emailUser();
      const ws = [];
      for (const n of ["A", "B", "C", "D"]) ws.push(await addWallet(user, n, address()));
      const answers = await Promise.all(ws.map((w) => as(user).post(`/wallets/${w.id}/primary`)));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, user.uid));
      expect(rows.filter((w) => w.isPrimary)).to.have.length(1);
    });

    it("answers 404 for another user's wallet exactly like a missing one, and leaves it as it was", async () => {
      const [theirs] = (await as(carol).get("/wallets")).body.wallets;
      for (const [method, p] of [
        ["POST", `/wallets/${theirs.id}/primary`],
        ["DELETE", `/wallets/${theirs.id}`],
      ] as const) {
        const answer = await call(server, method, `/api/bank${p}`, { token: bob.idToken });
        expect(answer.status).to.equal(404);
        expect(answer.body.error).to.equal(`Wallet ${theirs.id} was not found among your wallets.`);
      }
      const missing = await as(bob).del("/wallets/999999");
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.equal("Wallet 999999 was not found among your wallets.");
      expect((await as(bob).get("/wallets")).body.wallets).to.deep.equal([]);
      const after = (await as(carol).get("/wallets")).body.wallets.find((w: BankWallet) => w.id === theirs.id);
      expect(after).to.include({ isPrimary: true, name: theirs.name });
    });

    it("adds a wallet sign-in's own address as the primary wallet when it has none, once", async () => {
      const { idToken, wallet } = await walletUser(server);
      const first = await as({ idToken }).get("/wallets");
      expect(first.body.wallets).to.have.length(1);
      expect(first.body.wallets[0]).to.include({ address: wallet.address, isPrimary: true, name: "Sign-in wallet", balance: "0" });
      const again = await as({ idToken }).get("/wallets");
      expect(again.body.wallets.map((w: BankWallet) => w.id)).to.deep.equal([first.body.wallets[0].id]);
    });
  });
});
