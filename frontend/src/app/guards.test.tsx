import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { useSession } from "@/lib/auth/session";
import { routes } from "./router";

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe("redirect rules (spec section 2)", () => {
  beforeEach(() => useSession.setState({ user: null, ready: true }));

  it("sends a visitor who is not signed in to /login", async () => {
    const router = renderAt("/payments");
    expect(router.state.location.pathname).toBe("/login");
    expect(await screen.findByRole("heading", { name: "Login" })).toBeInTheDocument();
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
    expect(await screen.findByRole("heading", { name: "Contacts" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Admin Panel" })).toBeNull();
    expect(screen.getByRole("link", { name: "Contacts" })).toHaveAttribute("aria-current", "page");
  });
});
