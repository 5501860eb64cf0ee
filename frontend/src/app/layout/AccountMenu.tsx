import { lazy } from "react";
import { ChevronDown, UserRound } from "lucide-react";
import { DeferredMenu } from "@/components/DeferredMenu";
import { Button } from "@/components/ui/button";
import { useSession } from "@/lib/auth/session";
import { usePrerendering } from "@/lib/prerendering";

const AccountMenuContent = lazy(() => import("./AccountMenuContent"));

/** PRODUCT.md section 2's account menu: labelled with the email (or 'Account'), an email line, Dashboard, Logout. */
export function AccountMenu() {
  const user = useSession((s) => s.user);
  const prerendering = usePrerendering();
  // Drawn at build time (src/prerender.tsx) for whoever loads the page: the button keeps its place, empty.
  if (prerendering) return <Button size="sm" variant="ghost" className="invisible" aria-hidden tabIndex={-1} />;
  if (!user) return null;
  const trigger = (
    // Named as its words read: on a phone they are hidden and the icon alone shows.
    <Button size="sm" variant="ghost" className="max-w-[14rem]" aria-label={user.email ?? "Account"}>
      <UserRound className="h-4 w-4" aria-hidden />
      <span className="hidden truncate sm:inline">{user.email ?? "Account"}</span>
      <ChevronDown className="h-3.5 w-3.5 opacity-60" aria-hidden />
    </Button>
  );
  return <DeferredMenu trigger={trigger} menu={(t) => <AccountMenuContent trigger={t} user={user} />} />;
}
