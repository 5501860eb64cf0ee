import { useCallback, useEffect, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router-dom";
import { Menu, X } from "lucide-react";
import { useMyRoles } from "@/lib/chain/queries";
import { WalletMenu } from "@/components/wallet/WalletMenu";
import { AccountMenu } from "./AccountMenu";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { useSession } from "@/lib/auth/session";
import { useConfig } from "@/lib/config";
import { ADMIN_LINK, ALERTS_LINK, COPYRIGHT_YEAR, DRAWER_WIDTH_PX, MOBILE_BREAKPOINT_PX, NAV_LINKS, SCENARIOS_LINK } from "../routes";
import { Header } from "./Header";
import { PausedBanner } from "./PausedBanner";

function NavLinks({ admin, operator }: { admin: boolean; operator: boolean }) {
  const local = useConfig().network === "localhost";
  const links = [...NAV_LINKS, ...(local ? [SCENARIOS_LINK] : []), ...(operator ? [ALERTS_LINK] : []), ...(admin ? [ADMIN_LINK] : [])];
  return (
    <nav className="flex flex-col gap-1" aria-label="Main">
      {links.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end={link.to === "/"}
          className={({ isActive }) =>
            cn(
              "rounded-md px-3 py-2 text-sm font-medium transition-colors",
              isActive ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:bg-muted hover:text-foreground",
              link === ADMIN_LINK && "mt-2 border border-primary/40 font-semibold text-primary",
            )
          }
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The page frame of PRODUCT.md section 2: header, sidebar (desktop), the Menu drawer (mobile), footer. */
export function Frame() {
  // PRODUCT.md section 6: the shell asks the chain whether the connected wallet holds the admin role.
  const admin = useMyRoles().isAdmin;
  // The server's admin claim (ADMIN_WALLETS): the alerts are the server's, not the contract's.
  const operator = useSession((s) => s.user?.admin ?? false);
  const { pathname } = useLocation();
  // The drawer is open on the page it was opened on: navigating closes it. It also closes when
  // the window reaches the desktop width.
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const drawerOpen = drawerOpenOn === pathname;
  const setDrawerOpen = useCallback((open: boolean) => setDrawerOpenOn(open ? pathname : null), [pathname]);
  useEffect(() => {
    const query = window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
    const close = () => query.matches && setDrawerOpenOn(null);
    query.addEventListener("change", close);
    return () => query.removeEventListener("change", close);
  }, []);

  return (
    <div className="flex min-h-full flex-col">
      <Header
        accountMenu={<AccountMenu />}
        walletControl={<WalletMenu />}
        menuButton={
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Menu"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu className="h-5 w-5" />
          </Button>
        }
      />
      <div className="flex flex-1">
        <aside className="hidden w-56 shrink-0 border-r border-border bg-card p-4 md:block">
          <NavLinks admin={admin} operator={operator} />
        </aside>
        {drawerOpen && (
          <div className="fixed inset-0 z-40 md:hidden">
            <div className="absolute inset-0 bg-black/40" onClick={() => setDrawerOpen(false)} />
            <div
              role="dialog"
              aria-label="Menu"
              className="absolute inset-y-0 left-0 bg-card p-4 shadow-xl"
              style={{ width: DRAWER_WIDTH_PX }}
            >
              <div className="mb-4 flex items-center justify-between">
                <span className="font-semibold">Menu</span>
                <Button variant="ghost" size="icon" aria-label="Close menu" onClick={() => setDrawerOpen(false)}>
                  <X className="h-5 w-5" />
                </Button>
              </div>
              <NavLinks admin={admin} operator={operator} />
            </div>
          </div>
        )}
        <main className="min-w-0 flex-1 p-4 md:p-8">
          <PausedBanner />
          <Outlet />
        </main>
      </div>
      <footer className="flex flex-col items-center justify-between gap-2 border-t border-border bg-card px-4 py-4 text-sm text-muted-foreground sm:flex-row md:px-8">
        <span>© {COPYRIGHT_YEAR} XFT. All rights reserved.</span>
        <div className="flex gap-4">
          <Link to="/monitoring" target="_blank" rel="noreferrer" className="hover:text-foreground">
            CI/CD Monitoring
          </Link>
          <Link to="/docs" target="_blank" rel="noreferrer" className="hover:text-foreground">
            API Documentation
          </Link>
        </div>
      </footer>
    </div>
  );
}
