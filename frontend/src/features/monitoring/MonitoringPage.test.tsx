import { render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api";
import { ConfigContext } from "@/lib/config";
import { testConfig } from "@/test/config";
import type { MonitoringAnswer, MonitoringPoint } from "./api/queries";
import MonitoringPage from "./pages/MonitoringPage";

const point = (at: number, over: Partial<MonitoringPoint> = {}): MonitoringPoint => ({
  at,
  requestsPerSecond: 12.5,
  p50Ms: 1.2,
  p95Ms: 8,
  p99Ms: 20,
  indexerLag: 0,
  rpcErrorsPerSecond: 0,
  ...over,
});

function answer(over: Partial<MonitoringAnswer> = {}): MonitoringAnswer {
  return {
    replica: { leader: true, mode: "sole", startedAt: "2026-11-25T01:00:00.000Z" },
    build: {
      version: "0.1.0",
      commit: "abc1234",
      network: "localhost",
      chainId: 31337,
      proxy: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      implementation: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      batchPayments: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      deploymentBlock: 1,
      deployedAt: "2026-11-25T00:59:00.000Z",
    },
    parts: [
      { part: "chain", ok: true, detail: "block 42", lastError: null, lastErrorAt: null },
      { part: "database", ok: true, detail: "PostgreSQL", lastError: null, lastErrorAt: null },
      { part: "auth", ok: true, detail: "Auth emulator", lastError: null, lastErrorAt: null },
      {
        part: "indexer",
        ok: false,
        detail: "checkpoint 40, 2 blocks behind",
        lastError: "The database is not answering: try again in a moment.",
        lastErrorAt: "2026-11-25T01:02:03.000Z",
      },
      { part: "batchWatcher", ok: true, detail: "running", lastError: null, lastErrorAt: null },
      { part: "mockBank", ok: true, detail: "local", lastError: null, lastErrorAt: null },
      { part: "alerts", ok: true, detail: "running here; no delivery waiting", lastError: null, lastErrorAt: null },
    ],
    rpcBudget: {
      plan: "alchemy-free",
      configuredPerSecond: 8,
      allowedPerSecond: 4,
      loweredUntil: "2026-11-25T01:03:00.000Z",
      spentPerSecond: 3.5,
      spentTotal: 1234,
      waits: 17,
      waitedSeconds: 2.5,
      refused: 1,
    },
    series: { intervalSeconds: 5, points: [point(1_795_000_000_000), point(1_795_000_005_000, { requestsPerSecond: 20 })] },
    ...over,
  };
}

function renderPage(respond: () => Response) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    expect(String(input)).toBe("/api/monitoring");
    return respond();
  });
  vi.stubGlobal("fetch", fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, queryFn: ({ queryKey }) => api(String(queryKey[0])) } } });
  render(
    <ConfigContext.Provider value={testConfig()}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/monitoring"]}>
          <MonitoringPage />
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("/monitoring", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows each part up or down, with its last error and when, the charts, and the build", async () => {
    renderPage(() => json(answer()));
    expect(await screen.findByRole("heading", { name: "CI/CD Monitoring" })).toBeInTheDocument();
    const parts = await screen.findByRole("list", { name: "Health of each part" });
    const indexer = within(parts).getByRole("listitem", { name: "Indexer" });
    expect(within(indexer).getByText("Down")).toBeInTheDocument();
    expect(indexer).toHaveTextContent("checkpoint 40, 2 blocks behind");
    expect(indexer).toHaveTextContent(
      `Last error (${new Date("2026-11-25T01:02:03.000Z").toLocaleString()}): The database is not answering: try again in a moment.`,
    );
    const chain = within(parts).getByRole("listitem", { name: "Chain (RPC node)" });
    expect(within(chain).getByText("Up")).toBeInTheDocument();
    expect(chain).not.toHaveTextContent("Last error");
    expect(within(parts).getAllByRole("listitem")).toHaveLength(7);

    expect(screen.getByRole("heading", { name: "Last 10 seconds" })).toBeInTheDocument();
    // The charts are a lazy chunk: its first import has taken over the default second in CI's loaded lane.
    expect(
      await screen.findByRole("img", { name: "Requests per second over the last 2 samples" }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Request latency over the last 2 samples" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Indexer lag over the last 2 samples" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "RPC errors per second over the last 2 samples" })).toBeInTheDocument();

    const build = screen.getByLabelText("Build information");
    expect(build).toHaveTextContent("Server version0.1.0");
    expect(build).toHaveTextContent("Server commitabc1234");
    expect(build).toHaveTextContent("Networklocalhost (chain id 31337)");
    expect(build).toHaveTextContent("USDX (proxy)0x5FbDB2315678afecb367f032d93F642f64180aa3");
    expect(build).toHaveTextContent("Dashboard built");
    expect(screen.getByText(/the one running the background work/)).toBeInTheDocument();
  });

  it("shows what the RPC request budget allows now, lowered after a 429 and until when, what was spent and how long requests waited", async () => {
    renderPage(() => json(answer()));
    const budget = await screen.findByLabelText("RPC request budget");
    expect(budget).toHaveTextContent("Planalchemy-free");
    expect(budget).toHaveTextContent("Allowed now4 a second");
    expect(budget).toHaveTextContent("Configured8 a second");
    expect(budget).toHaveTextContent(`Lowered after a 429 until ${new Date("2026-11-25T01:03:00.000Z").toLocaleTimeString()}`);
    expect(budget).toHaveTextContent("Spent3.5 a second over the last minute; 1,234 requests since start");
    expect(budget).toHaveTextContent("Waited17 requests waited their turn, 2.5 s in all; 1 refused for want of a turn in time");
  });

  it("an unlimited budget says so, and is not lowered", async () => {
    const rpcBudget = { ...answer().rpcBudget, plan: "unlimited", configuredPerSecond: null, allowedPerSecond: null, loweredUntil: null };
    renderPage(() => json(answer({ rpcBudget })));
    const budget = await screen.findByLabelText("RPC request budget");
    expect(budget).toHaveTextContent("Allowed nowno limit");
    expect(budget).toHaveTextContent("Not lowered");
  });

  it("says the charts come after two samples while the server has fewer", async () => {
    renderPage(() => json(answer({ series: { intervalSeconds: 5, points: [point(1_795_000_000_000)] } })));
    expect(await screen.findByText("The charts appear after two samples (10 seconds after the server started).")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Live figures" })).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: /Requests per second/ })).not.toBeInTheDocument();
  });

  it("says when the server does not answer, in its words, and keeps asking", async () => {
    const fetchMock = renderPage(() => json({ success: false, error: "The database is not answering: try again in a moment." }, 503));
    expect(
      await screen.findByText(
        "The server did not answer: 503: The database is not answering: try again in a moment. Trying again every 5 seconds.",
      ),
    ).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("asks again while open", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let n = 0;
      renderPage(() => json(answer({ build: { ...answer().build, version: `0.1.${n++}` } })));
      await waitFor(() => expect(screen.getByLabelText("Build information")).toHaveTextContent("Server version0.1.0"));
      await vi.advanceTimersByTimeAsync(5000);
      await waitFor(() => expect(screen.getByLabelText("Build information")).toHaveTextContent("Server version0.1.1"));
    } finally {
      vi.useRealTimers();
    }
  });
});
