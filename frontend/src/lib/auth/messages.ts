/**
 * What a person reads when sign-in fails: PRODUCT.md section 8's texts for every Firebase error code, and
 * a plain sentence for the codes the spec does not name (no "Firebase: Error (auth/...)").
 */

/** A sign-in step that failed, with the sentence to show. */
export class AuthFailure extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "AuthFailure";
  }
}

const COMMON: Record<string, string> = {
  "auth/invalid-email": "Invalid email format",
  "auth/network-request-failed": "Cannot reach the sign-in service. Check your connection and try again.",
  "auth/too-many-requests": "Too many attempts. Wait a moment, then try again.",
  "auth/internal-error": "The sign-in service had a problem. Try again shortly.",
};

const SIGN_IN: Record<string, string> = {
  ...COMMON,
  // Projects with email-enumeration protection answer invalid-credential for a wrong password.
  "auth/wrong-password": "Invalid password",
  "auth/invalid-credential": "Invalid password",
  "auth/invalid-login-credentials": "Invalid password",
  "auth/user-not-found": "No account exists with this email",
  "auth/user-disabled": "This account has been disabled",
};

const SIGN_UP: Record<string, string> = {
  ...COMMON,
  "auth/email-already-in-use": "The email address is already in use",
  "auth/weak-password": "Password is too weak",
};

const RESET: Record<string, string> = {
  ...COMMON,
  "auth/user-not-found": "No account exists with this email",
  "auth/missing-email": "Please enter your email address",
};

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
}

/** Firebase's own message is not for people ("Firebase: Error (auth/x)."); keep only a clean one. */
function ownMessage(error: unknown): string | null {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || message === "" || message.startsWith("Firebase:")) return null;
  return message;
}

function failure(table: Record<string, string>, fallback: string, useOwnMessage: boolean) {
  return (error: unknown): AuthFailure => {
    if (error instanceof AuthFailure) return error;
    const code = codeOf(error);
    const known = code ? table[code] : undefined;
    return new AuthFailure(known ?? (useOwnMessage ? ownMessage(error) : null) ?? fallback, code);
  };
}

/** Email sign-in: the spec's texts, else the error's message, else 'Failed to sign in'. */
export const signInFailure = failure(SIGN_IN, "Failed to sign in", true);
/** Sign-up: the spec's texts, else 'Failed to sign up'. */
export const signUpFailure = failure(SIGN_UP, "Failed to sign up", false);
/** Password reset (PRODUCT.md section 2: a real reset): the same kind of sentences. */
export const resetFailure = failure(RESET, "Failed to send the reset link", true);
/** Wallet sign-in: the server's sentence (it starts 'Invalid custom token' or 'Token mismatch'), else the spec's fallback. */
export const walletAuthFailure = failure(COMMON, "Failed to authenticate wallet", true);
