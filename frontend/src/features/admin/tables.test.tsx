import { describe, it, expect, vi, beforeEach } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { BlocklistTable } from "./components/BlocklistTable";
import { RoleAssignmentsTable } from "./components/RoleAssignmentsTable";
import { ME, OTHER, THIRD, flagsOf, json, renderScreen, resetAll, stubApi, toasts, useChain } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);

const rolesAnswer = (holders: Partial<Record<(typeof ROLE_NAMES)[number], string[]>>) => ({
  roles: ROLE_NAMES.map((roleName) => ({ roleName, roleHash: ROLES[roleName], holders: holders[roleName] ?? [] })),
});

beforeEach(resetAll);

describe("Role assignments table (GET /api/roles)", () => {
  it("shows a spinner while the list loads", () => {
    stubApi({ "/api/roles": () => new Promise<Response>(() => undefined) });
    renderScreen(<RoleAssignmentsTable />);
    expect(screen.getByRole("status", { name: "Loading role assignments" })).toBeInTheDocument();
  });

  it("lists each holder as Granted and a role nobody holds as 'None assigned'", async () => {
    stubApi({ "/api/roles": rolesAnswer({ DEFAULT_ADMIN_ROLE: [ME], MINTER_ROLE: [ME, OTHER] }) });
    renderScreen(<RoleAssignmentsTable />);
    const rows = await screen.findAllByRole("row");
    // Header, admin, two minters, and one row for each of the five roles nobody holds.
    expect(rows).toHaveLength(1 + 1 + 2 + 5);
    expect(rows[1]).toHaveTextContent("DEFAULT_ADMIN_ROLE");
    expect(rows[1]).toHaveTextContent("Granted");
    expect(screen.getAllByText("None assigned")).toHaveLength(5);
    expect(rows[4]).toHaveTextContent("BURNER_ROLE");
    expect(rows[4]).toHaveTextContent("Not Granted");
  });

  it("says Not Granted when the chain no longer agrees with the server's list", async () => {
    useChain.setState({ roles: { [OTHER]: flagsOf() } });
    stubApi({ "/api/roles": rolesAnswer({ MINTER_ROLE: [OTHER] }) });
    renderScreen(<RoleAssignmentsTable />);
    const row = (await screen.findByRole("button", { name: `Copy address ${OTHER}` })).closest("tr")!;
    expect(row).toHaveTextContent("Not Granted");
  });

  it("copies an address when it is clicked ('Address copied')", async () => {
    stubApi({ "/api/roles": rolesAnswer({ PAUSE_ROLE: [THIRD] }) });
    const { user } = renderScreen(<RoleAssignmentsTable />);
    await user.click(await screen.findByRole("button", { name: `Copy address ${THIRD}` }));
    await waitFor(() => expect(toasts()[0]).toMatchObject({ title: "Address copied", description: THIRD }));
    expect(await navigator.clipboard.readText()).toBe(THIRD);
  });

  it("on failure toasts 'Failed to load role information', shows the error inline, and Retry loads it", async () => {
    let fail = true;
    stubApi({
      "/api/roles": () => (fail ? json({ error: "the index is rebuilding" }, 503) : json(rolesAnswer({ DEFAULT_ADMIN_ROLE: [ME] }))),
    });
    const { user } = renderScreen(<RoleAssignmentsTable />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load role information");
    expect(alert).toHaveTextContent("503: the index is rebuilding");
    expect(toasts()[0]).toMatchObject({ title: "Failed to load role information", variant: "destructive" });

    fail = false;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("DEFAULT_ADMIN_ROLE")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("Blocklist table (GET /api/blocklist)", () => {
  const since = { blockNumber: 12, timestamp: Math.floor(Date.now() / 1000) - 2 * 3600, transactionHash: `0x${"ab".repeat(32)}` };

  it("shows a spinner while the list loads", () => {
    stubApi({ "/api/blocklist": () => new Promise<Response>(() => undefined) });
    renderScreen(<BlocklistTable />);
    expect(screen.getByRole("status", { name: "Loading the blocklist" })).toBeInTheDocument();
  });

  it("says 'No addresses currently blocklisted' when nobody is blocked", async () => {
    stubApi({ "/api/blocklist": { blocked: [] } });
    renderScreen(<BlocklistTable />);
    expect(await screen.findByText("No addresses currently blocklisted")).toBeInTheDocument();
  });

  it("lists blocked accounts with their status and since when, confirmed with the chain", async () => {
    useChain.setState({ blocked: { [OTHER]: true, [THIRD]: false } });
    stubApi({
      "/api/blocklist": {
        blocked: [
          { address: OTHER, isBlocked: true, since },
          { address: THIRD, isBlocked: true, since: null },
        ],
      },
    });
    renderScreen(<BlocklistTable />);
    const rows = await screen.findAllByRole("row");
    expect(rows[1]).toHaveTextContent("Blocked");
    expect(rows[1]).toHaveTextContent("2 hours ago");
    expect(screen.getByRole("link", { name: "2 hours ago" })).toHaveAttribute("href", `/tx/${since.transactionHash}`);
    // Unblocked on the chain a moment ago; the server's index has not caught up yet.
    expect(rows[2]).toHaveTextContent("Not Blocked");
    expect(rows[2]).toHaveTextContent("Unknown");
  });

  it("in the Dashboard's overview says Blocked / Active", async () => {
    useChain.setState({ blocked: { [OTHER]: true, [THIRD]: false } });
    stubApi({
      "/api/blocklist": {
        blocked: [
          { address: OTHER, isBlocked: true, since },
          { address: THIRD, isBlocked: true, since },
        ],
      },
    });
    renderScreen(<BlocklistTable words="overview" />);
    const rows = await screen.findAllByRole("row");
    expect(rows[1]).toHaveTextContent("Blocked");
    expect(rows[2]).toHaveTextContent("Active");
  });

  it("copies an address when it is clicked", async () => {
    stubApi({ "/api/blocklist": { blocked: [{ address: OTHER, isBlocked: true, since }] } });
    const { user } = renderScreen(<BlocklistTable />);
    await user.click(await screen.findByRole("button", { name: `Copy address ${OTHER}` }));
    await waitFor(() => expect(toasts()[0]).toMatchObject({ title: "Address copied" }));
  });

  it("on failure toasts 'Failed to load blocklist information' and offers Retry", async () => {
    let fail = true;
    stubApi({ "/api/blocklist": () => (fail ? json({ error: "chain down" }, 503) : json({ blocked: [] })) });
    const { user } = renderScreen(<BlocklistTable />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load blocklist information");
    expect(toasts()[0]).toMatchObject({ title: "Failed to load blocklist information", description: "503: chain down" });
    fail = false;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("No addresses currently blocklisted")).toBeInTheDocument();
  });
});
