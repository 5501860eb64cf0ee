/**
 * The HTTP headers the dashboard is served with: the built dashboard by the API server
 * (server/src/dashboard.ts, `npm run start:production`) and by `vite preview`, the development server through
 * vite.config.mts's `server.headers`. docs/SECURITY.md explains each choice. A .ts, not an .mts:
 * the API server runs as CommonJS under ts-node, which cannot load an ES module file.
 *
 * The policy allows exactly what the built dashboard loads:
 * - scripts and styles: its own files only. The build has no inline script (checked by
 *   securityHeaders.test.ts); styles also need 'unsafe-inline' because Radix's scroll lock
 *   (react-remove-scroll) and Select write <style> elements with computed contents, and React 19
 *   hoists <style> elements. React's `style` props are set through the CSSOM, which CSP does not
 *   govern, so no style attribute needs allowing.
 * - connections: the API (same origin: the API server serves the build; Vite forwards /api),
 *   Firebase Auth's REST endpoints, the Auth emulator and the Hardhat node on this machine, and any
 *   HTTPS JSON-RPC endpoint, because a person may set their own RPC URL in Settings and a header
 *   fixed at build time cannot know it.
 * - images: its own, and data: URLs (the favicon; EIP-6963 wallets announce their icons as data URLs).
 * - no frames in or out, no plugins, no <base>, forms post only to itself.
 */

/** Firebase Auth's REST endpoints (sign-in, sign-up, password reset; token refresh). */
export const FIREBASE_AUTH_ORIGINS = ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"] as const;

/**
 * Plain-http services on this machine: the Hardhat node and the development wallet's node
 * connection, the Auth emulator. Any port, since npm start and the tests pick free ones.
 */
export const LOOPBACK_HTTP = ["http://127.0.0.1:*", "http://localhost:*"] as const;

export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "font-src": ["'self'"],
  // https: covers a public or custom RPC URL; the Firebase origins are listed anyway so the policy
  // still says what sign-in needs if https: is ever narrowed to a list of RPC providers.
  "connect-src": ["'self'", ...FIREBASE_AUTH_ORIGINS, ...LOOPBACK_HTTP, "https:"],
  // Sign-in is email and custom tokens only (initializeAuth without a popup resolver): no Google iframe.
  "frame-src": ["'none'"],
  "worker-src": ["'none'"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/** The directives as one Content-Security-Policy header value. */
export function contentSecurityPolicy(directives: Readonly<Record<string, readonly string[]>> = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}

/** Headers for every page of the dashboard, whichever server serves it. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  // Not no-referrer: a real Firebase project's web API key may be restricted to the dashboard's
  // origin by HTTP referrer, and Google checks the origin this policy still sends cross-origin.
  "Referrer-Policy": "strict-origin-when-cross-origin",
  // For browsers without frame-ancestors; the dashboard is never framed (clickjacking on a wallet's confirmations).
  "X-Frame-Options": "DENY",
  // Powerful features the dashboard never uses. Only names Chromium knows, or it logs an error per page.
  "Permissions-Policy": "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
  // Pages the dashboard opens (explorer links) cannot reach back into it through window.opener.
  "Cross-Origin-Opener-Policy": "same-origin",
  // Other sites cannot embed the dashboard's scripts and styles as no-cors subresources.
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** The built dashboard (the API server, vite preview): the base headers and the Content-Security-Policy. */
export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  ...BASE_HEADERS,
  "Content-Security-Policy": contentSecurityPolicy(),
};

/**
 * The development server: the base headers, no CSP. React Refresh injects an inline module script
 * and Vite's client talks over a websocket; a policy loose enough for both would check little, and
 * the browser suite runs against the built dashboard under the real policy.
 */
export const DEV_HEADERS: Readonly<Record<string, string>> = { ...BASE_HEADERS };
