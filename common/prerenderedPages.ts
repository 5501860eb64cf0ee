/**
 * Routes the dashboard's build has a page of its own for: index.html with the route's screen already
 * drawn in its root. The build writes them (frontend/build/prerenderPages.ts) and the server sends
 * each for its route (server/src/dashboard.ts). /login is where every signed-out visit lands, "/"
 * (the Dashboard) every signed-in one.
 */
export const PRERENDERED_PAGES = { "/login": "login.html", "/": "dashboard.html" } as const;
