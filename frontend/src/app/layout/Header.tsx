import { useContext, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { useSession } from "@/lib/auth/session";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfigContext, networkBadgeLabel } from "@/lib/config";
import { usePrerendering } from "@/lib/prerendering";

/**
 * The header of PRODUCT.md section 2: the product name (to /), the network it runs on (so nobody takes a
 * rehearsal or a fork for the real thing), the account menu or a Login button, and the wallet control. The account menu and the wallet control are composed in by the app (auth and
 * wallet features) through `accountMenu` and `walletControl`.
 */
export function Header({
  menuButton,
  accountMenu,
  walletControl,
}: {
  menuButton: ReactNode;
  accountMenu?: ReactNode;
  walletControl?: ReactNode;
}) {
  const user = useSession((s) => s.user);
  // Drawn at build time for signed-in visits ("/", src/prerender.tsx): the account menu's place, not a Login button.
  const prerendering = usePrerendering();
  const signedIn = user !== null || prerendering;
  const config = useContext(ConfigContext);
  const network = config ? networkBadgeLabel(config) : null;
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-border bg-card px-3 sm:px-4 md:px-8">
      {menuButton}
      <Link to="/" className="flex min-w-0 items-center gap-2 font-semibold tracking-tight" aria-label="USDX Dashboard">
        <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">$</span>
        {/* On a phone the header also holds the menu, wallet and account buttons: the logo alone names it. */}
        <span className="hidden sm:inline">USDX Dashboard</span>
      </Link>
      {network && (
        // A phone's header is full (menu, wallet, account): the Dashboard's Quick Actions name the network there.
        <Badge variant="outline" className="ml-2 hidden gap-1.5 whitespace-nowrap md:inline-flex" aria-label={`Network ${network}`}>
          <span className="h-2 w-2 rounded-full bg-success" aria-hidden />
          {network}
        </Badge>
      )}
      <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
        {walletControl}
        {signedIn ? (
          accountMenu
        ) : (
          <Button asChild variant="outline" size="sm">
            <Link to="/login">Login</Link>
          </Button>
        )}
      </div>
    </header>
  );
}
