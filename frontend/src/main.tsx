import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { fetchConfig } from "./lib/config";
import "./index.css";

const root = createRoot(document.getElementById("root")!);

// Everything starts from the server's configuration; without it, say so plainly.
fetchConfig()
  .then((config) =>
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    ),
  )
  .catch((error: Error) =>
    root.render(
      <div style={{ padding: 32, fontFamily: "system-ui" }}>
        <h1>USDX Dashboard</h1>
        <p>{error.message}</p>
      </div>,
    ),
  );
