import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useSession } from "@/lib/auth/session";
import { Spinner } from "@/components/ui/spinner";
import { PUBLIC_PATHS } from "./routes";

/**
 * PRODUCT.md section 2's redirect rules: a visitor who is not signed in goes to /login from anywhere but
 * /login and /forgot-password; a signed-in user on those two goes to /.
 */
export function RedirectRules() {
  const { user, ready } = useSession();
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
