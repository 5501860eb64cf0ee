import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { useToasts } from "@/components/ui/toast";
import { setTokenGetter } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import AlertsPage from "./pages/AlertsPage";
import type { AlertDelivery, AlertRule } from "./api";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const SECRET = `whsec_${"ab".repeat(32)}`;
const NOW = "2026-11-25T09:30:00.000Z";

const rule = (id: number, fields: Partial<AlertRule> = {}): AlertRule => ({
  id,
  kind: "mint",
  threshold: null,
  stepPercent: null,
  webhookUrl: `https://hooks.example.com/${id}`,
  enabled: true,
  secretHint: "…abab",
  createdBy: "wallet:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  createdAt: NOW,
  ...fields,
});

const delivery = (id: number, fields: Partial<AlertDelivery> = {}): AlertDelivery => ({
  id,
  deliveryId: `d-${id}`,
  ruleId: 1,
  kind: "mint",
  test: false,
  event: { name: "Transfer", blockNumber: 1234, logIndex: 2, transactionHash: `0x${"12".repeat(32)}` },
  proposal: null,
  status: "delivered",
  attemptCount: 1,
  nextAttemptAt: null,
  createdAt: NOW,
  deliveredAt: NOW,
  note: null,
  attempts: [{ attemptedAt: NOW, statusCode: 200, error: null, excerpt: "ok", durationMs: 12 }],
  ...fields,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** /api/alerts as the server answers it; `override` answers a call first when it returns a Response. */
function fakeServer(
  initial: { rules?: AlertRule[]; deliveries?: AlertDelivery[] } = {},
  override?: (call: Call) => Response | Promise<Response> | undefined,
) {
  const store = { rules: [...(initial.rules ?? [])], deliveries: [...(initial.deliveries ?? [])], nextId: 10 };
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
      const id = Number(pathname.split("/")[4]);
      const found = store.rules.find((r) => r.id === id);
      if (call.method === "GET" && pathname === "/api/alerts/rules") return json({ success: true, rules: store.rules });
      if (call.method === "GET" && pathname === "/api/alerts/deliveries") return json({ success: true, deliveries: store.deliveries });
      if (call.method === "POST" && pathname === "/api/alerts/rules") {
        const body = call.body as { kind: AlertRule["kind"]; threshold: string | null; stepPercent?: string; webhookUrl: string };
        const made = rule(store.nextId++, {
          kind: body.kind,
          threshold: body.threshold,
          stepPercent: body.stepPercent ?? null,
          webhookUrl: body.webhookUrl,
        });
        store.rules.push(made);
        return json({ success: true, rule: made, secret: SECRET }, 201);
      }
      if (!found) return json({ success: false, error: "Alert rule not found: it may have been deleted." }, 404);
      if (call.method === "PATCH") {
        found.enabled = (call.body as { enabled: boolean }).enabled;
        return json({ success: true, rule: found });
      }
      if (call.method === "DELETE") {
        store.rules = store.rules.filter((r) => r !== found);
        return json({ success: true, id });
      }
      if (pathname.endsWith("/rotate-secret")) return json({ success: true, rule: found, secret: `whsec_${"cd".repeat(32)}` });
      if (pathname.endsWith("/test")) {
        const sent = delivery(store.nextId++, {
          ruleId: id,
          test: true,
          event: null,
          attempts: [{ attemptedAt: NOW, statusCode: 200, error: null, excerpt: "received", durationMs: 12 }],
        });
        store.deliveries.unshift(sent);
        return json({ success: true, delivery: sent });
      }
      return json({ success: false, error: `No such endpoint: ${call.method} ${pathname}` }, 404);
    }),
  );
  return { store, calls, writes: () => calls.filter((c) => c.method !== "GET") };
}

function renderPage(node: ReactNode = <AlertsPage />) {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={["/alerts"]}>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { user };
}

const signIn = (admin: boolean) =>
  useSession.setState({
    ready: true,
    user: { uid: "wallet:0xf39f", email: null, wallet: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", admin },
  });
const lastToast = () => useToasts.getState().toasts[0];

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  vi.unstubAllGlobals();
  setTokenGetter(async () => "id-token-1");
  signIn(true);
});

describe("Alerts page (/alerts)", () => {
  it("is for the server's admins: anyone else is told so, and nothing is asked of the server", () => {
    signIn(false);
    const server = fakeServer();
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Alerts" })).toBeInTheDocument();
    expect(screen.getByText("Only for the server's admins")).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Add alert rule" })).not.toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });

  it("shows a spinner for the rules and for the log while they load", () => {
    fakeServer({}, (call) => (call.method === "GET" ? (new Promise<Response>(() => undefined) as never) : undefined));
    renderPage();
    expect(screen.getByRole("status", { name: "Loading alert rules" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading the delivery log" })).toBeInTheDocument();
  });

  it("says there are no rules and no deliveries yet, and how to start", async () => {
    fakeServer();
    renderPage();
    expect(await screen.findByText("No alert rules yet")).toBeInTheDocument();
    expect(await screen.findByText("No deliveries yet")).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Add alert rule" })).toBeInTheDocument();
  });

  it("shows a failed load with the server's sentence, and Retry loads the rules", async () => {
    let fail = true;
    fakeServer({ rules: [rule(1)] }, (call) =>
      fail && call.path === "/api/alerts/rules"
        ? json({ success: false, error: "The database is not answering: try again in a moment." }, 503)
        : undefined,
    );
    const { user } = renderPage();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load alert rules");
    expect(alert).toHaveTextContent("503: The database is not answering: try again in a moment.");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("list", { name: "Alert rules" })).toHaveTextContent("Mint above an amount: any");
  });

  it("adds a rule with its amount and webhook, then shows its secret once, to copy (the toast does not repeat it)", async () => {
    const server = fakeServer();
    const { user } = renderPage();
    await screen.findByText("No alert rules yet");
    await user.type(screen.getByLabelText("More than (USDX)"), "10000");
    await user.type(screen.getByLabelText("Webhook URL"), "https://hooks.example.com/usdx");
    await user.click(screen.getByRole("button", { name: "Add Rule" }));
    expect(server.writes()).toEqual([
      {
        method: "POST",
        path: "/api/alerts/rules",
        body: { kind: "mint", threshold: "10000", webhookUrl: "https://hooks.example.com/usdx" },
      },
    ]);
    const dialog = await screen.findByRole("dialog", { name: "Rule #10's signing secret" });
    expect(within(dialog).getByLabelText("Signing secret")).toHaveTextContent(SECRET);
    await user.click(within(dialog).getByRole("button", { name: "Copy Secret" }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Secret copied" }));
    expect(JSON.stringify(useToasts.getState().toasts)).not.toContain(SECRET);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    const rules = await screen.findByRole("list", { name: "Alert rules" });
    expect(rules).toHaveTextContent("Mint above an amount: more than 10000 USDX");
    expect(rules).toHaveTextContent("https://hooks.example.com/usdx");
    expect(screen.getByLabelText("Webhook URL")).toHaveValue("");
  });

  it("a multiplier rule takes its step as a percentage of every balance", async () => {
    const server = fakeServer();
    const { user } = renderPage();
    await screen.findByText("No alert rules yet");
    await user.click(screen.getByRole("combobox", { name: "Alert on" }));
    await user.click(await screen.findByRole("option", { name: "Reward multiplier change" }));
    expect(screen.getByText(/moves every balance by more than this percentage, up or down/)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Step (% of every balance)"), "1.5");
    await user.type(screen.getByLabelText("Webhook URL"), "https://hooks.example.com/oracle");
    await user.click(screen.getByRole("button", { name: "Add Rule" }));
    expect(server.writes()[0].body).toEqual({
      kind: "multiplier",
      threshold: null,
      stepPercent: "1.5",
      webhookUrl: "https://hooks.example.com/oracle",
    });
    await user.click(
      within(await screen.findByRole("dialog", { name: "Rule #10's signing secret" })).getByRole("button", { name: "Done" }),
    );
    expect(await screen.findByRole("list", { name: "Alert rules" })).toHaveTextContent(
      "Reward multiplier change: by more than 1.5% of every balance",
    );
  }, 30_000);

  it("offers no threshold for a kind that takes none, and shows the server's refusal under the form", async () => {
    const server = fakeServer({}, (call) =>
      call.method === "POST"
        ? json(
            {
              success: false,
              error: "Invalid webhook URL: Refused: 10.0.0.5 is a private network address; webhooks may only reach public addresses.",
            },
            400,
          )
        : undefined,
    );
    const { user } = renderPage();
    await screen.findByText("No alert rules yet");
    await user.click(screen.getByRole("combobox", { name: "Alert on" }));
    await user.click(await screen.findByRole("option", { name: "Pause or unpause" }));
    expect(screen.getByLabelText("Threshold")).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Add Rule" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Enter the webhook's URL (https://...).");
    expect(server.writes()).toEqual([]);
    await user.type(screen.getByLabelText("Webhook URL"), "http://10.0.0.5/hook");
    await user.click(screen.getByRole("button", { name: "Add Rule" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid webhook URL: Refused: 10.0.0.5 is a private network address");
    expect(server.writes()[0].body).toEqual({ kind: "pause", threshold: null, webhookUrl: "http://10.0.0.5/hook" });
    expect(screen.getByLabelText("Webhook URL")).toHaveAttribute("aria-invalid", "true");
  });

  it("offers Safe proposals as a kind with no threshold, and the log says each proposal step in words", async () => {
    const summary =
      "Operations Safe (0x5FbDB2315678afecb367f032d93F642f64180aa3) executed 'Mint 250.00 USDX to 0x14dC...9955' at nonce 3 in transaction 0xab.";
    const server = fakeServer({
      deliveries: [delivery(1, { kind: "safe", event: null, proposal: { step: "executed", safeTxHash: `0x${"34".repeat(32)}`, summary } })],
    });
    const { user } = renderPage();
    const entry = within(await screen.findByRole("list", { name: "Deliveries" })).getByRole("listitem", { name: "Delivery 1" });
    expect(entry).toHaveTextContent(summary);
    expect(entry).not.toHaveTextContent("Test delivery");
    await user.click(screen.getByRole("combobox", { name: "Alert on" }));
    await user.click(await screen.findByRole("option", { name: "Safe proposal created, approved or executed" }));
    expect(screen.getByLabelText("Threshold")).toBeDisabled();
    await user.type(screen.getByLabelText("Webhook URL"), "https://hooks.example.com/safe");
    await user.click(screen.getByRole("button", { name: "Add Rule" }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    expect(server.writes()[0].body).toEqual({ kind: "safe", threshold: null, webhookUrl: "https://hooks.example.com/safe" });
  });

  it("'Send test' sends one test delivery, says how the receiver answered, and the log shows the attempt", async () => {
    const server = fakeServer({ rules: [rule(1, { kind: "pause" })] });
    const { user } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Send test for rule #1" }));
    expect(server.writes()).toEqual([{ method: "POST", path: "/api/alerts/rules/1/test", body: undefined }]);
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Test delivered", description: "Rule #1: HTTP 200 in 12 ms" }));
    const log = await screen.findByRole("list", { name: "Deliveries" });
    const entry = within(log).getByRole("listitem", { name: "Delivery 10" });
    expect(entry).toHaveTextContent("Delivered");
    expect(entry).toHaveTextContent("Test delivery");
    expect(within(entry).getByRole("list", { name: "Attempts" })).toHaveTextContent("HTTP 200 in 12 ms");
    expect(entry).toHaveTextContent("received");
  });

  it("turns a rule off, deletes one after asking, and rotates a secret after asking (showing the new one)", async () => {
    const server = fakeServer({ rules: [rule(1), rule(2, { kind: "multiplier", threshold: "0.01" })] });
    const { user } = renderPage();
    expect(await screen.findByRole("list", { name: "Alert rules" })).toHaveTextContent("Reward multiplier change: by more than 0.01");
    await user.click(screen.getByRole("checkbox", { name: "Rule #1 on" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Alert rule off" }));
    await user.click(screen.getByRole("button", { name: "Delete rule #2" }));
    const confirm = await screen.findByRole("dialog", { name: "Delete alert rule?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Alert rule deleted" }));
    await user.click(screen.getByRole("button", { name: "Rotate the secret of rule #1" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Rotate the signing secret?" })).getByRole("button", { name: "Rotate Secret" }),
    );
    expect(await screen.findByLabelText("Signing secret")).toHaveTextContent(`whsec_${"cd".repeat(32)}`);
    expect(server.writes().map((c) => [c.method, c.path, c.body])).toEqual([
      ["PATCH", "/api/alerts/rules/1", { enabled: false }],
      ["DELETE", "/api/alerts/rules/2", undefined],
      ["POST", "/api/alerts/rules/1/rotate-secret", undefined],
    ]);
  });

  it("the log shows a delivery being retried with each failed answer, and why one was cancelled", async () => {
    fakeServer({
      deliveries: [
        delivery(3, {
          status: "pending",
          attemptCount: 2,
          nextAttemptAt: NOW,
          deliveredAt: null,
          attempts: [
            { attemptedAt: NOW, statusCode: 500, error: null, excerpt: "receiver says no", durationMs: 30 },
            { attemptedAt: NOW, statusCode: null, error: "timed out after 5000 ms", excerpt: null, durationMs: 5000 },
          ],
        }),
        delivery(2, {
          status: "cancelled",
          deliveredAt: null,
          attempts: [],
          note: "The event is no longer in the index: a reorganisation of the chain removed it, so it is not delivered.",
        }),
      ],
    });
    renderPage();
    const retrying = await screen.findByRole("listitem", { name: "Delivery 3" });
    expect(retrying).toHaveTextContent("Retrying");
    expect(retrying).toHaveTextContent("Transfer in block 1,234 (log 2)");
    expect(retrying).toHaveTextContent("Next attempt at");
    const attempts = within(within(retrying).getByRole("list", { name: "Attempts" })).getAllByRole("listitem");
    expect(attempts[0]).toHaveTextContent("HTTP 500 in 30 ms");
    expect(attempts[0]).toHaveTextContent("receiver says no");
    expect(attempts[1]).toHaveTextContent("timed out after 5000 ms in 5,000 ms");
    const cancelled = screen.getByRole("listitem", { name: "Delivery 2" });
    expect(cancelled).toHaveTextContent("Cancelled");
    expect(cancelled).toHaveTextContent("a reorganisation of the chain removed it");
  });
});
