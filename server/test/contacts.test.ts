/** /api/contacts: adding, listing and searching, validation, editing and deleting, and one user's contacts kept from another. */
import { expect } from "chai";
import type { RunningServer } from "../src/index";
import { A, B, C, D, INVALID, MISSING, NOT_FOUND, badChecksum, contactCalls, lower, upper } from "./contactsHelpers";
import { call, emailUser, startTestServer, unsignedToken } from "./helpers";
import type { Contact } from "@common/apiTypes";

describe("/api/contacts", () => {
  let server: RunningServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const { stored, list, add } = contactCalls(() => server);

  describe("add, list and search", () => {
    it("adds a contact trimmed, with its address checksummed, and lists it", async () => {
      const user = await emailUser();
      const answer = await add(user.idToken, { name: "  Alice  ", address: `  ${lower(A)} `, notes: "  rent  " });
      expect(answer.status).to.equal(201);
      expect(answer.body.success).to.equal(true);
      expect(answer.body.contact).to.include({ name: "Alice", address: A, notes: "rent" });
      expect(answer.body.contact.id).to.be.a("number");
      expect(new Date(answer.body.contact.createdAt).toISOString()).to.equal(answer.body.contact.createdAt);

      const listed = await list(user.idToken);
      expect(listed.status).to.equal(200);
      expect(listed.body).to.deep.equal({ success: true, contacts: [answer.body.contact], total: 1 });
    });

    it("stores notes left out, empty or null as null, and accepts the longest name and notes", async () => {
      const user = await emailUser();
      const none = await add(user.idToken, { name: "n".repeat(100), address: A });
      const empty = await add(user.idToken, { name: "Empty", address: B, notes: "   " });
      const nul = await add(user.idToken, { name: "Null", address: C, notes: null });
      const long = await add(user.idToken, { name: "Long", address: D, notes: "x".repeat(500) });
      expect([none.status, empty.status, nul.status, long.status]).to.deep.equal([201, 201, 201, 201]);
      expect((await stored(user.uid)).map((c) => c.notes)).to.deep.equal([null, null, null, "x".repeat(500)]);
    });

    it("lists newest first, pages with limit and offset, and counts the total", async () => {
      const user = await emailUser();
      for (const [name, address] of [
        ["First", A],
        ["Second", B],
        ["Third", C],
      ])
        await add(user.idToken, { name, address });
      const all = await list(user.idToken);
      expect(all.body.contacts.map((c: Contact) => c.name)).to.deep.equal(["Third", "Second", "First"]);
      const page = await list(user.idToken, "?limit=1&offset=1");
      expect(page.body.contacts.map((c: Contact) => c.name)).to.deep.equal(["Second"]);
      expect(page.body.total).to.equal(3);
    });

    it("searches name, address and notes case-insensitively, and %, _ and \\ literally", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "Alice Landlord", address: A, notes: "Rent: 50% share" });
      await add(user.idToken, { name: "Bob", address: B, notes: "5000 USDX" });
      await add(user.idToken, { name: "Carol_x", address: C });
      await add(user.idToken, { name: "Dan", address: D, notes: "back\\slash" });
      const names = async (search: string) => {
        const answer = await list(user.idToken, `?search=${encodeURIComponent(search)}`);
        expect(answer.status).to.equal(200);
        expect(answer.body.total).to.equal(answer.body.contacts.length);
        return answer.body.contacts.map((c: Contact) => c.name).sort();
      };
      expect(await names("aLiCe")).to.deep.equal(["Alice Landlord"]);
      expect(await names("RENT")).to.deep.equal(["Alice Landlord"]);
      expect(await names(lower(B).slice(10, 20))).to.deep.equal(["Bob"]);
      expect(await names(upper(C).slice(2, 12))).to.deep.equal(["Carol_x"]);
      expect(await names("50%")).to.deep.equal(["Alice Landlord"]);
      expect(await names("5%0")).to.deep.equal([]);
      expect(await names("l_x")).to.deep.equal(["Carol_x"]);
      expect(await names("o_")).to.deep.equal([]);
      expect(await names("k\\s")).to.deep.equal(["Dan"]);
      expect(await names("nobody")).to.deep.equal([]);
      expect(await names("  ")).to.have.length(4);
    });

    for (const query of ["?limit=0", "?limit=1001", "?limit=ten", "?offset=-1", "?search=a&search=b"]) {
      it(`answers 400 for the query ${query}`, async () => {
        const user = await emailUser();
        const answer = await list(user.idToken, query);
        expect(answer.status).to.equal(400);
        expect(answer.body.success).to.equal(false);
        expect(answer.body.error).to.match(/^Invalid request query: (limit|offset|search): /);
      });
    }
  });

  describe("validation", () => {
    const tooLongName = "Name too long - Please keep the name to 100 characters or fewer";
    const cases: [string, unknown, string | RegExp][] = [
      ["an empty name", { name: "", address: A }, MISSING],
      ["a blank name", { name: "   ", address: A }, MISSING],
      ["no address", { name: "Alice" }, MISSING],
      ["a blank address", { name: "Alice", address: " " }, MISSING],
      ["an empty body", {}, MISSING],
      ["a short address", { name: "Alice", address: "0x1234" }, INVALID],
      ["an address without 0x", { name: "Alice", address: A.slice(2) }, INVALID],
      ["an address with a non-hex character", { name: "Alice", address: `${A.slice(0, -1)}g` }, INVALID],
      ["an ENS name", { name: "Alice", address: "alice.eth" }, INVALID],
      [
        "a wrong checksum",
        { name: "Alice", address: badChecksum },
        "Invalid address - The checksum does not match (its mix of upper and lower case is wrong): check it for a typo, or enter it in lower case",
      ],
      ["a 101-character name", { name: "n".repeat(101), address: A }, tooLongName],
      [
        "501 characters of notes",
        { name: "Alice", address: A, notes: "x".repeat(501) },
        "Notes too long - Please keep the notes to 500 characters or fewer",
      ],
      [
        "a line break in the name",
        { name: "Ali\nce", address: A },
        "Invalid name - The name cannot contain control characters such as line breaks or tabs",
      ],
      ["a bidi override in the name", { name: "Alice\u202Eevil", address: A }, /^Invalid name - /],
      ["a NUL in the notes", { name: "Alice", address: A, notes: "a\u0000b" }, /^Invalid notes - /],
      ["a number for the name", { name: 5, address: A }, /^Invalid request body: name: /],
      ["a number for the notes", { name: "Alice", address: A, notes: 7 }, /^Invalid request body: notes: /],
      ["an array for the address", { name: "Alice", address: [A] }, /^Invalid request body: address: /],
      ["an array body", [], /^Invalid request body: /],
    ];
    for (const [what, body, error] of cases) {
      it(`answers 400 for ${what} and stores nothing`, async () => {
        const user = await emailUser();
        const answer = await add(user.idToken, body);
        expect(answer.status).to.equal(400);
        expect(answer.body.success).to.equal(false);
        if (typeof error === "string") expect(answer.body.error).to.equal(error);
        else expect(answer.body.error).to.match(error);
        expect(await stored(user.uid)).to.deep.equal([]);
      });
    }

    it("counts characters, not UTF-16 units: 100 emoji make a valid name", async () => {
      const user = await emailUser();
      expect((await add(user.idToken, { name: "😀".repeat(100), address: A })).status).to.equal(201);
      expect((await add(user.idToken, { name: "😀".repeat(101), address: B })).body.error).to.equal(tooLongName);
    });

    it("answers malformed JSON with 400 and stores nothing", async () => {
      const user = await emailUser();
      const answer = await call(server, "POST", "/api/contacts", { token: user.idToken, body: '{"name": "Alice", ' });
      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.equal({ success: false, error: "Malformed JSON in the request body." });
      expect(await stored(user.uid)).to.deep.equal([]);
    });

    it("refuses the same address again in another case with 409 naming the contact; another user may have it", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "Alice", address: lower(A) });
      for (const again of [upper(A), A, ` ${lower(A)} `]) {
        const answer = await add(user.idToken, { name: "Alice again", address: again });
        expect(answer.status).to.equal(409);
        expect(answer.body).to.deep.equal({ success: false, error: `Duplicate address - ${A} is already in your contacts as 'Alice'` });
      }
      expect((await stored(user.uid)).map((c) => c.name)).to.deep.equal(["Alice"]);
      const other = await emailUser();
      expect((await add(other.idToken, { name: "Mine too", address: A })).status).to.equal(201);
    });
  });

  describe("edit and delete", () => {
    it("edits the fields it is sent, checksums the address, clears notes with '' or null, and moves updatedAt", async () => {
      const user = await emailUser();
      const created = (await add(user.idToken, { name: "Alice", address: A, notes: "first" })).body.contact;
      const [before] = await stored(user.uid);

      const renamed = await call(server, "PATCH", `/api/contacts/${created.id}`, { token: user.idToken, body: { name: " Alice B " } });
      expect(renamed.status).to.equal(200);
      expect(renamed.body).to.deep.equal({ success: true, contact: { ...created, name: "Alice B" } });

      const moved = await call(server, "PATCH", `/api/contacts/${created.id}`, {
        token: user.idToken,
        body: { address: lower(B), notes: "" },
      });
      expect(moved.body.contact).to.include({ id: created.id, name: "Alice B", address: B, notes: null, createdAt: created.createdAt });

      await call(server, "PATCH", `/api/contacts/${created.id}`, { token: user.idToken, body: { notes: "again" } });
      expect((await stored(user.uid))[0].notes).to.equal("again");
      const cleared = await call(server, "PATCH", `/api/contacts/${created.id}`, { token: user.idToken, body: { notes: null } });
      expect(cleared.body.contact.notes).to.equal(null);

      const [after] = await stored(user.uid);
      expect(after.createdAt.getTime()).to.equal(before.createdAt.getTime());
      expect(after.updatedAt.getTime()).to.be.greaterThan(before.updatedAt.getTime());
    });

    it("keeps a contact's own address in another case, and refuses another contact's address with 409", async () => {
      const user = await emailUser();
      const alice = (await add(user.idToken, { name: "Alice", address: A })).body.contact;
      await add(user.idToken, { name: "Bob", address: B });
      const same = await call(server, "PATCH", `/api/contacts/${alice.id}`, { token: user.idToken, body: { address: upper(A) } });
      expect(same.status).to.equal(200);
      expect(same.body.contact.address).to.equal(A);

      const taken = await call(server, "PATCH", `/api/contacts/${alice.id}`, {
        token: user.idToken,
        body: { name: "Robert", address: lower(B) },
      });
      expect(taken.status).to.equal(409);
      expect(taken.body.error).to.equal(`Duplicate address - ${B} is already in your contacts as 'Bob'`);
      expect((await stored(user.uid)).map((c) => [c.name, c.address])).to.deep.equal([
        ["Alice", A],
        ["Bob", B],
      ]);
    });

    for (const [what, body, error] of [
      ["an empty name", { name: "" }, MISSING],
      ["an invalid address", { address: "0x12" }, INVALID],
      ["a 101-character name", { name: "n".repeat(101) }, /^Name too long - /],
      ["nothing to change", {}, /Nothing to change: send name, address or notes/],
      ["a number for the notes", { notes: 1 }, /^Invalid request body: notes: /],
    ] as const) {
      it(`answers 400 to an edit with ${what} and changes nothing`, async () => {
        const user = await emailUser();
        const created = (await add(user.idToken, { name: "Alice", address: A, notes: "keep" })).body.contact;
        const before = await stored(user.uid);
        const answer = await call(server, "PATCH", `/api/contacts/${created.id}`, { token: user.idToken, body });
        expect(answer.status).to.equal(400);
        if (typeof error === "string") expect(answer.body.error).to.equal(error);
        else expect(answer.body.error).to.match(error);
        expect(await stored(user.uid)).to.deep.equal(before);
      });
    }

    it("answers 400 for an id that is not a number, and 404 for one that does not exist", async () => {
      const user = await emailUser();
      for (const id of ["abc", "1.5", "0", "-1", "99999999999"]) {
        const patch = await call(server, "PATCH", `/api/contacts/${id}`, { token: user.idToken, body: { name: "X" } });
        expect(patch.status, id).to.equal(400);
        expect(patch.body.error).to.match(/^Invalid request path: id: /);
        expect((await call(server, "DELETE", `/api/contacts/${id}`, { token: user.idToken })).status, id).to.equal(400);
      }
      const missing = await call(server, "PATCH", "/api/contacts/2147483647", { token: user.idToken, body: { name: "X" } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ success: false, error: NOT_FOUND });
    });

    it("deletes a contact once; a second delete is 404", async () => {
      const user = await emailUser();
      const alice = (await add(user.idToken, { name: "Alice", address: A })).body.contact;
      await add(user.idToken, { name: "Bob", address: B });
      const deleted = await call(server, "DELETE", `/api/contacts/${alice.id}`, { token: user.idToken });
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ success: true, id: alice.id });
      expect((await stored(user.uid)).map((c) => c.name)).to.deep.equal(["Bob"]);
      const again = await call(server, "DELETE", `/api/contacts/${alice.id}`, { token: user.idToken });
      expect(again.status).to.equal(404);
      expect(again.body.error).to.equal(NOT_FOUND);
    });
  });

  describe("one user's contacts are theirs alone", () => {
    it("does not list, edit, delete or export another user's contact, and answers as for a missing one", async () => {
      const owner = await emailUser();
      const intruder = await emailUser();
      const secret = (await add(owner.idToken, { name: "Secret", address: A, notes: "private" })).body.contact;
      await add(intruder.idToken, { name: "Own", address: B });
      const before = await stored(owner.uid);

      const listed = await list(intruder.idToken, "?search=Secret");
      expect(listed.body).to.deep.equal({ success: true, contacts: [], total: 0 });
      expect((await list(intruder.idToken)).body.contacts.map((c: Contact) => c.name)).to.deep.equal(["Own"]);

      const patch = await call(server, "PATCH", `/api/contacts/${secret.id}`, { token: intruder.idToken, body: { name: "Mine now" } });
      expect(patch.status).to.equal(404);
      expect(patch.body).to.deep.equal({ success: false, error: NOT_FOUND });
      const del = await call(server, "DELETE", `/api/contacts/${secret.id}`, { token: intruder.idToken });
      expect(del.status).to.equal(404);
      expect(del.body).to.deep.equal({ success: false, error: NOT_FOUND });

      const exported = await call(server, "GET", "/api/contacts/export", { token: intruder.idToken });
      expect(exported.body).to.not.include("Secret");
      expect(await stored(owner.uid)).to.deep.equal(before);
      expect((await list(owner.idToken)).body.contacts).to.deep.equal([secret]);
    });

    it("answers 401 to every route without a token, with a garbage token, or a token of another project", async () => {
      const owner = await emailUser();
      const created = (await add(owner.idToken, { name: "Alice", address: A })).body.contact;
      const now = Math.floor(Date.now() / 1000);
      const foreign = unsignedToken({
        iss: "https://securetoken.google.com/other",
        aud: "other",
        sub: owner.uid,
        user_id: owner.uid,
        auth_time: now,
        iat: now,
        exp: now + 3600,
      });
      const routes: [string, string, unknown?][] = [
        ["GET", "/api/contacts"],
        ["POST", "/api/contacts", { name: "Bob", address: B }],
        ["PATCH", `/api/contacts/${created.id}`, { name: "Changed" }],
        ["DELETE", `/api/contacts/${created.id}`],
        ["POST", "/api/contacts/import", { csvData: `name,address\nBob,${B}\n` }],
        ["GET", "/api/contacts/export"],
      ];
      for (const [method, path, body] of routes) {
        for (const token of [undefined, "not-a-token", foreign]) {
          const answer = await call(server, method, path, { token, body });
          expect(answer.status, `${method} ${path} ${token}`).to.equal(401);
          expect(answer.body.success).to.equal(false);
        }
      }
      expect((await stored(owner.uid)).map((c) => c.name)).to.deep.equal(["Alice"]);
    });
  });
});
