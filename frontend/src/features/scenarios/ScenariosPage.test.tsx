import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { setTokenGetter } from "@/lib/api";
import { usePendingEntries } from "@/lib/tx/pending";
import { renderAtHome } from "@/test/render";
import { RUN_POLL_MS, type ScenarioRun, type ScenarioSummary, type SnapshotSummary } from "./api";
import ScenariosPage from "./pages/ScenariosPage";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const refused = (status: number, error: string) => json({ success: false, error }, status);

const PAUSED: ScenarioSummary = {
  name: "paused",
  file: "scenarios/paused.yaml",
  description: "The token is paused: every transfer, mint and burn is refused.",
};
const EMPTY: ScenarioSummary = { name: "empty", file: "scenarios/empty.yaml", description: "No holders but the admin." };
const BEFORE: SnapshotSummary = { name: "before-payments", blockNumber: 1234, takenAt: new Date(Date.now() - 5 * 60_000).toISOString() };
const STEPS = ["grant PAUSE_ROLE to pauser", "mint 10,000 USDX to alice", "pause USDX"];

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/**
 * /api/scenarios and /api/snapshots as the server answers them (server/src/services/scenarios/runs.ts):
 * a run starts 'running' and the test moves it along as the engine would; a second is refused 409.
 * `override` answers a call first when it returns a Response.
 */
function fakeServer(override?: (call: Call) => Response | undefined) {
  const store = { scenarios: [PAUSED, EMPTY], snapshots: [BEFORE], run: null as ScenarioRun | null };
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { pathname } = new URL(String(input), "http://dashboard.test");
      const call: Call = {
        method: init?.method ?? "GET",
        path: pathname,
        body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const answer = override?.(call);
      if (answer) return answer;
      const run = () => store.run && { ...store.run, lines: [...store.run.lines] };
      if (call.method === "GET" && pathname === "/api/scenarios")
        return json({ success: true, scenarios: store.scenarios, snapshots: store.snapshots, run: run() });
      if (call.method === "GET" && pathname === "/api/scenarios/run") return json({ success: true, run: run() });
      const start = pathname.match(/^\/api\/(?:scenarios\/([^/]+)\/apply|snapshots\/([^/]+)\/restore)$/);
      if (call.method === "POST" && start) {
        if (store.run?.state === "running")
          return refused(409, "A run is under way: applying the scenario 'paused' (step 1 of 3). Wait until it ends, then try again.");
        const kind = start[1] ? "apply" : "restore";
        store.run = {
          kind,
          name: decodeURIComponent(start[1] ?? start[2]),
          state: "running",
          done: 0,
          total: 0,
          label: null,
          lines: [],
          sent: null,
          error: null,
          startedAt: new Date().toISOString(),
          finishedAt: null,
        };
        return json({ success: true, run: run() }, 202);
      }
      if (call.method === "POST" && pathname === "/api/snapshots") {
        const { name } = call.body as { name: string };
        if (store.snapshots.some((s) => s.name === name))
          return refused(409, `The snapshot was not taken: A snapshot named '${name}' exists already.`);
        const snapshot = { name, blockNumber: 1300, takenAt: new Date().toISOString() };
        store.snapshots.push(snapshot);
        return json({ success: true, snapshot }, 201);
      }
      return refused(404, `No such endpoint: ${call.method} ${pathname}`);
    }),
  );
  /** The engine's next report on the run under way. */
  const progress = (fields: Partial<ScenarioRun>) => {
    store.run = { ...store.run!, ...fields };
  };
  return { store, calls, progress, posts: () => calls.filter((c) => c.method === "POST") };
}

// A run's progress is polled every RUN_POLL_MS. A test that follows a run fakes the clock (which
// still runs on its own) and moves it on to the next poll rather than waiting for it.
const followRuns = () => vi.useFakeTimers({ shouldAdvanceTime: true });
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS));

function renderPage() {
  return renderAtHome(<ScenariosPage />);
}

beforeEach(() => {
  vi.unstubAllGlobals();
  useToasts.setState({ toasts: [] });
  setTokenGetter(async () => "id-token-1");
});
afterEach(() => vi.useRealTimers());

describe("Scenarios page (/scenarios)", () => {
  it("lists the shipped scenarios with their sentences and 'Apply', the snapshots with 'Restore', and the field to take one", async () => {
    fakeServer();
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Scenarios" })).toBeInTheDocument();
    const scenarios = await screen.findByRole("list", { name: "Shipped scenarios" });
    const items = within(scenarios).getAllByRole("listitem");
    expect(
      items.map((item) =>
        within(item)
          .getAllByRole("paragraph")
          .map((p) => p.textContent),
      ),
    ).toEqual([
      ["paused", PAUSED.description, "scenarios/paused.yaml"],
      ["empty", EMPTY.description, "scenarios/empty.yaml"],
    ]);
    expect(within(items[0]).getByRole("button", { name: "Apply paused" })).toBeEnabled();
    const snapshot = within(screen.getByRole("list", { name: "Snapshots" })).getByRole("listitem");
    expect(snapshot).toHaveTextContent("before-paymentsBlock 1,234, taken 5 minutes ago");
    expect(within(snapshot).getByRole("button", { name: "Restore before-payments" })).toBeEnabled();
    expect(screen.getByRole("textbox", { name: "Snapshot name" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Take Snapshot" })).toBeEnabled();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("asks before applying, and sends nothing when cancelled", async () => {
    const server = fakeServer();
    const { user } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Apply paused" }));
    const dialog = screen.getByRole("dialog", { name: "Apply 'paused'?" });
    expect(dialog).toHaveTextContent(`${PAUSED.description} Transactions go to the local chain at once, for everyone using it.`);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(server.posts()).toEqual([]);
  });

  it("applies a scenario once confirmed: the progress bar with 'Step 2 of 3: ...' and the lines, then the outcome, and every read refreshed", async () => {
    followRuns();
    const server = fakeServer();
    const { user, client } = renderPage();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await user.click(await screen.findByRole("button", { name: "Apply paused" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Apply" }));
    expect(server.posts().map((c) => c.path)).toEqual(["/api/scenarios/paused/apply"]);
    expect(await screen.findByRole("heading", { name: "Applying 'paused'" })).toBeInTheDocument();
    expect(screen.getByText("Reading the chain and planning...")).toBeInTheDocument();
    // Nothing else may start meanwhile.
    expect(screen.getByRole("button", { name: "Apply empty" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Restore before-payments" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Take Snapshot" })).toBeDisabled();

    server.progress({ done: 2, total: 3, label: STEPS[1], lines: STEPS.slice(0, 2) });
    await nextPoll();
    await screen.findByText("Step 2 of 3: mint 10,000 USDX to alice");
    const bar = screen.getByRole("progressbar", { name: "Run progress" });
    expect([bar.getAttribute("aria-valuenow"), bar.getAttribute("aria-valuemax")]).toEqual(["2", "3"]);
    expect(bar).toHaveAttribute("aria-valuetext", "Step 2 of 3: mint 10,000 USDX to alice");
    expect(
      within(screen.getByRole("list", { name: "What the run said" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(STEPS.slice(0, 2));
    expect(invalidate).not.toHaveBeenCalled();

    const report = "alice 0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
    server.progress({ state: "done", done: 3, label: STEPS[2], lines: [...STEPS, report], sent: 3, finishedAt: new Date().toISOString() });
    await nextPoll();
    await screen.findByText("Scenario applied");
    expect(screen.getByRole("heading", { name: "Applied 'paused'" })).toBeInTheDocument();
    expect(screen.getByText("'paused' is applied: 3 transactions sent.")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "What the run said" })).toHaveTextContent(report);
    // Balances, the token's state (the paused banner) and history: every query is read again.
    expect(invalidate).toHaveBeenCalledWith();
    expect(screen.getByRole("button", { name: "Apply empty" })).toBeEnabled();
  });

  it("says when the chain was already in the scenario's state", async () => {
    const server = fakeServer();
    server.store.run = {
      kind: "apply",
      name: "paused",
      state: "done",
      done: 0,
      total: 0,
      label: null,
      lines: [],
      sent: 0,
      error: null,
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    };
    renderPage();
    expect(await screen.findByText("'paused' is applied: the chain was already in its state, so nothing was sent.")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Run progress" })).toHaveAttribute("aria-valuenow", "1");
  });

  it("shows a failed run's sentence", async () => {
    followRuns();
    const server = fakeServer();
    const { user } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Apply paused" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Apply" }));
    await screen.findByRole("heading", { name: "Applying 'paused'" });
    server.progress({
      state: "failed",
      done: 1,
      total: 3,
      label: STEPS[0],
      lines: [STEPS[0]],
      error: "The node at RPC_URL is not answering.",
    });
    await nextPoll();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The run failedThe node at RPC_URL is not answering.");
    expect(screen.getByRole("heading", { name: "Applying 'paused' failed" })).toBeInTheDocument();
  });

  it("restores a snapshot once confirmed, and forgets what this browser sent since", async () => {
    followRuns();
    const server = fakeServer();
    usePendingEntries
      .getState()
      .add({ hash: `0x${"ab".repeat(32)}`, type: "Transfer", from: "0x1", to: "0x2", amountRaw: "1", sentAt: Date.now() });
    const { user, client } = renderPage();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await user.click(await screen.findByRole("button", { name: "Restore before-payments" }));
    const dialog = screen.getByRole("dialog", { name: "Restore 'before-payments'?" });
    expect(dialog).toHaveTextContent(
      "The chain goes back to block 1,234, as it was when this snapshot was taken: everything since is undone, for everyone using it.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Restore" }));
    expect(server.posts().map((c) => c.path)).toEqual(["/api/snapshots/before-payments/restore"]);
    await screen.findByRole("heading", { name: "Restoring snapshot 'before-payments'" });
    expect(usePendingEntries.getState().entries).toHaveLength(1);

    server.progress({
      state: "done",
      done: 1,
      total: 1,
      label: "revert the node",
      lines: ["revert the node"],
      finishedAt: new Date().toISOString(),
    });
    await nextPoll();
    await screen.findByText("Snapshot restored");
    expect(screen.getByText("The chain is back as it was when 'before-payments' was taken.")).toBeInTheDocument();
    expect(usePendingEntries.getState().entries).toEqual([]);
    expect(invalidate).toHaveBeenCalledWith();
  });

  it("toasts the server's refusal when a run cannot start (another is under way)", async () => {
    fakeServer((call) =>
      call.method === "POST"
        ? refused(409, "A run is under way: restoring the snapshot 'x'. Wait until it ends, then try again.")
        : undefined,
    );
    const { user } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Apply empty" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(useToasts.getState().toasts[0]).toMatchObject({ title: "Could not apply 'empty'", variant: "destructive" }));
    expect(useToasts.getState().toasts[0].description).toBe(
      "A run is under way: restoring the snapshot 'x'. Wait until it ends, then try again.",
    );
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("takes a snapshot: the name is checked first, the server's refusal shows under the field, and a new one joins the list", async () => {
    const server = fakeServer();
    const { user } = renderPage();
    const field = await screen.findByRole("textbox", { name: "Snapshot name" });
    const take = screen.getByRole("button", { name: "Take Snapshot" });

    await user.click(take);
    expect(screen.getByRole("alert")).toHaveTextContent("Enter a name for the snapshot.");
    await user.type(field, "after mint");
    await user.click(take);
    expect(screen.getByRole("alert")).toHaveTextContent(
      "The name must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
    );
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(server.posts()).toEqual([]);

    await user.clear(field);
    await user.type(field, "before-payments");
    await user.click(take);
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The snapshot was not taken: A snapshot named 'before-payments' exists already.",
    );

    await user.clear(field);
    await user.type(field, "after-mint");
    await user.click(take);
    await waitFor(() => expect(useToasts.getState().toasts[0]).toMatchObject({ title: "Snapshot taken" }));
    expect(useToasts.getState().toasts[0].description).toBe("'after-mint' at block 1,300: restore it to come back here.");
    expect(server.posts().at(-1)).toEqual({ method: "POST", path: "/api/snapshots", body: { name: "after-mint" } });
    expect(await screen.findByRole("button", { name: "Restore after-mint" })).toBeInTheDocument();
    expect(field).toHaveValue("");
  });

  it("shows the server's sentence when scenarios are off: no engine (503), or not the local chain (404)", async () => {
    for (const [status, sentence] of [
      [503, "Scenarios are not available on this server."],
      [404, "Scenarios are for the local chain only: this server runs on Sepolia."],
    ] as const) {
      fakeServer(() => refused(status, sentence));
      renderPage();
      expect(await screen.findByText(sentence)).toBeInTheDocument();
      expect(screen.getByText("Scenarios are off here")).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /^Apply/ })).not.toBeInTheDocument();
      expect(screen.queryByRole("textbox", { name: "Snapshot name" })).not.toBeInTheDocument();
      cleanup();
    }
  });
});
