import { act, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { sendPasswordReset } from "@/lib/auth/firebase";
import { AuthFailure } from "@/lib/auth/messages";
import ForgotPasswordPage from "./pages/ForgotPasswordPage";
import { deferred, lastToast, renderAt } from "./testUtils";

vi.mock("@/lib/auth/firebase", () => ({
  prepareAuth: vi.fn(),
  signInWithEmail: vi.fn(),
  signUpWithEmail: vi.fn(),
  signInWithWallet: vi.fn(),
  sendPasswordReset: vi.fn(),
}));

const renderReset = () => renderAt("/forgot-password", <ForgotPasswordPage />);
const emailField = () => screen.getByLabelText("Email", { selector: "input" });

beforeEach(() => {
  vi.mocked(sendPasswordReset).mockReset().mockResolvedValue(undefined);
  useToasts.setState({ toasts: [] });
});

describe("ForgotPasswordPage", () => {
  it("has the email field, 'Send Reset Link' and 'Back to login'", () => {
    renderReset();
    expect(screen.getByRole("heading", { name: "Reset Password" })).toBeInTheDocument();
    expect(emailField()).toHaveAttribute("type", "email");
    expect(screen.getByRole("button", { name: "Send Reset Link" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "Back to login" })).toHaveAttribute("href", "/login");
  });

  it("asks for the email address without calling Firebase", async () => {
    const user = renderReset();
    await user.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter your email address");
    expect(lastToast()).toMatchObject({ title: "Please enter your email address", variant: "destructive" });
    expect(emailField()).toHaveAttribute("aria-invalid", "true");
    expect(sendPasswordReset).not.toHaveBeenCalled();
  });

  it("sends a real reset, shows 'Sending...' meanwhile, then toasts and returns to /login", async () => {
    const call = deferred();
    vi.mocked(sendPasswordReset).mockReturnValue(call.promise);
    const user = renderReset();
    await user.type(emailField(), "a@example.com{Enter}");

    expect(sendPasswordReset).toHaveBeenCalledWith("a@example.com");
    expect(screen.getByRole("button", { name: "Sending..." })).toBeDisabled();

    await act(async () => call.resolve());
    expect(lastToast()).toMatchObject({ title: "Reset link sent", description: "Check your email for password reset instructions" });
    expect(lastToast().variant).not.toBe("destructive");
    expect(screen.getByRole("heading", { name: "At /login" })).toBeInTheDocument();
  });

  it("shows the AuthFailure sentence inline and as a 'Reset failed' toast, and stays", async () => {
    vi.mocked(sendPasswordReset).mockRejectedValue(new AuthFailure("No account exists with this email", "auth/user-not-found"));
    const user = renderReset();
    await user.type(emailField(), "nobody@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Link" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("No account exists with this email");
    expect(lastToast()).toMatchObject({ title: "Reset failed", description: "No account exists with this email", variant: "destructive" });
    expect(screen.getByRole("button", { name: "Send Reset Link" })).toBeEnabled();
    expect(screen.queryByRole("heading", { name: "At /login" })).toBeNull();
  });

  it("goes back to /login from the link", async () => {
    const user = renderReset();
    await user.click(screen.getByRole("link", { name: "Back to login" }));
    expect(screen.getByRole("heading", { name: "At /login" })).toBeInTheDocument();
  });
});
