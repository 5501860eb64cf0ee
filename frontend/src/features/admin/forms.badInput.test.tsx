import type { ReactElement } from "react";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import type { RoleName } from "@common/roles";
import { BAD_ADDRESSES, BAD_AMOUNTS, BAD_CHECKSUM, caseCounter, GOOD_ADDRESS } from "@/test/badInputs";
import { AdminTransferForm } from "./components/AdminTransferForm";
import { BlocklistForm } from "./components/BlocklistForm";
import { BurnForm } from "./components/BurnForm";
import { MintForm } from "./components/MintForm";
import { MultiplierForm } from "./components/MultiplierForm";
import { RoleForm } from "./components/RoleForm";
import { ME, connect, lastToast, renderScreen, resetAll, run, stubApi, useChain } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

/**
 * Every role holder's form against the table of bad inputs (issue 7, item 3): each is refused with
 * PRODUCT.md section 5's toast and the same sentence under the field, and nothing reaches the runner or
 * the server. In the Admin Panel a blank field keeps the button disabled instead (spec: "otherwise
 * submit does nothing").
 */
const cases = caseCounter("admin forms");
afterAll(() => cases.print());

let fetchMock: ReturnType<typeof stubApi>;
beforeEach(() => {
  resetAll();
  fetchMock = stubApi({ "/api/reward-multiplier": { success: true, id: 1 } });
});

interface Problem {
  title: string;
  description: string | RegExp;
}
const INVALID_AMOUNT: Problem = { title: "Invalid amount", description: "Please enter a valid amount greater than 0" };
const INVALID_VALUE: Problem = { title: "Invalid value", description: "Please enter a valid positive number" };
const addressProblem = (value: string): Problem =>
  value === BAD_CHECKSUM
    ? { title: "Invalid address", description: /has a wrong checksum/ }
    : { title: "Invalid address", description: "Please enter a valid Ethereum address" };

interface FormUnderTest {
  name: string;
  element: ReactElement;
  role: RoleName;
  address?: string;
  amount?: string;
  submit: string;
  /** The Admin Panel's variant: a blank field disables the button. */
  adminPanel?: boolean;
  amountProblem?: Problem;
}

const FORMS: FormUnderTest[] = [
  { name: "Mint", element: <MintForm />, role: "MINTER_ROLE", address: "Recipient Address", amount: "Amount", submit: "Mint" },
  { name: "Burn", element: <BurnForm />, role: "BURNER_ROLE", address: "From Address", amount: "Amount", submit: "Burn" },
  {
    name: "Mint (Admin Panel)",
    element: <MintForm adminPanel />,
    role: "MINTER_ROLE",
    address: "Recipient Address",
    amount: "Amount",
    submit: "Mint",
    adminPanel: true,
  },
  {
    name: "Transfer (Admin Panel)",
    element: <AdminTransferForm adminPanel />,
    role: "DEFAULT_ADMIN_ROLE",
    address: "Recipient Address",
    amount: "Amount",
    submit: "Transfer",
    adminPanel: true,
  },
  { name: "Blocklist", element: <BlocklistForm />, role: "BLOCKLIST_ROLE", address: "Account Address", submit: "Apply Blocklist Change" },
  { name: "Role", element: <RoleForm />, role: "DEFAULT_ADMIN_ROLE", address: "Account Address", submit: "Apply Role Change" },
  {
    name: "Reward multiplier (Admin Panel)",
    element: <MultiplierForm />,
    role: "ORACLE_ROLE",
    amount: "Reward Multiplier",
    submit: "Update Reward Multiplier",
    adminPanel: true,
    amountProblem: INVALID_VALUE,
  },
];

/** Sets a field as a paste would; a number field keeps only what the browser accepts as a number. */
function fill(label: string, value: string): string {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  return input.value;
}

async function expectRefused(form: FormUnderTest, shown: string[], problem: Problem) {
  const button = screen.getByRole("button", { name: form.submit });
  if (form.adminPanel && shown.some((v) => v.trim() === "")) {
    expect(button).toBeDisabled();
    fireEvent.click(button);
    expect(lastToast()).toBeUndefined();
  } else {
    fireEvent.click(button);
    expect(lastToast()).toMatchObject({ title: problem.title, description: problem.description, variant: "destructive" });
    const alerts = screen.getAllByRole("alert").map((a) => a.textContent ?? "");
    expect(
      alerts.some((text) => (typeof problem.description === "string" ? text === problem.description : problem.description.test(text))),
    ).toBe(true);
  }
  expect(run).not.toHaveBeenCalled();
  expect(fetchMock).not.toHaveBeenCalled();
}

for (const form of FORMS) {
  describe(`${form.name} form`, () => {
    const open = () => {
      connect(ME, form.role);
      // Enough balance that only the amount's own form can be wrong, not the balance.
      useChain.setState({ accounts: { [ME]: { balance: 2n ** 255n, shares: 2n ** 255n, blocked: false, readAt: 0 } } });
      renderScreen(form.element);
    };

    if (form.address) {
      it.each(BAD_ADDRESSES)("refuses the address: %s", async (_what, value) => {
        cases.count("address");
        open();
        const shown = [fill(form.address!, value)];
        if (form.amount) shown.push(fill(form.amount, "1"));
        await expectRefused(form, shown, addressProblem(value));
      });
    }

    if (form.amount) {
      it.each(BAD_AMOUNTS)("refuses the amount: %s", async (_what, value) => {
        cases.count("amount");
        open();
        const shown: string[] = [];
        if (form.address) shown.push(fill(form.address, GOOD_ADDRESS));
        shown.push(fill(form.amount!, value));
        await expectRefused(form, shown, form.amountProblem ?? INVALID_AMOUNT);
      });
    }

    it("sends nothing without a wallet: the button is disabled and says why", () => {
      cases.count("no wallet");
      renderScreen(form.element);
      if (form.address) fill(form.address, GOOD_ADDRESS);
      if (form.amount) fill(form.amount, "1");
      const button = screen.getByRole("button", { name: form.submit });
      expect(button).toBeDisabled();
      fireEvent.click(button);
      expect(screen.getByText(/^Wallet not connected\. Please connect your wallet to /)).toBeInTheDocument();
      expect(run).not.toHaveBeenCalled();
    });
  });
}
