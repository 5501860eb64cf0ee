import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { ArrowLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { toast } from "@/components/ui/toast";
import { sendPasswordReset } from "@/lib/auth/firebase";
import { CenteredAuthLayout } from "../components/CenteredAuthLayout";
import { BusyLabel, EmailField, FormError, linkClass } from "../components/fields";
import { useAuthAction } from "../useAuthAction";

/**
 * Reset Password (/forgot-password, no page frame). PRODUCT.md section 2: a real reset email through
 * Firebase instead of the spec's simulation; the toast and the return to /login stay as specified.
 */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const { busy, problem, reject, run, invalid } = useAuthAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim()) {
      const message = "Please enter your email address";
      reject(message, { title: message }, ["email"]);
      return;
    }
    void run(() => sendPasswordReset(email), {
      failTitle: "Reset failed",
      fallback: "Failed to send the reset link",
      onSuccess: () => {
        toast({ title: "Reset link sent", description: "Check your email for password reset instructions" });
        navigate("/login");
      },
    });
  };

  return (
    <CenteredAuthLayout>
      <Card className="shadow-lg shadow-slate-900/5">
        <CardHeader className="p-6 pb-4 sm:px-8 sm:pt-8">
          <h2 className="text-xl font-semibold tracking-tight">Reset Password</h2>
          <CardDescription>Enter the email address of your account and we will send you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="p-6 pt-0 sm:px-8 sm:pb-8">
          <form onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
            <EmailField id="reset-email" value={email} onChange={setEmail} invalid={invalid("email")} errorId="reset-error" autoFocus />
            {problem && <FormError id="reset-error">{problem.message}</FormError>}
            <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
              <BusyLabel busy={busy} idle="Send Reset Link" working="Sending..." />
            </Button>
            <p className="text-center">
              <Link to="/login" className={`${linkClass} inline-flex items-center gap-1.5`}>
                <ArrowLeft className="h-4 w-4" aria-hidden />
                Back to login
              </Link>
            </p>
          </form>
        </CardContent>
      </Card>
    </CenteredAuthLayout>
  );
}
