import { expect } from "chai";
import { getAddress, hexlify, randomBytes } from "ethers";
import type { ParsedRecipients, RecipientProblem } from "@common/apiTypes";
import type { RunningServer } from "../src/index";
import { call, emailUser, startTestServer } from "./helpers";

const randomAddress = () => getAddress(hexlify(randomBytes(20)));

/** The address with one letter's case flipped: still 40 hex characters, but its EIP-55 checksum is wrong. */
function badChecksum(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i];
  return address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
}

describe("POST /api/batch/parse-csv", () => {
  let server: RunningServer;
  let token: string;
  const A = randomAddress();
  const B = randomAddress();

  before(async () => {
    server = await startTestServer();
    token = (await emailUser()).idToken;
  });
  after(async () => {
    await server.close();
  });

  const parseCsv = (csvData: unknown, t: string | undefined = token) =>
    call(server, "POST", "/api/batch/parse-csv", { token: t, body: { csvData } });

  it("reads a spreadsheet's CSV: BOM, CRLF, header in any case and order, quoted cells, blank lines", async () => {
    const csv = `\uFEFFAMOUNT,name,Address\r\n5,"Smith, Jane",${A}\r\n\r\n12.25,Bob,${B.toLowerCase()}\r\n`;
    const answer = await parseCsv(csv);
    expect(answer.status).to.equal(200);
    expect(answer.body.success).to.equal(true);
    expect(answer.body.data.validRecipients).to.deep.equal([
      { line: 2, name: "Smith, Jane", address: A, amount: "5" },
      { line: 4, name: "Bob", address: B, amount: "12.25" },
    ]);
    expect(answer.body.data.invalidEntries).to.deep.equal([]);
    expect(answer.body.data).to.include({ totalRows: 2, totalAmount: "17.25", totalAmountRaw: "17250000000000000000" });
  });

  it("reports each broken row with the spec's reason and the cell it concerns", async () => {
    const rows = [
      "Name,Address,Amount",
      `ok,${A},1`,
      "short,0x1234,1",
      `zero,${A},0`,
      `negative,${B},-3`,
      `exponent,${B},1e5`,
      `too precise,${B},0.1234567890123456789`,
      `words,${B},ten`,
      "both,nope,",
      `checksum,${badChecksum(A)},1`,
      `extra,${A},1,surprise`,
    ];
    const answer = await parseCsv(rows.join("\n"));
    expect(answer.status).to.equal(200);
    const invalid = answer.body.data.invalidEntries as ParsedRecipients["invalidEntries"];
    const byLine = Object.fromEntries(invalid.map((e) => [e.line, e]));
    expect(answer.body.data.validRecipients.map((r: ParsedRecipients["validRecipients"][number]) => r.line)).to.deep.equal([2]);
    expect(byLine[3]).to.deep.include({ reason: "Invalid Ethereum address", name: "short", address: "0x1234", amount: "1" });
    for (const line of [4, 5, 6, 7, 8]) expect(byLine[line].reason, `line ${line}`).to.equal("Invalid amount");
    expect(byLine[4].errors[0].detail).to.match(/greater than 0/);
    expect(byLine[7].errors[0].detail).to.match(/19 decimals/);
    expect(byLine[9].errors.map((e: RecipientProblem) => [e.field, e.reason])).to.deep.equal([
      ["address", "Invalid Ethereum address"],
      ["amount", "Invalid amount"],
    ]);
    expect(byLine[10].reason).to.equal("Invalid Ethereum address");
    expect(byLine[10].errors[0].detail).to.match(/checksum/);
    expect(byLine[11].reason).to.equal("Invalid row");
    expect(byLine[11].errors[0].detail).to.match(/4 cells but the header names 3/);
    expect(invalid).to.have.length(9);
  });

  it("flags an address on more than one row, and still counts both rows", async () => {
    const answer = await parseCsv(`Name,Address,Amount\na,${A},1\nb,${B},2\nc,${A.toLowerCase()},3\n`);
    expect(answer.body.data.duplicates).to.deep.equal([{ address: A, lines: [2, 4] }]);
    expect(answer.body.data.validRecipients).to.have.length(3);
    expect(answer.body.data.totalAmount).to.equal("6");
  });

  it("keeps a formula-looking name as text and reports an unclosed quote as a broken row", async () => {
    const answer = await parseCsv(`Name,Address,Amount\n=HYPERLINK("x"),${A},1\n"unclosed,${B},2\n`);
    expect(answer.body.data.validRecipients[0].name).to.equal('=HYPERLINK("x")');
    expect(answer.body.data.invalidEntries[0].reason).to.equal("Invalid row");
  });

  it("answers a header-only file with no recipients (the dashboard says 'Empty CSV file')", async () => {
    const answer = await parseCsv("Name,Address,Amount\r\n");
    expect(answer.status).to.equal(200);
    expect(answer.body.data).to.include({ totalRows: 0, totalAmount: "0" });
  });

  it("refuses a file it cannot read as recipients, saying why", async () => {
    const noAddress = await parseCsv(`Name,Wallet,Amount\na,${A},1\n`);
    expect(noAddress.status).to.equal(400);
    expect(noAddress.body).to.deep.equal({
      success: false,
      error: "The CSV header must name the columns Address, Amount, Name; it has no Address column.",
    });
    const empty = await parseCsv("   \n");
    expect(empty.status).to.equal(400);
    expect(empty.body.error).to.match(/empty/);
    const notText = await parseCsv(42);
    expect(notText.status).to.equal(400);
    expect(notText.body.error).to.match(/csvData/);
  });

  it("reads 10,000 rows and refuses 10,001 with a clear message", async () => {
    const rows = (n: number) => ["Name,Address,Amount", ...Array.from({ length: n }, (_, i) => `r${i},${A},${(i % 97) + 1}.5`)].join("\n");
    const ok = await parseCsv(rows(10_000));
    expect(ok.status).to.equal(200);
    expect(ok.body.data.validRecipients).to.have.length(10_000);
    const tooMany = await parseCsv(rows(10_001));
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.error).to.equal(
      "The CSV has 10,001 rows; at most 10,000 recipients can be read at once. Split the file and upload each part.",
    );
  });

  it("needs a signed-in user and well-formed JSON", async () => {
    expect((await parseCsv("Name,Address,Amount\n", "")).status).to.equal(401);
    expect((await parseCsv("Name,Address,Amount\n", "forged.token.here")).status).to.equal(401);
    const malformed = await call(server, "POST", "/api/batch/parse-csv", { token, body: '{"csvData": "Name,' });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error).to.equal("Malformed JSON in the request body.");
  });

  it("limits CSV uploads per address", async () => {
    const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "2" });
    try {
      const send = () => call(limited, "POST", "/api/batch/parse-csv", { token, body: { csvData: "Name,Address,Amount\n" } });
      expect((await send()).status).to.equal(200);
      expect((await send()).status).to.equal(200);
      const third = await send();
      expect(third.status).to.equal(429);
      expect(third.body.error).to.equal("Too many CSV uploads from this address: wait a minute and try again.");
    } finally {
      await limited.close();
    }
  });
});
