import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { signInWithEmail } from "@/lib/auth/firebase";
import { AuthFailure } from "@/lib/auth/messages";
import AuthPage from "./pages/AuthPage";
import { deferred, lastToast, renderAt } from "./testUtils";

vi.mock("@/lib/auth/firebase", () => ({
  prepareAuth: vi.fn(),
  signInWithEmail: vi.fn(),
  signUpWithEmail: vi.fn(),
  signInWithWallet: vi.fn(),
  sendPasswordReset: vi.fn(),
}));

const renderAuth = () => renderAt("/auth", <AuthPage />);
const field = (label: string) => screen.getByLabelText(label, { selector: "input" });

beforeEach(() => {
  vi.mocked(signInWithEmail).mockReset().mockResolvedValue(undefined);
  useToasts.setState({ toasts: [] });
  // The test DOM has no canvas; the background then simply does not draw.
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => null);
});

afterEach(() => vi.restoreAllMocks());

describe("AuthPage (login variant 2)", () => {
  it("shows the branding panel, the Welcome card and the forgot link to /not-found", () => {
    renderAuth();
    expect(screen.getByText("Infrastructure for onchain capital markets")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Welcome" })).toBeInTheDocument();
    expect(screen.getByText("Login to continue to the platform")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Continue" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "I forgot my password" })).toHaveAttribute("href", "/not-found");
    expect(document.querySelector("canvas")).toHaveAttribute("aria-hidden", "true");
  });

  it("requires only the email", async () => {
    const user = renderAuth();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter your email address");
    expect(lastToast()).toMatchObject({ title: "Login failed", description: "Please enter your email address", variant: "destructive" });
    expect(signInWithEmail).not.toHaveBeenCalled();
  });

  it("does not check the password locally: an empty one goes to Firebase", async () => {
    const user = renderAuth();
    await user.type(field("Email"), "a@example.com{Enter}");
    expect(signInWithEmail).toHaveBeenCalledWith("a@example.com", "");
  });

  it("shows 'Signing in...' while busy, then toasts and goes to /", async () => {
    const call = deferred();
    vi.mocked(signInWithEmail).mockReturnValue(call.promise);
    const user = renderAuth();
    await user.type(field("Email"), "a@example.com");
    await user.type(field("Password"), "secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(signInWithEmail).toHaveBeenCalledWith("a@example.com", "secret");
    expect(screen.getByRole("button", { name: "Signing in..." })).toBeDisabled();

    await act(async () => call.resolve());
    expect(lastToast()).toMatchObject({ title: "Successfully signed in" });
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("shows the AuthFailure sentence inline and as a 'Login failed' toast", async () => {
    vi.mocked(signInWithEmail).mockRejectedValue(new AuthFailure("No account exists with this email", "auth/user-not-found"));
    const user = renderAuth();
    await user.type(field("Email"), "nobody@example.com{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("No account exists with this email");
    expect(lastToast()).toMatchObject({ title: "Login failed", description: "No account exists with this email", variant: "destructive" });
    expect(screen.getByRole("button", { name: "Continue" })).toBeEnabled();
  });

  it("follows 'I forgot my password' to /not-found", async () => {
    const user = renderAuth();
    await user.click(screen.getByRole("link", { name: "I forgot my password" }));
    expect(screen.getByRole("heading", { name: "At /not-found" })).toBeInTheDocument();
  });
});
