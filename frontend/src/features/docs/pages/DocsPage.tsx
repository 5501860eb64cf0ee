import { Link } from "react-router-dom";
import { useSession, type SessionUser } from "@/lib/auth/session";
import { ApiViewer } from "../components/ApiViewer";

/** Whether 'Try it out' will carry the user's ID token, in the words the header shows. */
export function tokenNotice(user: SessionUser | null, ready: boolean): string {
  if (!ready) return "Checking whether you are signed in…";
  if (user) return `Signed in as ${user.email ?? user.wallet ?? user.uid}: 'Try it out' sends your ID token.`;
  return "Signed out: endpoints that need sign-in answer 401. Sign in to the dashboard in this browser first, or paste a token under Authorize.";
}

/**
 * /docs ('API Documentation' in the footer): the API server's OpenAPI document, with requests that
 * can be tried against this server. Open signed out: an integrator may have no account.
 */
export default function DocsPage() {
  const { user, ready } = useSession();
  return (
    <div className="min-h-full bg-background">
      <header className="border-b border-border bg-card">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between md:px-8">
          <div className="space-y-1">
            <h1 className="text-2xl font-bold">API Documentation</h1>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {tokenNotice(user, ready)}
            </p>
          </div>
          <Link to="/" className="shrink-0 text-sm font-medium text-primary underline-offset-4 hover:underline">
            Back to the Dashboard
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-6xl pb-8 md:px-4">
        <ApiViewer uid={ready ? (user?.uid ?? null) : undefined} />
      </main>
    </div>
  );
}
