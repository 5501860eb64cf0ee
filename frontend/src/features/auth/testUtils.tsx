import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { useToasts } from "@/components/ui/toast";
import { ConfigContext, type AppConfig } from "@/lib/config";

/** Only what the sign-in screens read from the configuration. */
export const testConfig = { chainId: 31337, network: "localhost" } as AppConfig;

/** Names the page the screen navigated to. */
function Elsewhere() {
  return <h1>At {useLocation().pathname}</h1>;
}

/** Renders a screen at `path` with stand-ins for the places it navigates to. */
export function renderAt(path: string, element: ReactNode) {
  const user = userEvent.setup();
  render(
    <ConfigContext.Provider value={testConfig}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="/" element={<h1>Dashboard home</h1>} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </ConfigContext.Provider>,
  );
  return user;
}

export const lastToast = () => useToasts.getState().toasts[0];

/** A promise the test settles, to look at the busy state in between. */
export function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
