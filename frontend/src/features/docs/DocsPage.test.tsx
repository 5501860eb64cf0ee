import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setTokenGetter } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import { attachIdToken, type TokenSource } from "./api/idToken";
import DocsPage from "./pages/DocsPage";
import fixture from "./test/openapi.fixture.json";

const ORIGIN = window.location.origin;

const source = (over: Partial<TokenSource> = {}): TokenSource => ({
  idToken: async () => "id-token-1",
  prefilled: () => null,
  origin: ORIGIN,
  ...over,
});

describe("the /docs request interceptor (attachIdToken)", () => {
  it("adds the signed-in user's ID token to a request for the dashboard's origin", async () => {
    const sent = await attachIdToken({ url: "/api/contacts", headers: { accept: "application/json" } }, source());
    expect(sent.headers).toEqual({ accept: "application/json", Authorization: "Bearer id-token-1" });
  });

  it("adds nothing when no one is signed in", async () => {
    const sent = await attachIdToken({ url: `${ORIGIN}/api/contacts`, headers: {} }, source({ idToken: async () => null }));
    expect(sent.headers).toEqual({});
  });

  it("keeps an Authorization header the person set under Authorize, in any case", async () => {
    const idToken = vi.fn(async () => "id-token-1");
    const sent = await attachIdToken(
      { url: "/api/auth/me", headers: { authorization: "Bearer pasted" } },
      source({ idToken, prefilled: () => "Bearer id-token-0" }),
    );
    expect(sent.headers).toEqual({ authorization: "Bearer pasted" });
    expect(idToken).not.toHaveBeenCalled();
  });

  it("replaces the token the page pre-filled under Authorize with a fresh one, and drops it once signed out", async () => {
    const prefilled = () => "Bearer id-token-0";
    const renewed = await attachIdToken({ url: "/api/auth/me", headers: { Authorization: "Bearer id-token-0" } }, source({ prefilled }));
    expect(renewed.headers).toEqual({ Authorization: "Bearer id-token-1" });
    const signedOut = await attachIdToken(
      { url: "/api/auth/me", headers: { Authorization: "Bearer id-token-0" } },
      source({ prefilled, idToken: async () => null }),
    );
    expect(signedOut.headers).toEqual({});
  });

  it("never sends the token to another origin", async () => {
    const idToken = vi.fn(async () => "id-token-1");
    const sent = await attachIdToken({ url: "https://elsewhere.example/api/auth/me", headers: {} }, source({ idToken }));
    expect(sent.headers).toEqual({});
    expect(idToken).not.toHaveBeenCalled();
  });
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("/docs", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), ORIGIN);
      if (url.pathname === "/api/openapi.json") return json(fixture);
      if (url.pathname === "/api/auth/me") {
        const auth = new Headers(init?.headers).get("authorization");
        return auth === "Bearer id-token-1"
          ? json({ success: true, user: { uid: "u1", email: "ada@example.com" } })
          : json({ success: false, error: "Sign in first." }, 401);
      }
      return json({ success: false, error: "Not found" }, 404);
    });
    vi.stubGlobal("fetch", fetchMock);
    // swagger-ui scrolls to what opens; the test DOM only logs that it cannot.
    vi.spyOn(window, "scrollTo").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setTokenGetter(async () => null);
    useSession.setState({ user: null, ready: false });
  });

  function renderPage() {
    return render(
      <MemoryRouter initialEntries={["/docs"]}>
        <DocsPage />
      </MemoryRouter>,
    );
  }

  it("signed out: says that endpoints needing sign-in answer 401, and shows every operation of the document", async () => {
    useSession.setState({ user: null, ready: true });
    const { container } = renderPage();
    expect(screen.getByRole("heading", { name: "API Documentation" })).toBeInTheDocument();
    expect(screen.getByText(/^Signed out: endpoints that need sign-in answer 401\./)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the Dashboard" })).toHaveAttribute("href", "/");
    expect(await screen.findByText("List your contacts", {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText("Token figures", { selector: ".opblock-summary-description" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain("/api/openapi.json");
    expect(container.querySelector(".btn.authorize")).toHaveClass("unlocked");
  });

  it("signed in: names the user, fills Authorize with their ID token, and 'Try it out' sends a fresh one", async () => {
    // Firebase renews ID tokens: the first is what Authorize shows, the request must carry the current one.
    const tokens = ["id-token-0", "id-token-1"];
    setTokenGetter(async () => (tokens.length > 1 ? tokens.shift()! : tokens[0]));
    useSession.setState({ user: { uid: "u1", email: "ada@example.com", wallet: null, admin: false }, ready: true });
    const { container } = renderPage();
    expect(screen.getByText("Signed in as ada@example.com: 'Try it out' sends your ID token.")).toBeInTheDocument();
    await waitFor(() => expect(container.querySelector(".btn.authorize")).toHaveClass("locked"), { timeout: 10_000 });

    await userEvent.click(screen.getByText("Who you are signed in as"));
    await userEvent.click(await screen.findByRole("button", { name: "Execute" }));
    const live = await screen.findByText(/ada@example\.com/, { selector: ".live-responses-table *" });
    expect(live).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([input]) => String(input).endsWith("/api/auth/me"))!;
    expect(new Headers((init as RequestInit).headers).get("authorization")).toBe("Bearer id-token-1");
  });
});
