import { describe, expect, it, vi } from "vitest";
import { checkRpcUrl, probeRpcChain } from "./rpcUrl";

const reply = (body: unknown, status = 200) =>
  vi.fn(async () => ({ ok: status >= 200 && status < 300, status, json: async () => body }) as unknown as Response);

describe("Custom RPC URL check", () => {
  it("refuses an empty URL with the spec's message", () => {
    expect(checkRpcUrl("   ")).toEqual({ ok: false, problem: { title: "Invalid RPC URL", description: "Please enter a valid RPC URL" } });
  });

  it("refuses anything that is not an http(s) URL", () => {
    for (const input of ["localhost:8545", "ws://127.0.0.1:8545", "ftp://node.example"]) {
      const check = checkRpcUrl(input);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.problem.title).toBe("Invalid RPC URL");
    }
  });

  it("accepts an http or https URL, trimmed", () => {
    expect(checkRpcUrl(" https://rpc.example/v1 ")).toEqual({ ok: true, value: "https://rpc.example/v1" });
    expect(checkRpcUrl("http://127.0.0.1:8545")).toEqual({ ok: true, value: "http://127.0.0.1:8545" });
  });
});

describe("RPC chain probe (eth_chainId)", () => {
  it("resolves when the node serves the configured chain", async () => {
    const fetcher = reply({ jsonrpc: "2.0", id: 1, result: "0xaa36a7" });
    await expect(probeRpcChain("https://rpc.example", 11155111, fetcher)).resolves.toBeUndefined();
    const [, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({ method: "eth_chainId" });
  });

  it("names both chains when the node serves another one", async () => {
    await expect(probeRpcChain("https://rpc.example", 11155111, reply({ result: "0x1" }))).rejects.toThrow(
      "That RPC answers chain 1; this dashboard runs on chain 11155111.",
    );
  });

  it("says when the node cannot be reached", async () => {
    const fetcher = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(probeRpcChain("https://rpc.example", 1, fetcher)).rejects.toThrow(/Could not reach that RPC URL/);
  });

  it("says when the node does not answer in time", async () => {
    const fetcher = vi.fn(
      (_url: string, init?: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    await expect(probeRpcChain("https://rpc.example", 1, fetcher as unknown as typeof fetch, 20)).rejects.toThrow(
      "That RPC did not answer within 0.02 seconds.",
    );
  });

  it("says when the URL is not a JSON-RPC node", async () => {
    await expect(probeRpcChain("https://example.com", 1, reply({}, 404))).rejects.toThrow(
      "That RPC answered HTTP 404 instead of a JSON-RPC reply.",
    );
    await expect(probeRpcChain("https://example.com", 1, reply({ hello: "world" }))).rejects.toThrow(/no chain id/);
    await expect(probeRpcChain("https://example.com", 1, reply({ error: { code: -32601, message: "method not found" } }))).rejects.toThrow(
      /method not found/,
    );
  });
});
