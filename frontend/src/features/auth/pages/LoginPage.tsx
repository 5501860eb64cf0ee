import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Check, Mail, Wallet } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toast";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { signInWithEmail, signInWithWallet, signUpWithEmail } from "@/lib/auth/firebase";
import { useConfig } from "@/lib/config";
import { shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useWallet } from "@/lib/wallet/store";
import { CenteredAuthLayout } from "../components/CenteredAuthLayout";
import { BusyLabel, EmailField, Field, FormError, focusRing, linkClass } from "../components/fields";
import { useAuthAction } from "../useAuthAction";

const triggerClass = cn("gap-2", focusRing, "focus-visible:ring-offset-0");

/** The Login / Sign Up switch sits inside the Email tab, so it is drawn as underlined tabs to read as a second level. */
const subListClass = "h-auto w-full justify-start gap-4 rounded-none border-b border-border bg-transparent p-0";
const subTriggerClass = cn(
  "-mb-px rounded-none border-b-2 border-transparent px-1 pb-2.5 pt-1 text-muted-foreground hover:text-foreground",
  "data-[state=active]:border-primary data-[state=active]:bg-transparent data-[state=active]:shadow-none",
  focusRing,
  "focus-visible:ring-offset-0",
);

/** After any sign-in the user goes to the dashboard (spec: Login). */
function useGoHome() {
  const navigate = useNavigate();
  return (title: string) => {
    toast({ title });
    navigate("/");
  };
}

function EmailLoginForm() {
  const goHome = useGoHome();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, reject, run, invalid } = useAuthAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // PRODUCT.md section 5: both fields are required.
    if (!email.trim() || !password) {
      const message = "Please enter both email and password";
      reject(message, { title: "Login failed", description: message }, [
        ...(email.trim() ? [] : ["email"]),
        ...(password ? [] : ["password"]),
      ]);
      return;
    }
    void run(() => signInWithEmail(email, password), {
      failTitle: "Login failed",
      fallback: "Failed to sign in",
      onSuccess: () => goHome("Successfully signed in"),
    });
  };

  return (
    // noValidate: the spec's own sentences, not the browser's bubbles, tell people what is missing.
    <form onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
      <EmailField id="login-email" value={email} onChange={setEmail} invalid={invalid("email")} errorId="login-error" />
      <Field
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        invalid={invalid("password")}
        errorId="login-error"
      />
      {problem && <FormError id="login-error">{problem.message}</FormError>}
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
        <BusyLabel busy={busy} idle="Sign In" working="Signing in..." />
      </Button>
      <p className="text-center">
        <Link to="/forgot-password" className={linkClass}>
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}

function SignUpForm() {
  const goHome = useGoHome();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const { busy, problem, reject, run, invalid } = useAuthAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // PRODUCT.md section 5: all three fields, then the two passwords must match.
    const missing = [...(email.trim() ? [] : ["email"]), ...(password ? [] : ["password"]), ...(confirm ? [] : ["confirm"])];
    if (missing.length > 0) {
      const message = "Please fill in all fields";
      reject(message, { title: "Sign up failed", description: message }, missing);
      return;
    }
    if (password !== confirm) {
      const message = "Passwords don't match";
      reject(message, { title: "Sign up failed", description: message }, ["confirm"]);
      return;
    }
    void run(() => signUpWithEmail(email, password), {
      failTitle: "Sign up failed",
      fallback: "Failed to sign up",
      onSuccess: () => goHome("Account created"),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
      <EmailField id="signup-email" value={email} onChange={setEmail} invalid={invalid("email")} errorId="signup-error" />
      <Field
        id="signup-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        invalid={invalid("password")}
        errorId="signup-error"
      />
      <Field
        id="signup-confirm"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        invalid={invalid("confirm")}
        errorId="signup-error"
      />
      {problem && <FormError id="signup-error">{problem.message}</FormError>}
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
        <BusyLabel busy={busy} idle="Sign Up" working="Creating account..." />
      </Button>
    </form>
  );
}

function Step({ n, title, done, active, children }: { n: number; title: string; done: boolean; active: boolean; children: ReactNode }) {
  return (
    <li className="flex gap-3" aria-current={active && !done ? "step" : undefined}>
      <span
        aria-hidden
        className={cn(
          "mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold",
          done
            ? "border-primary bg-primary text-primary-foreground"
            : active
              ? "border-primary text-primary"
              : "border-border text-muted-foreground",
        )}
      >
        {done ? <Check className="h-3.5 w-3.5" /> : n}
      </span>
      <div className="grid min-w-0 flex-1 gap-2">
        <p className={cn("text-sm font-medium", !active && !done && "text-muted-foreground")}>
          <span className="sr-only">{`Step ${n}${done ? " (done)" : ""}: `}</span>
          {title}
        </p>
        {children}
      </div>
    </li>
  );
}

function WalletSignIn() {
  const config = useConfig();
  const goHome = useGoHome();
  const status = useWallet((s) => s.status);
  const address = useWallet((s) => s.address);
  const connected = status === "connected" && !!address;
  const { busy, problem, run } = useAuthAction();

  const authenticate = () =>
    void run(() => signInWithWallet(config.chainId), {
      failTitle: "Authentication failed",
      fallback: "Failed to authenticate wallet",
      onSuccess: () => goHome("Wallet authenticated"),
    });

  return (
    <div className="grid gap-5">
      <p className="text-sm leading-relaxed text-muted-foreground">
        Sign in with your Ethereum wallet using Sign-In with Ethereum. You sign a message to prove the address is yours; it is not a
        transaction and costs no gas.
      </p>
      <ol className="grid gap-5">
        <Step n={1} title="Connect your wallet" done={connected} active={!connected}>
          {connected ? (
            <div className="flex items-center gap-2 rounded-md border border-border bg-muted/60 px-3 py-2 text-sm">
              <span className="h-2 w-2 shrink-0 rounded-full bg-success" aria-hidden />
              <span className="text-muted-foreground">Connected:</span>
              <span className="truncate font-mono font-medium" title={address ?? undefined}>
                {shortAddress(address ?? "")}
              </span>
            </div>
          ) : (
            <ConnectWalletButton className="w-full" variant="outline" />
          )}
        </Step>
        <Step n={2} title="Sign the sign-in message" done={false} active={connected}>
          {connected ? (
            <Button type="button" size="lg" className="w-full" onClick={authenticate} disabled={busy}>
              <BusyLabel busy={busy} idle="Authenticate with Wallet" working="Authenticating..." />
            </Button>
          ) : (
            <p className="text-xs text-muted-foreground">Available once your wallet is connected.</p>
          )}
        </Step>
      </ol>
      {problem && (
        <FormError id="wallet-error">
          {/* PRODUCT.md section 8's sentence for the login screen, then what actually went wrong. */}
          Failed to authenticate wallet. Please try again later. {problem.message}
        </FormError>
      )}
    </div>
  );
}

/**
 * Login, variant 1 (/login, no page frame): Email (Login / Sign Up) or Wallet (connect, then
 * Sign-In with Ethereum). A signed-in visitor never sees it: the router's redirect rules send them to /.
 */
export default function LoginPage() {
  return (
    <CenteredAuthLayout subtitle="Sign in to manage your USDX">
      {/* The page's name for screen readers and the router tests; the card's tabs say the rest. */}
      <h2 className="sr-only">Login</h2>
      <Card className="shadow-lg shadow-slate-900/5">
        <CardContent className="p-6 sm:p-8">
          <Tabs defaultValue="email">
            <TabsList className="grid w-full grid-cols-2" aria-label="Sign-in method">
              <TabsTrigger value="email" className={triggerClass}>
                <Mail className="h-4 w-4" aria-hidden />
                Email
              </TabsTrigger>
              <TabsTrigger value="wallet" className={triggerClass}>
                <Wallet className="h-4 w-4" aria-hidden />
                Wallet
              </TabsTrigger>
            </TabsList>
            <TabsContent value="email" className="mt-6">
              <Tabs defaultValue="login">
                <TabsList className={subListClass} aria-label="Email account">
                  <TabsTrigger value="login" className={subTriggerClass}>
                    Login
                  </TabsTrigger>
                  <TabsTrigger value="signup" className={subTriggerClass}>
                    Sign Up
                  </TabsTrigger>
                </TabsList>
                <TabsContent value="login" className="mt-5">
                  <EmailLoginForm />
                </TabsContent>
                <TabsContent value="signup" className="mt-5">
                  <SignUpForm />
                </TabsContent>
              </Tabs>
            </TabsContent>
            <TabsContent value="wallet" className="mt-6">
              <WalletSignIn />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </CenteredAuthLayout>
  );
}
