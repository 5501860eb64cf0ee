import { act, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useSession } from "@/lib/auth/session";
import { ConfigContext } from "@/lib/config";
import { testConfig } from "@/test/config";
import { routes } from "./router";

// The shell asks the chain whether the connected wallet holds DEFAULT_ADMIN_ROLE.
const roles = vi.hoisted(() => ({ isAdmin: false }));
vi.mock("@/lib/chain/queries", async (original) => ({
  ...(await original<typeof import("@/lib/chain/queries")>()),
  useMyRoles: () => ({ address: null, loading: false, flags: undefined, isAdmin: roles.isAdmin, hasAnyAdminRole: roles.isAdmin }),
}));

// A route's page, and the frame around it, load lazily: the first visit waits for Vite to transform
// them, which on a busy machine can take longer than findBy's one second.
const FIRST_VISIT = { timeout: 10_000 };

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <ConfigContext.Provider value={testConfig()}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return router;
}

describe("redirect rules (PRODUCT.md section 2)", () => {
  beforeEach(() => {
    useSession.setState({ user: null, ready: true });
    roles.isAdmin = false;
  });

  it("sends a visitor who is not signed in to /login", async () => {
    const router = renderAt("/payments");
    expect(router.state.location.pathname).toBe("/login");
    expect(await screen.findByRole("heading", { name: "Login" }, FIRST_VISIT)).toBeInTheDocument();
  });

  it("lets a signed-out visitor open /forgot-password", () => {
    expect(renderAt("/forgot-password").state.location.pathname).toBe("/forgot-password");
  });

  it("sends a signed-in user from /login to /", () => {
    act(() => useSession.setState({ user: { uid: "u1", email: "a@example.com", wallet: null, admin: false }, ready: true }));
    expect(renderAt("/login").state.location.pathname).toBe("/");
  });

  it("shows '404 Page Not Found' for any other path", () => {
    renderAt("/no/such/page");
    expect(screen.getByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
  });

  it("shows the Admin Panel link to admins only, and highlights the current route", async () => {
    act(() => useSession.setState({ user: { uid: "u1", email: "a@example.com", wallet: null, admin: false }, ready: true }));
    renderAt("/contacts");
    expect(await screen.findByRole("heading", { name: "Contacts" }, FIRST_VISIT)).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Admin Panel" })).toBeNull();
    expect(screen.getByRole("link", { name: "Contacts" })).toHaveAttribute("aria-current", "page");
  });

  it("shows the Admin Panel link when the connected wallet holds the admin role on chain", async () => {
    roles.isAdmin = true;
    act(() => useSession.setState({ user: { uid: "u1", email: "a@example.com", wallet: null, admin: false }, ready: true }));
    renderAt("/contacts");
    expect(await screen.findByRole("heading", { name: "Contacts" }, FIRST_VISIT)).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Admin Panel" })[0]).toHaveAttribute("href", "/admin");
  });
});
