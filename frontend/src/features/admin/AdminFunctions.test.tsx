import { describe, it, expect, vi, beforeEach } from "vitest";
import { screen, within, waitFor } from "@testing-library/react";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { AdminFunctions } from "./components/AdminFunctions";
import { safeInfo } from "@/test/safes";
import { ME, OTHER, THIRD, connect, renderScreen, resetAll, stubApi, tokenFigures, toasts, useChain } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

const api = () =>
  stubApi({
    "/api/roles": {
      roles: ROLE_NAMES.map((roleName) => ({
        roleName,
        roleHash: ROLES[roleName],
        holders: roleName === "DEFAULT_ADMIN_ROLE" ? [ME] : [],
      })),
    },
    "/api/blocklist": { blocked: [] },
    // Whether the wallet owns a Safe holding a role: here one that the test's wallets do not own.
    "/api/safes": { safes: [safeInfo({ owners: [THIRD, OTHER] })] },
  });
const listsAsked = (fetchMock: ReturnType<typeof api>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url !== "/api/safes");
beforeEach(() => {
  resetAll();
  useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
});

describe("Dashboard: Admin Functions", () => {
  it("renders nothing without a wallet", () => {
    const { container } = renderScreen(<AdminFunctions />);
    expect(container).toBeEmptyDOMElement();
  });

  it("renders nothing for a wallet without any admin role (UPGRADE_ROLE alone does not count)", () => {
    connect(ME, "UPGRADE_ROLE");
    const { container } = renderScreen(<AdminFunctions />);
    expect(container).toBeEmptyDOMElement();
  });

  it("shows a minter the five tabs, its roles, and notes instead of what it cannot do", async () => {
    connect(ME, "MINTER_ROLE");
    const fetchMock = api();
    const { user } = renderScreen(<AdminFunctions />);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Overview",
      "Token Operations",
      "Role Management",
      "Security",
      "Configuration",
    ]);

    // Overview: paused no, roles as badges; the lists are for admin and blocklist holders only.
    expect(screen.getByText("Contract paused").nextSibling).toHaveTextContent("No");
    expect(screen.getByText("Your roles").nextSibling).toHaveTextContent("MINTER_ROLE");
    expect(screen.getByText(/You need DEFAULT_ADMIN_ROLE or BLOCKLIST_ROLE to see role assignments/)).toBeInTheDocument();
    expect(listsAsked(fetchMock)).toEqual([]);

    await user.click(screen.getByRole("tab", { name: "Token Operations" }));
    expect(screen.getByText("Mint Tokens")).toBeInTheDocument();
    expect(await screen.findByText("You need BURNER_ROLE to burn.")).toBeInTheDocument();
    expect(screen.getByText("Your token permissions")).toBeInTheDocument();
    expect(screen.getByText("You can mint.")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Role Management" }));
    expect(screen.getByText("You need DEFAULT_ADMIN_ROLE to grant and revoke roles.")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Security" }));
    expect(screen.getByText("You need PAUSE_ROLE to pause and unpause.")).toBeInTheDocument();
    expect(screen.getByText("You need BLOCKLIST_ROLE to block and unblock accounts.")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Configuration" }));
    expect(screen.getByText("Your token permissions")).toBeInTheDocument();
  });

  it("shows an owner of a Safe holding roles, with no role of its own, the card: the Safe's roles, and the forms proposing to it", async () => {
    connect(THIRD);
    api();
    const { user } = renderScreen(<AdminFunctions />);
    expect(await screen.findByText("Through Operations Safe")).toBeInTheDocument();
    expect(screen.getByText("Through Operations Safe").nextSibling).toHaveTextContent(
      "MINTER_ROLEORACLE_ROLEPAUSE_ROLEEach action needs 2 of 2 owners' approvals.",
    );
    expect(screen.getByText("Your roles").nextSibling).toHaveTextContent("None");

    await user.click(screen.getByRole("tab", { name: "Token Operations" }));
    expect(await screen.findByRole("button", { name: "Propose to Operations Safe" })).toBeInTheDocument();
    expect(screen.getByText("You need BURNER_ROLE to burn.")).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Security" }));
    expect(await screen.findByRole("button", { name: "Propose Pause" })).toBeInTheDocument();
    expect(screen.getByText("You need BLOCKLIST_ROLE to block and unblock accounts.")).toBeInTheDocument();
  });

  it("shows an admin the role assignments and the blocklist in the overview, and the role form", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    api();
    const { user } = renderScreen(<AdminFunctions />);
    const roles = await screen.findByRole("region", { name: "Role assignments" });
    expect(await within(roles).findByRole("button", { name: `Copy address ${ME}` })).toBeInTheDocument();
    expect(within(roles).getAllByText("None assigned")).toHaveLength(6);
    expect(await screen.findByText("No addresses currently blocklisted")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Role Management" }));
    expect(screen.getByRole("button", { name: "Apply Role Change" })).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Current assignments" })).toBeInTheDocument();
  });

  it("shows the pause card and the blocklist form in Security to a holder of both roles", async () => {
    connect(ME, "PAUSE_ROLE", "BLOCKLIST_ROLE");
    api();
    const { user } = renderScreen(<AdminFunctions />);
    await user.click(screen.getByRole("tab", { name: "Security" }));
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Apply Blocklist Change" })).toBeInTheDocument();
  });

  it("says when the contract is paused", () => {
    connect(OTHER, "ORACLE_ROLE");
    useChain.setState({ token: { data: tokenFigures(true), isLoading: false, isError: false } });
    renderScreen(<AdminFunctions />);
    expect(screen.getByText("Contract paused").nextSibling).toHaveTextContent("Yes");
  });

  it("Refresh Data reloads and says 'Data refreshed'", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const fetchMock = api();
    const { user } = renderScreen(<AdminFunctions />);
    await screen.findByText("No addresses currently blocklisted");
    const before = fetchMock.mock.calls.length;
    await user.click(screen.getByRole("button", { name: "Refresh Data" }));
    await waitFor(() => expect(toasts()[0]).toMatchObject({ title: "Data refreshed" }));
    expect(fetchMock.mock.calls.length).toBeGreaterThan(before);
  });
});
