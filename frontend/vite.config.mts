/// <reference types="vitest/config" />
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// The API server the dev server forwards /api to (npm start runs it on 3001).
const API_URL = process.env.VITE_API_URL || `http://127.0.0.1:${process.env.SERVER_PORT || 3001}`;

export default defineConfig({
  root: here,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { "@": path.resolve(here, "src") },
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.DASHBOARD_PORT || 5173),
    strictPort: true,
    proxy: { "/api": API_URL },
    // common/ and the bindings live beside frontend/.
    fs: { allow: [path.resolve(here, "..")] },
  },
  preview: { host: "127.0.0.1", port: Number(process.env.DASHBOARD_PORT || 5173), strictPort: true, proxy: { "/api": API_URL } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
  },
});
