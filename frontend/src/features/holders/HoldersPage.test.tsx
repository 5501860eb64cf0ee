import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { setTokenGetter } from "@/lib/api";
import { useWallet } from "@/lib/wallet/store";
import HoldersPage from "./pages/HoldersPage";
import { shownShare } from "./format";
import { SEARCH_DEBOUNCE_MS } from "@/lib/useDebouncedValue";
import { typeWithoutPausing } from "@/test/typing";
import { addresses, fakeServer, holder, json, lastToast, renderPage, resetAll } from "./testUtils";

beforeEach(() => {
  resetAll();
  setTokenGetter(async () => "id-token-1");
});

const now = Math.floor(Date.now() / 1000);
const [A, B, C] = [
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
];
// Supply 1,600: A holds 1,000 (62.5%), B 500 (31.25%), C 100 (6.25%).
const sample = () => [
  holder(A, 1000n, now - 7200, now - 300),
  holder(B, 500n, now - 86400 * 3, now - 120),
  holder(C, 100n, now - 600, now - 600),
];
const blobText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
const bodyRows = () => screen.getAllByRole("row").slice(1);
const addressesShown = () =>
  bodyRows().map((row) => within(row).getAllByRole("button")[0].getAttribute("aria-label")!.replace("Copy address ", ""));

describe("Holders page (GET /api/holders)", () => {
  it("shows a spinner while the first page loads", () => {
    fakeServer([], () => new Promise<Response>(() => undefined));
    renderPage(<HoldersPage />);
    expect(screen.getByRole("heading", { level: 1, name: "Holders" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading holders" })).toBeInTheDocument();
  });

  it("lists each holder with Address, Balance, Share of supply, First and Last activity, largest first, and the holder count", async () => {
    const server = fakeServer(sample());
    useWallet.setState({ status: "connected", address: B });
    renderPage(<HoldersPage />);
    const table = await screen.findByRole("table", { name: "Holders" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Address", "Balance", "Share of supply", "First activity", "Last activity"]);
    expect(addressesShown()).toEqual([A, B, C]);
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent("1,000.00");
    expect(first).toHaveTextContent("62.5000%");
    expect(first).toHaveTextContent("2 hours ago");
    expect(first).toHaveTextContent("5 minutes ago");
    expect(within(first).getByRole("link", { name: `Block ${now - 7200}` })).toHaveAttribute("href", `/block/${now - 7200}`);
    expect(within(first).getByRole("link", { name: `Activity of ${A}` })).toHaveAttribute("href", `/transactions?address=${A}`);
    expect(second).toHaveTextContent("(you)");
    expect(screen.getByText(/^3 holders/)).toHaveTextContent("3 holders · total supply 1,600.00 USDX");
    expect(screen.getByText("Showing 1–3 of 3")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: /Balance/ })).toHaveAttribute("aria-sort", "descending");
    expect(server.lists()).toEqual(["/api/holders?sort=balance&order=desc&offset=0&limit=50"]);
  });

  it("sorts by a header, and by the other order when it is clicked again; a new sort starts at the first page", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<HoldersPage />);
    await screen.findByRole("table", { name: "Holders" });
    await user.click(screen.getByRole("button", { name: "Address" }));
    await waitFor(() => expect(addressesShown()).toEqual([B, A, C]));
    expect(screen.getByRole("columnheader", { name: /Address/ })).toHaveAttribute("aria-sort", "ascending");
    await user.click(screen.getByRole("button", { name: "Address" }));
    await waitFor(() => expect(addressesShown()).toEqual([C, A, B]));
    await user.click(screen.getByRole("button", { name: "Last activity" }));
    await waitFor(() => expect(screen.getByRole("columnheader", { name: /Last activity/ })).toHaveAttribute("aria-sort", "descending"));
    expect(addressesShown()).toEqual([B, A, C]);
    expect(server.lists().slice(1)).toEqual([
      "/api/holders?sort=address&order=asc&offset=0&limit=50",
      "/api/holders?sort=address&order=desc&offset=0&limit=50",
      "/api/holders?sort=lastActivity&order=desc&offset=0&limit=50",
    ]);
  });

  it("pages with Next and Previous, 50 at a time", async () => {
    const many = addresses(120).map((a, i) => holder(a, BigInt(1000 - i), now - 60, now - 60));
    const server = fakeServer(many);
    const { user } = renderPage(<HoldersPage />);
    expect(await screen.findByText("Showing 1–50 of 120")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Showing 51–100 of 120")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Showing 101–120 of 120")).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Showing 51–100 of 120")).toBeInTheDocument();
    expect(server.lists().map((u) => new URL(u, "http://x").searchParams.get("offset"))).toEqual(["0", "50", "100"]);
  });

  it("searches once the typing pauses, as typed; says how many match, and when none do", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<HoldersPage />);
    await screen.findByRole("table", { name: "Holders" });
    const box = screen.getByRole("searchbox", { name: "Search holders by address" });
    const from = await typeWithoutPausing(user, box, "0x3C44", { pauseMs: SEARCH_DEBOUNCE_MS, sent: server.lists });
    await waitFor(() => expect(addressesShown()).toEqual([B]));
    expect(screen.getByText(/^1 of 3 holders match/)).toBeInTheDocument();
    expect(server.lists().slice(from)).toEqual(["/api/holders?sort=balance&order=desc&search=0x3C44&offset=0&limit=50"]);

    await user.clear(box);
    await user.type(box, "ffff");
    expect(await screen.findByText("No holders match your search")).toBeInTheDocument();
    expect(screen.getByText("Try fewer digits, or check the address.")).toBeInTheDocument();
  });

  it("says what an address search takes instead of sending one that is not hex", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<HoldersPage />);
    await screen.findByRole("table", { name: "Holders" });
    await user.type(screen.getByRole("searchbox", { name: "Search holders by address" }), "alice");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "An address search uses hex digits (0-9, a-f), with or without a leading 0x.",
    );
    expect(screen.getByRole("searchbox", { name: "Search holders by address" })).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeDisabled();
    expect(server.lists()).toHaveLength(1);
  });

  it("says 'No holders yet' before anyone holds USDX", async () => {
    fakeServer([]);
    renderPage(<HoldersPage />);
    expect(await screen.findByText("No holders yet")).toBeInTheDocument();
    expect(screen.getByText("Accounts appear here once USDX is minted to them.")).toBeInTheDocument();
  });

  it("shows a failed load inline, and Retry loads the list", async () => {
    let fail = true;
    fakeServer(sample(), () =>
      fail ? json({ success: false, error: "Cannot read the index: the database is not answering." }, 503) : undefined,
    );
    const { user } = renderPage(<HoldersPage />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load holders");
    expect(alert).toHaveTextContent("503: Cannot read the index: the database is not answering.");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table", { name: "Holders" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("Export CSV (GET /api/holders/export)", () => {
  it("downloads the server's CSV for the table's order and search, signed in with the bearer token", async () => {
    const csv = `Address,Balance\r\n${B},500\r\n`;
    const server = fakeServer(sample(), (call) =>
      call.url.startsWith("/api/holders/export")
        ? new Response(csv, {
            status: 200,
            headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="usdx_holders.csv"' },
          })
        : undefined,
    );
    const blobs: Blob[] = [];
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), "blob:holders")), revokeObjectURL: vi.fn() });
    onTestFinished(() => void Object.assign(URL, original));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.getAttribute("href")}`);
    });

    const { user } = renderPage(<HoldersPage />);
    await screen.findByRole("table", { name: "Holders" });
    await user.type(screen.getByRole("searchbox", { name: "Search holders by address" }), "3c44");
    await waitFor(() => expect(addressesShown()).toEqual([B]));
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads).toEqual(["usdx_holders.csv blob:holders"]));
    expect(await blobText(blobs[0])).toBe(csv);
    const exported = server.calls.find((c) => c.url.startsWith("/api/holders/export"))!;
    expect(exported.url).toBe("/api/holders/export?sort=balance&order=desc&search=3c44");
    expect(exported.headers).toEqual({ authorization: "Bearer id-token-1" });
  });

  it("says why when the export fails", async () => {
    fakeServer(sample(), (call) =>
      call.url.startsWith("/api/holders/export")
        ? json({ success: false, error: "Too many CSV exports: wait a minute and try again." }, 429)
        : undefined,
    );
    const { user } = renderPage(<HoldersPage />);
    await screen.findByRole("table", { name: "Holders" });
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Export failed",
        description: "Too many CSV exports: wait a minute and try again.",
        variant: "destructive",
      }),
    );
  });
});

describe("shownShare", () => {
  it("shows the server's fraction as a percentage with 4 decimals, rounded down, and a tiny share as <0.0001%", () => {
    expect(shownShare("0.625")).toBe("62.5000%");
    expect(shownShare("1")).toBe("100.0000%");
    expect(shownShare("0.12345678")).toBe("12.3456%");
    expect(shownShare("0.00000099")).toBe("<0.0001%");
    expect(shownShare("0")).toBe("0%");
  });
});
