import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach, inject, vi } from "vitest";
import { toast } from "@/components/ui/toast";
import { setNotifier } from "@/lib/notices";

afterEach(() => cleanup());

// The files share a worker and its DOM (vitest.projects.ts): what a file stubbed, faked, stored or
// mocked ends with it, as it would in a worker of its own. The app's modules load afresh for the next
// file (their stores start empty, and a mock the next file makes applies); the packages under
// node_modules stay loaded, which is the time saved.
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  for (const specifier of inject("mockedModules")) vi.doUnmock(specifier);
  vi.resetModules();
});

// As main.tsx does: what lib has to say (the runner, the wallet layer) shows as a toast.
setNotifier(toast);

// jsdom has no matchMedia (happy-dom has); the frame listens to it for the mobile breakpoint.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      onchange: null,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Radix Select and friends use pointer capture, scrollIntoView and ResizeObserver, which jsdom lacks (happy-dom has them).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
const proto = Element.prototype as unknown as Record<string, unknown>;
proto.hasPointerCapture ??= () => false;
proto.setPointerCapture ??= () => undefined;
proto.releasePointerCapture ??= () => undefined;
proto.scrollIntoView ??= () => undefined;
