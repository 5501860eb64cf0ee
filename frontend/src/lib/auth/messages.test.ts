import { describe, expect, it } from "vitest";
import { AuthFailure, signInFailure, signUpFailure, walletAuthFailure } from "./messages";

const firebaseError = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });

describe("sign-in error texts (PRODUCT.md section 8)", () => {
  it.each([
    ["auth/wrong-password", "Invalid password"],
    ["auth/invalid-credential", "Invalid password"],
    ["auth/user-not-found", "No account exists with this email"],
    ["auth/invalid-email", "Invalid email format"],
    ["auth/user-disabled", "This account has been disabled"],
  ])("email sign-in: %s reads '%s'", (code, text) => {
    expect(signInFailure(firebaseError(code)).message).toBe(text);
  });

  it.each([
    ["auth/email-already-in-use", "The email address is already in use"],
    ["auth/invalid-email", "Invalid email format"],
    ["auth/weak-password", "Password is too weak"],
    ["auth/operation-not-allowed", "Failed to sign up"],
  ])("sign-up: %s reads '%s'", (code, text) => {
    expect(signUpFailure(firebaseError(code)).message).toBe(text);
  });

  it("never shows Firebase's own 'Firebase: Error (...)' text: an unknown code falls back to 'Failed to sign in'", () => {
    expect(signInFailure(firebaseError("auth/something-new")).message).toBe("Failed to sign in");
    expect(signInFailure(new Error("The server is restarting")).message).toBe("The server is restarting");
    expect(signInFailure(null).message).toBe("Failed to sign in");
  });

  it("keeps a wallet sign-in failure's own sentence (the server's 'Token mismatch: ...')", () => {
    const failure = new AuthFailure("Token mismatch: the message was not signed by 0xabc.");
    expect(walletAuthFailure(failure)).toBe(failure);
    expect(walletAuthFailure({}).message).toBe("Failed to authenticate wallet");
  });
});
