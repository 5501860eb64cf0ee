import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { signInWithEmail } from "@/lib/auth/firebase";
import { SnakeBackground } from "../components/SnakeBackground";
import { BrandMark, BusyLabel, EmailField, Field, FormError, linkClass } from "../components/fields";
import { useAuthAction } from "../useAuthAction";

/**
 * Login, variant 2 (/auth): a dark branding panel with the snake background beside a 'Welcome'
 * card. Below the md breakpoint (768 px, PRODUCT.md section 9) the panel shrinks to a band on top.
 */
export default function AuthPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, reject, run, invalid } = useAuthAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // PRODUCT.md section 5: this variant only requires the email; the password is left to Firebase.
    if (!email.trim()) {
      const message = "Please enter your email address";
      reject(message, { title: "Login failed", description: message }, ["email"]);
      return;
    }
    void run(() => signInWithEmail(email, password), {
      failTitle: "Login failed",
      fallback: "Failed to sign in",
      onSuccess: () => {
        toast({ title: "Successfully signed in" });
        navigate("/");
      },
    });
  };

  return (
    <div className="flex min-h-full flex-col bg-background md:flex-row">
      <aside className="relative isolate flex shrink-0 overflow-hidden bg-slate-950 text-white md:w-1/2 lg:w-[55%]">
        <SnakeBackground className="-z-10" />
        {/* Keeps the text legible where the snake passes underneath it. */}
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 -z-10 bg-linear-to-t from-slate-950/80 via-slate-950/20 to-transparent"
        />
        <div className="flex w-full flex-col justify-between gap-3 px-6 py-6 md:gap-12 md:p-12 lg:p-16">
          <div className="flex items-center gap-3">
            <BrandMark />
            <span className="text-lg font-semibold tracking-tight">USDX Dashboard</span>
          </div>
          <div className="max-w-lg">
            <p className="text-sm text-slate-300 md:text-4xl md:font-semibold md:leading-tight md:tracking-tight md:text-white">
              Infrastructure for onchain capital markets
            </p>
            <p className="mt-4 hidden text-sm text-slate-400 md:block">XFT Digital Dollar (USDX) on Ethereum</p>
          </div>
        </div>
      </aside>

      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:px-6 md:items-center md:py-12">
        <div className="w-full rounded-lg border border-border bg-card p-6 shadow-sm sm:p-8 md:max-w-md md:shadow-lg md:shadow-slate-900/5">
          <div className="mb-6 space-y-1.5">
            <h1 className="text-2xl font-semibold tracking-tight">Welcome</h1>
            <p className="text-sm text-muted-foreground">Login to continue to the platform</p>
          </div>
          <form onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
            <EmailField id="auth-email" value={email} onChange={setEmail} invalid={invalid("email")} errorId="auth-error" />
            <Field
              id="auth-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {problem && <FormError id="auth-error">{problem.message}</FormError>}
            <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
              <BusyLabel busy={busy} idle="Continue" working="Signing in..." />
            </Button>
            <p className="text-center">
              {/* The spec sends this link to /not-found. */}
              <Link to="/not-found" className={linkClass}>
                I forgot my password
              </Link>
            </p>
          </form>
        </div>
      </main>
    </div>
  );
}
