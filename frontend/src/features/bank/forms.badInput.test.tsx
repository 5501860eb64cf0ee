// @vitest-environment jsdom
// jsdom, as a browser does, gives an amount field (type="number") that holds no number the value ""
// ("0x1f", "1,000", "Infinity"): what the form then reads is what a person's browser hands it.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { BAD_ADDRESSES, BAD_AMOUNTS, BAD_CHECKSUM, BLANKS, caseCounter, GOOD_ADDRESS } from "@/test/badInputs";
import { account, callsTo, ERIN, fakeBank, lastToast, renderBankPage, resetAll, wallet, type FakeBank } from "./testUtils";

/**
 * The mock bank's three forms against the table of bad inputs (issue 7, item 3): Add Account, Add
 * Wallet and Deposit USD refuse each with PRODUCT.md section 5's title ('Missing Information', 'Invalid
 * Address', 'Duplicate Wallet', 'Invalid Deposit'), show the sentence in the form, and send nothing.
 */
const cases = caseCounter("bank forms");
afterAll(() => cases.print());

beforeEach(resetAll);

type User = ReturnType<typeof renderBankPage>["user"];
const fill = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

function expectRefused(bank: FakeBank, path: string, scope: HTMLElement, title: string, description: string | RegExp) {
  expect(lastToast()).toMatchObject({ title, description, variant: "destructive" });
  const alert = within(scope).getByRole("alert");
  if (typeof description === "string") expect(alert).toHaveTextContent(description);
  else expect(alert.textContent).toMatch(description);
  expect(callsTo(bank, path, "POST")).toBe(0);
}

describe("Add Account", () => {
  const MISSING = "Please provide the account name, type, account number and routing number.";
  const GOOD = { "Account Name": "Everyday", "Account Number": "000123456789", "Routing Number": "021000021" };

  async function open(user: User) {
    await user.click(await screen.findByRole("button", { name: "Add Account" }));
    return screen.getByRole("dialog", { name: "Add Bank Account" });
  }

  for (const field of Object.keys(GOOD) as (keyof typeof GOOD)[]) {
    it.each(BLANKS)(`refuses the ${field}: %s`, async (_what, value) => {
      cases.count("required field");
      const bank = fakeBank();
      const { user } = renderBankPage();
      const dialog = await open(user);
      for (const [label, good] of Object.entries(GOOD)) fill(dialog, label, label === field ? value : good);
      await user.click(within(dialog).getByLabelText("Account Type"));
      await user.click(await screen.findByRole("option", { name: "Checking" }));
      fireEvent.click(within(dialog).getByRole("button", { name: "Add Account" }));
      expectRefused(bank, "/api/bank/accounts", dialog, "Missing Information", MISSING);
    });
  }

  it("refuses an account whose type was never chosen", async () => {
    cases.count("required field");
    const bank = fakeBank();
    const { user } = renderBankPage();
    const dialog = await open(user);
    for (const [label, good] of Object.entries(GOOD)) fill(dialog, label, good);
    fireEvent.click(within(dialog).getByRole("button", { name: "Add Account" }));
    expectRefused(bank, "/api/bank/accounts", dialog, "Missing Information", MISSING);
  });
});

describe("Add Wallet", () => {
  async function open(bank: FakeBank) {
    const { user } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "My Wallets" }));
    await user.click(await screen.findByRole("button", { name: "Add Wallet" }));
    return { dialog: screen.getByRole("dialog", { name: "Add Wallet" }), bank };
  }
  const submit = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole("button", { name: "Add Wallet" }));
  const MISSING = "Please provide both the wallet name and address.";

  it.each(BLANKS)("refuses the name: %s", async (_what, value) => {
    cases.count("name");
    const { dialog, bank } = await open(fakeBank({ wallets: [wallet()] }));
    fill(dialog, "Wallet Name", value);
    fill(dialog, "Wallet Address", GOOD_ADDRESS);
    submit(dialog);
    expectRefused(bank, "/api/bank/wallets", dialog, "Missing Information", MISSING);
  });

  it.each(BAD_ADDRESSES)("refuses the address: %s", async (_what, value) => {
    cases.count("address");
    const { dialog, bank } = await open(fakeBank({ wallets: [wallet()] }));
    fill(dialog, "Wallet Name", "Cold storage");
    fill(dialog, "Wallet Address", value);
    submit(dialog);
    if (value.trim() === "") expectRefused(bank, "/api/bank/wallets", dialog, "Missing Information", MISSING);
    else if (value === BAD_CHECKSUM) expectRefused(bank, "/api/bank/wallets", dialog, "Invalid Address", /has a wrong checksum/);
    else
      expectRefused(
        bank,
        "/api/bank/wallets",
        dialog,
        "Invalid Address",
        "Please enter a valid Ethereum address: 0x followed by 40 hex characters.",
      );
  });

  it.each([
    ["in lower case", ERIN.toLowerCase()],
    ["in capitals", `0x${ERIN.slice(2).toUpperCase()}`],
    ["with spaces around it", `  ${ERIN}  `],
  ])("refuses a wallet already listed, %s: 'Duplicate Wallet'", async (_what, value) => {
    cases.count("address");
    const { dialog, bank } = await open(fakeBank({ wallets: [wallet()] }));
    fill(dialog, "Wallet Name", "Again");
    fill(dialog, "Wallet Address", value);
    submit(dialog);
    expectRefused(bank, "/api/bank/wallets", dialog, "Duplicate Wallet", `${ERIN} is already in your wallets as 'Main wallet'.`);
  });
});

describe("Deposit USD", () => {
  const ENTER = "Please enter the amount to deposit, in US dollars.";
  const SUCH = "Please enter an amount greater than 0, such as 125.50.";
  const CENTS = "A US dollar amount has at most 2 decimals (cents).";
  const MAX = "A mock deposit is at most $1,000,000.00.";
  // The field is a number input: what the browser does not take as a number reaches the form as
  // "" (so it asks for an amount); what it takes is judged as dollars.
  const EXPECTED: Record<string, string> = {
    empty: ENTER,
    "only spaces": ENTER,
    zero: "Please enter an amount greater than 0.",
    "zero with decimals": CENTS,
    negative: SUCH,
    "negative zero": SUCH,
    "a Unicode minus": ENTER,
    "an exponent": SUCH,
    "a negative exponent": SUCH,
    hex: ENTER,
    Infinity: ENTER,
    NaN: ENTER,
    "a thousands separator": ENTER,
    "an underscore": ENTER,
    "a plus sign": ENTER,
    "two points": ENTER,
    "19 decimals": CENTS,
    "19 decimals below one": CENTS,
    "beyond a uint256 in base units": MAX,
    "80 digits": MAX,
    "fullwidth digits": ENTER,
    "Arabic-Indic digits": ENTER,
    "an emoji": ENTER,
    letters: ENTER,
    "a NUL": ENTER,
    "an RTL override": ENTER,
    "a spreadsheet formula": ENTER,
    "a formula with @": ENTER,
  };

  async function open() {
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "Deposit USD" }));
    await user.click(await screen.findByLabelText("From bank account"));
    await user.click(await screen.findByRole("option", { name: /Everyday Checking/ }));
    return bank;
  }

  it("has an expected sentence for every bad amount", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(BAD_AMOUNTS.map(([what]) => what).sort());
  });

  it.each(BAD_AMOUNTS)("refuses the amount: %s", async (what, value) => {
    cases.count("amount");
    const bank = await open();
    fireEvent.change(screen.getByLabelText("Amount (USD)"), { target: { value } });
    fireEvent.click(screen.getByRole("button", { name: "Deposit USD" }));
    expectRefused(bank, "/api/bank/deposits", document.body, "Invalid Deposit", EXPECTED[what]);
  });
});
