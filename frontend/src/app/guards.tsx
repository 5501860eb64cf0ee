import { useDeferredValue } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useSession } from "@/lib/auth/session";
import { Spinner } from "@/components/ui/spinner";
import { PUBLIC_PATHS } from "./routes";

/**
 * PRODUCT.md section 2's redirect rules: a visitor who is not signed in goes to /login from anywhere but
 * /login and /forgot-password; a signed-in user on those two goes to /.
 */
export function RedirectRules() {
  const { user } = useSession();
  // The page a session opens is rendered in the background, in slices the browser can answer a
  // tap between, not in one long task: the session's store updates synchronously, and the frame
  // and the Dashboard are the most a load renders at once.
  const ready = useDeferredValue(useSession((s) => s.ready));
  const { pathname, key } = useLocation();
  if (!ready) {
    return (
      <div className="flex h-full items-center justify-center">
        <Spinner label="Checking your sign-in" />
      </div>
    );
  }
  const isPublic = (PUBLIC_PATHS as readonly string[]).includes(pathname);
  // Keyed by the location: a Navigate that stays mounted does not navigate again, so a second trip
  // to a guarded page (logout's own navigation to /, right after the session ended) would stay blank.
  if (!user && !isPublic) return <Navigate key={key} to="/login" replace />;
  if (user && isPublic) return <Navigate key={key} to="/" replace />;
  return <Outlet />;
}
