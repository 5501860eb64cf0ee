import { render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createQueryClient } from "@/app/App";
import { prefetchLandingPage, routes } from "@/app/router";
import { NAV_LINKS } from "@/app/routes";
import { useSession } from "@/lib/auth/session";
import { ConfigContext } from "@/lib/config";
import { testConfig } from "@/test/config";
import { renderDashboardScreen } from "./prerender";

/** The HTML the build draws "/" with, parsed into the document as the browser parses the page. */
function drawnDashboard(): HTMLElement {
  const root = document.createElement("div");
  root.innerHTML = renderDashboardScreen();
  document.body.append(root);
  return root;
}

describe('"/"\'s page, drawn at build time (src/prerender.tsx)', () => {
  beforeEach(() => useSession.setState({ user: null, ready: false }));
  afterEach(() => document.body.replaceChildren());

  it("draws the signed-in frame (header, navigation, footer) and the Dashboard's cards as they load, with no wallet", () => {
    const page = within(drawnDashboard());
    expect(page.getByRole("banner")).toBeInTheDocument();
    expect(
      within(page.getByRole("navigation", { name: "Main" }))
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(NAV_LINKS.map((link) => link.label));
    expect(page.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(page.getByRole("heading", { name: "Connect your wallet" })).toBeInTheDocument();
    expect(page.getByRole("region", { name: "Summary" })).toBeInTheDocument();
    expect(page.getByText("CI/CD Monitoring")).toBeInTheDocument();
  });

  it("holds nothing of a visitor's or of the server's configuration: no Login button, no account name, network or address", () => {
    const html = renderDashboardScreen();
    const page = within(drawnDashboard());
    // The header of a signed-in page, whoever it is for: the account menu's place kept, empty.
    expect(page.queryByRole("link", { name: "Login" })).toBeNull();
    expect(page.queryByRole("button", { name: /Account|@/ })).toBeNull();
    expect(page.queryByLabelText(/^Network/)).toBeNull();
    expect(page.queryByText("Proxy Address")).toBeNull();
    expect(html).not.toMatch(/0x[0-9a-fA-F]{40}/);
    // The session the app keeps is untouched by the render.
    expect(useSession.getState()).toMatchObject({ user: null, ready: false });
  });
});

describe("the landing page's modules (prefetchLandingPage)", () => {
  it("once loaded, the app's first render at / draws the frame and the Dashboard, with no spinner in their place", async () => {
    await prefetchLandingPage("/");
    useSession.setState({ user: { uid: "u1", email: "a@example.com", wallet: null, admin: false }, ready: true });
    render(
      <ConfigContext.Provider value={testConfig()}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={createMemoryRouter(routes, { initialEntries: ["/"] })} />
        </QueryClientProvider>
      </ConfigContext.Provider>,
    );
    // At once: no waiting (findBy) for React.lazy's module.
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
  });
});
