import { describe, it, expect, vi, beforeEach } from "vitest";
import { act, screen } from "@testing-library/react";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { useWallet } from "@/lib/wallet/store";
import AdminPanelPage from "./pages/AdminPanelPage";
import BlocklistPage from "./pages/BlocklistPage";
import RoleManagementPage from "./pages/RoleManagementPage";
import { ME, OTHER, connect, flagsOf, renderScreen, resetAll, stubApi, tokenFigures, useChain } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

const api = () =>
  stubApi({
    "/api/roles": {
      roles: ROLE_NAMES.map((roleName) => ({ roleName, roleHash: ROLES[roleName], holders: roleName === "MINTER_ROLE" ? [OTHER] : [] })),
    },
    "/api/blocklist": { blocked: [{ address: OTHER, isBlocked: true, since: null }] },
    // A wallet without a page's role is asked whether it owns a Safe that holds it: here none.
    "/api/safes": { safes: [] },
  });
beforeEach(() => {
  resetAll();
  useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
});

describe("Admin Panel (/admin)", () => {
  it("sends a visitor with no wallet to /", () => {
    renderScreen(<AdminPanelPage />);
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("shows a spinner while the admin check runs, then sends a wallet without DEFAULT_ADMIN_ROLE to /", () => {
    useChain.setState({ rolesLoading: true });
    connect(ME, "MINTER_ROLE");
    renderScreen(<AdminPanelPage />);
    expect(screen.getByRole("heading", { name: "USDX Admin Panel" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Checking admin access" })).toBeInTheDocument();
    act(() => useChain.setState({ rolesLoading: false }));
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("waits while the wallet is connecting", () => {
    useWallet.setState({ status: "connecting" });
    renderScreen(<AdminPanelPage />);
    expect(screen.getByRole("status", { name: "Checking admin access" })).toBeInTheDocument();
  });

  it("shows an admin the address, the notice, the pause control and four tabs", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<AdminPanelPage />);
    expect(screen.getByRole("heading", { name: "USDX Admin Panel" })).toBeInTheDocument();
    expect(screen.getByText("0x7099...79C8")).toBeInTheDocument();
    expect(screen.getAllByText("DEFAULT_ADMIN_ROLE").length).toBeGreaterThan(0);
    expect(screen.getByText(/This panel is only for accounts holding DEFAULT_ADMIN_ROLE/)).toBeInTheDocument();
    // Enabled while active even without PAUSE_ROLE: the hint says so, and the contract would refuse.
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeEnabled();
    expect(screen.getByText(/Requires PAUSE_ROLE: your wallet does not hold it/)).toBeInTheDocument();
    expect(screen.getByText("Contract status:", { exact: false }).closest("p")).toHaveTextContent("Contract status: Active");
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Token Operations", "Role Management", "Blocklist", "Settings"]);

    for (const title of ["Mint Tokens", "Burn Tokens", "Transfer Tokens"]) expect(screen.getByText(title)).toBeInTheDocument();
    expect(screen.getByLabelText("From Address")).toBeInTheDocument();
    expect(screen.getByText(/Requires MINTER_ROLE: your wallet does not hold it/)).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Role Management" }));
    expect(screen.getByRole("combobox", { name: "Role" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Grant" })).toBeChecked();
    expect(screen.getByRole("button", { name: "Apply Role Change" })).toBeDisabled();

    await user.click(screen.getByRole("tab", { name: "Blocklist" }));
    expect(screen.getByRole("radio", { name: "Block" })).toBeChecked();
    expect(screen.getByRole("button", { name: "Apply Blocklist Change" })).toBeDisabled();

    await user.click(screen.getByRole("tab", { name: "Settings" }));
    expect(screen.getByRole("button", { name: "Update Reward Multiplier" })).toBeInTheDocument();
  });

  it("offers Unpause Contract when the contract is paused", () => {
    connect(ME, "DEFAULT_ADMIN_ROLE", "PAUSE_ROLE");
    useChain.setState({ token: { data: tokenFigures(true), isLoading: false, isError: false } });
    renderScreen(<AdminPanelPage />);
    expect(screen.getByRole("button", { name: "Unpause Contract" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Pause Contract" })).not.toBeInTheDocument();
    expect(screen.getByText("Contract status:", { exact: false }).closest("p")).toHaveTextContent("Contract status: Paused");
  });
});

describe("Role Management page (/roles)", () => {
  it("without a wallet shows the table and a Connect Wallet prompt in place of the form", async () => {
    api();
    renderScreen(<RoleManagementPage />);
    expect(screen.getByRole("heading", { name: "Role Management" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Apply Role Change" })).not.toBeInTheDocument();
    expect(await screen.findByRole("button", { name: `Copy address ${OTHER}` })).toBeInTheDocument();
  });

  it("tells a wallet without the admin role (and no Safe holding it) what it needs", async () => {
    api();
    connect(ME, "MINTER_ROLE");
    renderScreen(<RoleManagementPage />);
    expect(await screen.findByText("You need DEFAULT_ADMIN_ROLE to grant and revoke roles.")).toBeInTheDocument();
  });

  it("gives an admin the role form", () => {
    api();
    connect(ME, "DEFAULT_ADMIN_ROLE");
    renderScreen(<RoleManagementPage />);
    expect(screen.getByRole("button", { name: "Apply Role Change" })).toBeInTheDocument();
  });
});

describe("Blocklist Management page (/blocklist)", () => {
  it("without a wallet shows the table and a Connect Wallet prompt", async () => {
    api();
    renderScreen(<BlocklistPage />);
    expect(screen.getByRole("heading", { name: "Blocklist Management" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    const row = (await screen.findByRole("button", { name: `Copy address ${OTHER}` })).closest("tr")!;
    expect(row).toHaveTextContent("Blocked");
  });

  it("tells a wallet without the blocklist role what it needs, and gives a holder the form", async () => {
    api();
    connect(ME, "MINTER_ROLE");
    const view = renderScreen(<BlocklistPage />);
    expect(await screen.findByText("You need BLOCKLIST_ROLE to block and unblock accounts.")).toBeInTheDocument();
    view.unmount();
    useChain.setState({ roles: { [ME]: flagsOf("BLOCKLIST_ROLE") } });
    renderScreen(<BlocklistPage />);
    expect(screen.getByRole("button", { name: "Apply Blocklist Change" })).toBeInTheDocument();
  });
});
