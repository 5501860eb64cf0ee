import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { prefetchLandingPage } from "./app/router";
import { startAuth } from "./lib/auth/firebase";
import { fetchConfig } from "./lib/config";
import { startWalletDiscovery } from "./lib/wallet/discovery";
import "./index.css";

const root = createRoot(document.getElementById("root")!);

// Everything starts from the server's configuration; without it, say so plainly.
startWalletDiscovery();
prefetchLandingPage(window.location.pathname);
fetchConfig()
  .then((config) => {
    startAuth(config);
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
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
