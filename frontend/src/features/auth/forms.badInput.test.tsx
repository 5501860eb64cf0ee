import { fireEvent, screen } from "@testing-library/react";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { sendPasswordReset, signInWithEmail, signUpWithEmail } from "@/lib/auth/firebase";
import { AuthFailure } from "@/lib/auth/messages";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { BLANKS, caseCounter } from "@/test/badInputs";
import AuthPage from "./pages/AuthPage";
import ForgotPasswordPage from "./pages/ForgotPasswordPage";
import LoginPage from "./pages/LoginPage";
import { lastToast, renderAt } from "./testUtils";

vi.mock("@/lib/auth/firebase", () => ({
  prepareAuth: vi.fn(),
  signInWithEmail: vi.fn(),
  signUpWithEmail: vi.fn(),
  signInWithWallet: vi.fn(),
  sendPasswordReset: vi.fn(),
}));

/**
 * The sign-in screens against the table of bad inputs (issue 7, item 3). PRODUCT.md section 5 decides only
 * that fields are filled in and that the two passwords match; those are refused here with its
 * sentences and nothing reaches Firebase. An email's format is Firebase's to judge: a bad one is
 * sent as typed and its answer is shown as PRODUCT.md section 8 words it.
 */
const cases = caseCounter("sign-in forms");
afterAll(() => cases.print());

beforeEach(() => {
  for (const call of [signInWithEmail, signUpWithEmail, sendPasswordReset]) vi.mocked(call).mockReset().mockResolvedValue(undefined);
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  // The test DOM has no canvas; the second variant's background then simply does not draw.
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => null);
});
afterEach(() => vi.restoreAllMocks());

const field = (label: string) => screen.getByLabelText(label, { selector: "input" }) as HTMLInputElement;
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

function expectRefused(title: string, description: string) {
  expect(screen.getByRole("alert")).toHaveTextContent(description);
  expect(lastToast()).toMatchObject({ title, description, variant: "destructive" });
  expect(signInWithEmail).not.toHaveBeenCalled();
  expect(signUpWithEmail).not.toHaveBeenCalled();
  expect(sendPasswordReset).not.toHaveBeenCalled();
}

/** Emails only Firebase refuses; the form sends them as typed. */
const BAD_EMAILS: [string, string][] = [
  ["no @", "alice.example.com"],
  ["two @", "alice@@example.com"],
  ["a formula", '=HYPERLINK("x")@example.com'],
  ["an RTL override", "alice\u202E@example.com"],
  ["a NUL", "ali\u0000ce@example.com"],
  ["an emoji", "😀@example.com"],
];

describe("Login (variant 1)", () => {
  it.each(BLANKS)("refuses the email: %s", (_what, value) => {
    cases.count("required field");
    renderAt("/login", <LoginPage />);
    fill("Email", value);
    fill("Password", "secret");
    click("Sign In");
    expectRefused("Login failed", "Please enter both email and password");
    expect(field("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("refuses an empty password", () => {
    cases.count("required field");
    renderAt("/login", <LoginPage />);
    fill("Email", "alice@example.com");
    click("Sign In");
    expectRefused("Login failed", "Please enter both email and password");
    expect(field("Password")).toHaveAttribute("aria-invalid", "true");
  });

  it.each(BAD_EMAILS)("sends an email with %s as typed, and shows Firebase's 'Invalid email format'", async (_what, value) => {
    cases.count("Firebase decides");
    vi.mocked(signInWithEmail).mockRejectedValue(new AuthFailure("Invalid email format", "auth/invalid-email"));
    renderAt("/login", <LoginPage />);
    fill("Email", value);
    fill("Password", "secret");
    click("Sign In");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email format");
    expect(lastToast()).toMatchObject({ title: "Login failed", description: "Invalid email format", variant: "destructive" });
    expect(signInWithEmail).toHaveBeenCalledWith(field("Email").value, "secret");
  });
});

describe("Sign Up", () => {
  function open() {
    renderAt("/login", <LoginPage />);
    // Radix tabs switch on mousedown.
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Sign Up" }));
  }

  for (const label of ["Email", "Password", "Confirm Password"]) {
    it.each(BLANKS)(`refuses the ${label.toLowerCase()}: %s`, (_what, value) => {
      cases.count("required field");
      open();
      const good: Record<string, string> = { Email: "alice@example.com", Password: "secret", "Confirm Password": "secret" };
      for (const [name, text] of Object.entries(good)) fill(name, name === label ? value : text);
      click("Sign Up");
      // A password of spaces is a password (Firebase judges its strength); only an empty one is missing.
      if (label !== "Email" && value !== "") expectRefused("Sign up failed", "Passwords don't match");
      else expectRefused("Sign up failed", "Please fill in all fields");
    });
  }

  const MISMATCHES: [string, string, string][] = [
    ["a trailing space", "correct horse", "correct horse "],
    ["another case", "Correct horse", "correct horse"],
    ["composed and decomposed é", "caf\u00e9-horse", "cafe\u0301-horse"],
    ["a zero-width space", "correct horse", "correct\u200B horse"],
    ["an RTL override", "correct horse", "\u202Ecorrect horse"],
    ["a Cyrillic 'о'", "correct horse", "c\u043Errect horse"],
    ["a NUL", "correct horse", "correct horse\u0000"],
  ];
  it.each(MISMATCHES)("refuses passwords that differ by %s: 'Passwords don't match'", (_what, password, confirm) => {
    cases.count("mismatch");
    open();
    fill("Email", "alice@example.com");
    fill("Password", password);
    fill("Confirm Password", confirm);
    click("Sign Up");
    expectRefused("Sign up failed", "Passwords don't match");
    expect(field("Confirm Password")).toHaveAttribute("aria-invalid", "true");
  });
});

describe("Reset password", () => {
  it.each(BLANKS)("refuses the email: %s", (_what, value) => {
    cases.count("required field");
    renderAt("/forgot-password", <ForgotPasswordPage />);
    fill("Email", value);
    click("Send Reset Link");
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter your email address");
    expect(lastToast()).toMatchObject({ title: "Please enter your email address", variant: "destructive" });
    expect(sendPasswordReset).not.toHaveBeenCalled();
  });
});

describe("Login (variant 2)", () => {
  it.each(BLANKS)("refuses the email: %s", (_what, value) => {
    cases.count("required field");
    renderAt("/auth", <AuthPage />);
    fill("Email", value);
    fill("Password", "secret");
    click("Continue");
    expectRefused("Login failed", "Please enter your email address");
  });
});
