/** /api/contacts: importing a CSV (the rows it adds and the lines it skips, and why) and exporting one. */
import { expect } from "chai";
import { and, eq } from "drizzle-orm";
import { contacts } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { A, B, C, D, INVALID, MISSING, badChecksum, contactCalls, lower, upper } from "./contactsHelpers";
import { call, emailUser, startTestServer } from "./helpers";
import type { Contact } from "@common/apiTypes";

describe("/api/contacts", () => {
  let server: RunningServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const { stored, list, add, importCsv } = contactCalls(() => server);

  describe("import", () => {
    it("reads a spreadsheet's CSV, adds the good rows and reports each skipped line with its reason", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "Already", address: D });
      const csv = [
        "\uFEFFNAME,Notes,Address", // header in another case and order
        `"Smith, John","rent, monthly",${lower(A)}`, // 2: good
        `Bob,,not-an-address`, // 3
        `,no name,${B}`, // 4
        `Carol,dup,${upper(A)}`, // 5: A again
        `Dave,exists,${lower(D)}`, // 6: already a contact
        `Eve,extra,${B},surplus`, // 7: more cells than the header
        ``, // 8: blank, ignored
        `"Frank ""F""",,${C}`, // 9: good, escaped quotes
        `Gina,bad checksum,${badChecksum}`, // 10
        `${"n".repeat(101)},,${B}`, // 11
        `Hal,"unclosed,${B}`, // 12: an unclosed quote runs to the end
      ].join("\r\n");
      const answer = await importCsv(user.idToken, csv);
      expect(answer.status).to.equal(200);
      expect(answer.body.success).to.equal(true);
      expect(answer.body.imported).to.equal(2);
      expect(answer.body.contacts.map((c: Contact) => [c.name, c.address, c.notes])).to.deep.equal([
        ["Smith, John", A, "rent, monthly"],
        ['Frank "F"', C, null],
      ]);
      const skipped = answer.body.skipped as { line: number; reason: string }[];
      expect(skipped.map((s) => s.line)).to.deep.equal([3, 4, 5, 6, 7, 10, 11, 12]);
      const reason = (line: number) => skipped.find((s) => s.line === line)!.reason;
      expect(reason(3)).to.equal(INVALID);
      expect(reason(4)).to.equal(MISSING);
      expect(reason(5)).to.equal(`Duplicate address - ${A} is already on line 2 of this file`);
      expect(reason(6)).to.equal(`Duplicate address - ${D} is already in your contacts as 'Already'`);
      expect(reason(7)).to.equal("Broken CSV row: it has 4 cells but the header names 3");
      expect(reason(10)).to.match(/^Invalid address - The checksum does not match/);
      expect(reason(11)).to.match(/^Name too long - /);
      expect(reason(12)).to.match(/^Broken CSV row: /);

      expect((await stored(user.uid)).map((c) => [c.name, c.address, c.notes])).to.deep.equal([
        ["Already", D, null],
        ["Smith, John", A, "rent, monthly"],
        ['Frank "F"', C, null],
      ]);
      const ids = answer.body.contacts.map((c: Contact) => c.id);
      expect((await list(user.idToken)).body.contacts.filter((c: Contact) => ids.includes(c.id))).to.deep.include.members(
        answer.body.contacts,
      );
    });

    it("answers 200 with nothing imported for a file of bad rows only, and stores nothing", async () => {
      const user = await emailUser();
      const answer = await importCsv(user.idToken, `name,address\nBob,0x12\n,${A}\n`);
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.equal({
        success: true,
        imported: 0,
        skipped: [
          { line: 2, reason: INVALID },
          { line: 3, reason: MISSING },
        ],
        contacts: [],
      });
      expect(await stored(user.uid)).to.deep.equal([]);
    });

    it("answers 400 for a file without an Address column, and stores nothing", async () => {
      const user = await emailUser();
      const answer = await importCsv(user.idToken, `Name,Wallet,Notes\nBob,${A},x\n`);
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.equal("The CSV header must name the columns Name, Address, Notes; it has no Address column.");
      expect(await stored(user.uid)).to.deep.equal([]);
    });

    it("answers 400 for 10,001 rows, saying so, and stores none of them", async () => {
      const user = await emailUser();
      const rows = Array.from({ length: 10_001 }, (_, i) => `n${i},0x${i.toString(16).padStart(40, "0")}`);
      const answer = await importCsv(user.idToken, ["name,address", ...rows].join("\n"));
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.equal(
        "The CSV has 10,001 rows; at most 10,000 contacts can be read at once. Split the file and upload each part.",
      );
      expect(await stored(user.uid)).to.deep.equal([]);
    });

    it("imports 10,000 rows, the most a file may have", async function () {
      this.timeout(60_000);
      const user = await emailUser();
      const rows = Array.from({ length: 10_000 }, (_, i) => `n${i},0x${(i + 1).toString(16).padStart(40, "0")}`);
      const answer = await importCsv(user.idToken, ["name,address", ...rows].join("\n"));
      expect(answer.status).to.equal(200);
      expect(answer.body.imported).to.equal(10_000);
      expect(answer.body.skipped).to.deep.equal([]);
      expect((await list(user.idToken, "?limit=1")).body.total).to.equal(10_000);
    });

    for (const [what, csvData, error] of [
      ["a number", 5, /^Invalid request body: csvData: /],
      ["nothing", undefined, /^Invalid request body: csvData: /],
      ["an empty file", "  ", /^The CSV file is empty/],
    ] as const) {
      it(`answers 400 for csvData that is ${what}`, async () => {
        const user = await emailUser();
        const answer = await call(server, "POST", "/api/contacts/import", {
          token: user.idToken,
          body: csvData === undefined ? {} : { csvData },
        });
        expect(answer.status).to.equal(400);
        expect(answer.body.error).to.match(error);
        expect(await stored(user.uid)).to.deep.equal([]);
      });
    }
  });

  describe("export", () => {
    it("downloads usdx_contacts.csv, oldest first, with cells a spreadsheet will not run", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "Smith, John", address: A, notes: "=SUM(A1)" });
      await add(user.idToken, { name: "Bob", address: B });
      await add(user.idToken, { name: 'Quote "Q"', address: C, notes: "-5 then\nline two" });
      const answer = await call(server, "GET", "/api/contacts/export", { token: user.idToken });
      expect(answer.status).to.equal(200);
      expect(answer.headers.get("content-type")).to.equal("text/csv; charset=utf-8");
      expect(answer.headers.get("content-disposition")).to.equal('attachment; filename="usdx_contacts.csv"');
      expect(answer.body).to.equal(
        [
          `"Name","Address","Notes"`,
          `"Smith, John","${A}","'=SUM(A1)"`,
          `"Bob","${B}",""`,
          `"Quote ""Q""","${C}","'-5 then\nline two"`,
          "",
        ].join("\r\n"),
      );
    });

    it("escapes by OWASP's CSV-injection rule: a formula after a separator a reader may split on, a quoted formula, a tab-led cell", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "x;=1+1", address: A, notes: "=cmd|' /C calc'!A0" });
      await add(user.idToken, { name: "a,@SUM(1)", address: B, notes: "line one\n=2+2" });
      await add(user.idToken, { name: '"=1"', address: C, notes: "tab\t-3" });
      await add(user.idToken, { name: "Smith; Jones, Ltd", address: D, notes: "rent; 5-10 days" });
      // The API trims a leading tab; a row stored otherwise may still hold one.
      await server.services.db.db
        .update(contacts)
        .set({ notes: "\t=cmd|' /C calc'!A0" })
        .where(and(eq(contacts.uid, user.uid), eq(contacts.address, A)));
      const answer = await call(server, "GET", "/api/contacts/export", { token: user.idToken });
      expect(answer.status).to.equal(200);
      expect(answer.body).to.equal(
        [
          `"Name","Address","Notes"`,
          `"'x;=1+1","${A}","'\t=cmd|' /C calc'!A0"`,
          `"'a,@SUM(1)","${B}","'line one\n=2+2"`,
          `"'""=1""","${C}","'tab\t-3"`,
          `"Smith; Jones, Ltd","${D}","rent; 5-10 days"`,
          "",
        ].join("\r\n"),
      );
    });

    it("exports just the header for a user with no contacts", async () => {
      const user = await emailUser();
      const answer = await call(server, "GET", "/api/contacts/export", { token: user.idToken });
      expect(answer.status).to.equal(200);
      expect(answer.body).to.equal('"Name","Address","Notes"\r\n');
    });

    it("exports a file that imports back to the same contacts", async () => {
      const user = await emailUser();
      await add(user.idToken, { name: "Smith, John", address: A, notes: "rent, monthly" });
      await add(user.idToken, { name: "Bob", address: B });
      await add(user.idToken, { name: 'Ann "Q" Lee; Jr.', address: C, notes: "pays 5-10; net 30" });
      const csv = (await call<string>(server, "GET", "/api/contacts/export", { token: user.idToken })).body;
      const other = await emailUser();
      const answer = await importCsv(other.idToken, csv);
      expect(answer.body.imported).to.equal(3);
      expect((await stored(other.uid)).map((c) => [c.name, c.address, c.notes])).to.deep.equal([
        ["Smith, John", A, "rent, monthly"],
        ["Bob", B, null],
        ['Ann "Q" Lee; Jr.', C, "pays 5-10; net 30"],
      ]);
    });
  });
});
