import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { useToasts } from "@/components/ui/toast";
import { BAD_ADDRESSES, BAD_AMOUNTS, BAD_CHECKSUM, caseCounter, GOOD_ADDRESS } from "@/test/badInputs";
import { MultiplierDialog } from "./components/MultiplierDialog";
import { TransferDialog } from "./components/TransferDialog";
import { json, lastToast, ME, ok, renderAtHome, stubApi } from "./testUtils";

const { run } = vi.hoisted(() => ({ run: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));

/**
 * The Dashboard's two dialogs against the table of bad inputs (issue 7, item 3): 'Transfer USDX' and
 * 'Update Reward Multiplier' refuse each with PRODUCT.md section 5's toast and the sentence under the
 * field, and send nothing: no transaction, no audit request.
 */
const cases = caseCounter("dashboard dialogs");
afterAll(() => cases.print());

let fetchMock: ReturnType<typeof stubApi>;
beforeEach(() => {
  useToasts.setState({ toasts: [] });
  run.mockReset().mockResolvedValue(ok);
  fetchMock = stubApi({ "/api/reward-multiplier": () => json({ success: true, id: 1 }, 201) });
});

/** Enough that only the amount's own form can be wrong, never the balance (below 2^256, so it is a real balance). */
const BALANCE = 2n ** 255n;

function expectRefused(dialog: HTMLElement, title: string, description: string | RegExp) {
  expect(lastToast()).toMatchObject({ title, description, variant: "destructive" });
  const alert = within(dialog).getByRole("alert");
  if (typeof description === "string") expect(alert).toHaveTextContent(description);
  else expect(alert.textContent).toMatch(description);
  expect(run).not.toHaveBeenCalled();
  expect(fetchMock).not.toHaveBeenCalled();
}

describe("Transfer USDX", () => {
  function open(address: string | null = ME) {
    renderAtHome(<TransferDialog open onOpenChange={vi.fn()} address={address} balance={BALANCE} balanceLoading={false} />);
    return screen.getByRole("dialog", { name: "Transfer USDX" });
  }
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  const submit = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole("button", { name: "Transfer" }));

  it.each(BAD_ADDRESSES)("refuses the recipient: %s", (_what, value) => {
    cases.count("address");
    const dialog = open();
    fill("Recipient Address", value);
    fill("Amount (USDX)", "1");
    submit(dialog);
    expectRefused(dialog, "Invalid address", value === BAD_CHECKSUM ? /has a wrong checksum/ : "Please enter a valid Ethereum address");
  });

  it.each(BAD_AMOUNTS)("refuses the amount: %s", (_what, value) => {
    cases.count("amount");
    const dialog = open();
    fill("Recipient Address", GOOD_ADDRESS);
    fill("Amount (USDX)", value);
    submit(dialog);
    expectRefused(dialog, "Invalid amount", "Please enter a valid amount greater than 0");
  });

  it("refuses one base unit more than the balance: 'Insufficient balance'", () => {
    cases.count("amount");
    renderAtHome(<TransferDialog open onOpenChange={vi.fn()} address={ME} balance={10n ** 18n} balanceLoading={false} />);
    const dialog = screen.getByRole("dialog", { name: "Transfer USDX" });
    fill("Recipient Address", GOOD_ADDRESS);
    fill("Amount (USDX)", "1.000000000000000001");
    submit(dialog);
    expectRefused(dialog, "Insufficient balance", "You only have 1.00 USDX available");
  });

  it("refuses without a wallet, whatever is typed: 'Wallet not connected'", () => {
    cases.count("no wallet");
    const dialog = open(null);
    fill("Recipient Address", GOOD_ADDRESS);
    fill("Amount (USDX)", "1");
    submit(dialog);
    expectRefused(dialog, "Wallet not connected", "Please connect your wallet to transfer tokens");
  });
});

describe("Update Reward Multiplier", () => {
  const CURRENT = 1_050_000_000_000_000_000n;
  async function open(operation: "set" | "add", connected = true) {
    const view = renderAtHome(<MultiplierDialog open onOpenChange={vi.fn()} connected={connected} current={CURRENT} />);
    if (operation === "add") await view.user.click(screen.getByRole("radio", { name: "Add to current" }));
    return {
      dialog: screen.getByRole("dialog", { name: "Update Reward Multiplier" }),
      submit: operation === "set" ? "Set Value" : "Add Value",
    };
  }

  for (const operation of ["set", "add"] as const) {
    it.each(BAD_AMOUNTS)(`refuses the ${operation} value: %s`, async (_what, value) => {
      cases.count("multiplier");
      const { dialog, submit } = await open(operation);
      fireEvent.change(screen.getByRole("spinbutton"), { target: { value } });
      fireEvent.click(within(dialog).getByRole("button", { name: submit }));
      expectRefused(dialog, "Invalid value", "Please enter a valid positive number");
    });
  }

  it("refuses without a wallet: 'Please connect your wallet to update the reward multiplier'", async () => {
    cases.count("no wallet");
    const { dialog } = await open("set", false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Set Value" }));
    expectRefused(dialog, "Wallet not connected", "Please connect your wallet to update the reward multiplier");
  });
});
