import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, errorSentence, setTokenGetter } from "./api";

describe("the API client", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setTokenGetter(async () => null);
  });

  it("sends the ID token as a bearer token and JSON bodies", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: true }), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    setTokenGetter(async () => "id-token-1");
    await api("/api/contacts", { method: "POST", body: { name: "A" } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/contacts");
    expect(init.headers).toEqual({ authorization: "Bearer id-token-1", "content-type": "application/json" });
    expect(init.body).toBe('{"name":"A"}');
  });

  it("raises 'status: message' with the server's sentence, or the status text when the body is empty (PRODUCT.md section 7)", async () => {
    vi.stubGlobal(
      "fetch",
      async () => new Response(JSON.stringify({ success: false, error: "Contact not found - It may have been deleted" }), { status: 404 }),
    );
    await expect(api("/api/contacts/9")).rejects.toThrow(new ApiError(404, "Contact not found - It may have been deleted"));
    vi.stubGlobal("fetch", async () => new Response("", { status: 503, statusText: "Service Unavailable" }));
    await expect(api("/api/token")).rejects.toThrow("503: Service Unavailable");
  });

  it("carries the status and the sentence as fields, so no screen parses them out of the message", async () => {
    vi.stubGlobal(
      "fetch",
      async () => new Response(JSON.stringify({ success: false, error: "Duplicate Wallet: already added" }), { status: 409 }),
    );
    const error = await api("/api/bank/wallets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      sentence: "Duplicate Wallet: already added",
      message: "409: Duplicate Wallet: already added",
    });
    expect(errorSentence(error)).toBe("Duplicate Wallet: already added");
    expect(errorSentence(new Error("Failed to fetch"))).toBe("Failed to fetch");
    expect(errorSentence("nothing")).toBeNull();
  });
});
