import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import LoginPage from "@/features/auth/pages/LoginPage";

/**
 * The Login screen as a visitor first sees it (the Email tab, Login form), rendered at build time
 * into the page /login is served as (build/prerenderLogin.ts): the browser draws it from the HTML
 * and the stylesheet alone, before any script has run. The app then renders the same screen over it.
 * Nothing here may depend on the browser or the server's configuration: neither exists at build time.
 */
export function renderLoginScreen(): string {
  return renderToString(
    <MemoryRouter initialEntries={["/login"]}>
      <LoginPage />
    </MemoryRouter>,
  );
}
