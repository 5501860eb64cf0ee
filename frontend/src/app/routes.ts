/** The sidebar's links (PRODUCT.md section 2), in order; the Admin Panel link is added for admins. */
export const NAV_LINKS = [
  { to: "/", label: "Dashboard" },
  { to: "/transactions", label: "Transactions" },
  { to: "/holders", label: "Holders" },
  { to: "/roles", label: "Role Management" },
  { to: "/approvals", label: "Approvals" },
  { to: "/blocklist", label: "Blocklist" },
  { to: "/accounts", label: "Accounts" },
  { to: "/payments", label: "Payments" },
  { to: "/contacts", label: "Contacts" },
  { to: "/settings", label: "Settings" },
] as const;

export const ADMIN_LINK = { to: "/admin", label: "Admin Panel" } as const;

/** Operators' alerts: shown to the server's admins (the admin claim), whatever the connected wallet. */
export const ALERTS_LINK = { to: "/alerts", label: "Alerts" } as const;

/** The Scenarios panel, for testers: shown only on the local chain (GET /api/config's network), where the server offers it. */
export const SCENARIOS_LINK = { to: "/scenarios", label: "Scenarios" } as const;

/** Pages a signed-out visitor may see; everywhere else sends them to /login. */
export const PUBLIC_PATHS = ["/login", "/forgot-password"] as const;

/** PRODUCT.md section 9: the mobile breakpoint (the drawer closes at this width) and the drawer's width. */
export const MOBILE_BREAKPOINT_PX = 768;
export const DRAWER_WIDTH_PX = 250;

/** PRODUCT.md section 9: the footer's copyright year. */
export const COPYRIGHT_YEAR = 2025;
