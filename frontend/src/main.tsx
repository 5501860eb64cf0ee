import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { toast } from "./components/ui/toast";
import { prefetchLandingPage } from "./app/router";
import { PUBLIC_PATHS } from "./app/routes";
import { restoreKeptUser, startAuth } from "./lib/auth/firebase";
import { fetchConfig } from "./lib/config";
import { setNotifier } from "./lib/notices";
import { startWalletDiscovery } from "./lib/wallet/discovery";
import "./index.css";

const root = createRoot(document.getElementById("root")!);

// lib raises notices (the runner's and the wallet's outcomes); they show as toasts.
setNotifier(toast);
// Everything starts from the server's configuration; without it, say so plainly.
startWalletDiscovery();
const landingPage = prefetchLandingPage(window.location.pathname);
fetchConfig()
  .then(async (config) => {
    const signInScreen = (PUBLIC_PATHS as readonly string[]).includes(window.location.pathname);
    void startAuth(config, { signInScreen });
    // The Dashboard's modules too: rendered before they are in, it would show a spinner where "/"'s
    // page has drawn it already. One that fails to load is the router's to report, as before.
    if (!signInScreen) await Promise.all([restoreKeptUser(config), landingPage.catch(() => undefined)]);
    // In a transition: React renders the app in short slices, yielding to the browser between
    // them, instead of one long task that holds off a tap on the screen drawn from the HTML (/login).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App config={config} />
        </StrictMode>,
      ),
    );
  })
  .catch((error: Error) =>
    root.render(
      <div style={{ padding: 32, fontFamily: "system-ui" }}>
        <h1>USDX Dashboard</h1>
        <p>{error.message}</p>
      </div>,
    ),
  );
