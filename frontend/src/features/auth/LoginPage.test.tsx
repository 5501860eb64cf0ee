import { act, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { prepareAuth, signInWithEmail, signInWithWallet, signUpWithEmail } from "@/lib/auth/firebase";
import { AuthFailure } from "@/lib/auth/messages";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import LoginPage from "./pages/LoginPage";
import { deferred, lastToast, renderAt, testConfig } from "./testUtils";

// The real module talks to Firebase; these screens only need its three calls.
vi.mock("@/lib/auth/firebase", () => ({
  prepareAuth: vi.fn(),
  signInWithEmail: vi.fn(),
  signUpWithEmail: vi.fn(),
  signInWithWallet: vi.fn(),
  sendPasswordReset: vi.fn(),
}));

const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

// The Email tab's panel is also labelled "Email", so look for inputs only.
const field = (label: string) => screen.getByLabelText(label, { selector: "input" });

const renderLogin = () => renderAt("/login", <LoginPage />);

beforeEach(() => {
  vi.mocked(signInWithEmail).mockReset().mockResolvedValue(undefined);
  vi.mocked(signUpWithEmail).mockReset().mockResolvedValue(undefined);
  vi.mocked(signInWithWallet).mockReset().mockResolvedValue(undefined);
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
});

describe("LoginPage layout", () => {
  it("shows the product name, the Email and Wallet tabs and the Login and Sign Up sub-tabs", () => {
    renderLogin();
    expect(screen.getByRole("heading", { level: 1, name: "USDX Dashboard" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Email" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Wallet" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Sign Up" })).toBeInTheDocument();
    expect(field("Email")).toHaveAttribute("type", "email");
    expect(field("Password")).toHaveAttribute("type", "password");
    expect(screen.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
  });

  it("starts loading sign-in (Firebase) when a person first touches the form, not when the page draws", async () => {
    vi.mocked(prepareAuth).mockClear();
    const user = renderLogin();
    expect(prepareAuth).not.toHaveBeenCalled();
    await user.click(field("Email"));
    expect(prepareAuth).toHaveBeenCalled();
  });

  it("lets a person reveal the password they typed", async () => {
    const user = renderLogin();
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(field("Password")).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(field("Password")).toHaveAttribute("type", "password");
  });
});

describe("email login", () => {
  it.each([
    ["both empty", "", ""],
    ["no password", "a@example.com", ""],
    ["no email", "", "secret"],
  ])("asks for both fields (%s) without calling Firebase", async (_case, email, password) => {
    const user = renderLogin();
    if (email) await user.type(field("Email"), email);
    if (password) await user.type(field("Password"), password);
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter both email and password");
    expect(lastToast()).toMatchObject({
      title: "Login failed",
      description: "Please enter both email and password",
      variant: "destructive",
    });
    expect(signInWithEmail).not.toHaveBeenCalled();
  });

  it("marks the missing field invalid and points it at the message", async () => {
    const user = renderLogin();
    await user.type(field("Email"), "a@example.com");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(field("Password")).toHaveAttribute("aria-invalid", "true");
    expect(field("Password")).toHaveAccessibleDescription("Please enter both email and password");
    expect(field("Email")).not.toHaveAttribute("aria-invalid");
  });

  it("submits on Enter, shows 'Signing in...' while busy, then toasts and goes to /", async () => {
    const call = deferred();
    vi.mocked(signInWithEmail).mockReturnValue(call.promise);
    const user = renderLogin();
    await user.type(field("Email"), "a@example.com");
    await user.type(field("Password"), "secret{Enter}");

    expect(signInWithEmail).toHaveBeenCalledWith("a@example.com", "secret");
    const busy = screen.getByRole("button", { name: "Signing in..." });
    expect(busy).toBeDisabled();
    // A second Enter while busy does not sign in twice.
    await user.type(field("Password"), "{Enter}");
    expect(signInWithEmail).toHaveBeenCalledTimes(1);

    await act(async () => call.resolve());
    expect(lastToast()).toMatchObject({ title: "Successfully signed in" });
    expect(lastToast().variant).not.toBe("destructive");
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("shows the AuthFailure sentence inline and as a 'Login failed' toast", async () => {
    vi.mocked(signInWithEmail).mockRejectedValue(new AuthFailure("Invalid password", "auth/wrong-password"));
    const user = renderLogin();
    await user.type(field("Email"), "a@example.com");
    await user.type(field("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(lastToast()).toMatchObject({ title: "Login failed", description: "Invalid password", variant: "destructive" });
    // Still on /login, ready to try again.
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
    expect(screen.queryByRole("heading", { name: "Dashboard home" })).toBeNull();
  });

  it("clears the previous error when the next attempt starts", async () => {
    vi.mocked(signInWithEmail).mockReturnValue(new Promise(() => {}));
    const user = renderLogin();
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(screen.getByRole("alert")).toBeInTheDocument();
    await user.type(field("Email"), "a@example.com");
    await user.type(field("Password"), "secret{Enter}");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("links to /forgot-password", async () => {
    const user = renderLogin();
    await user.click(screen.getByRole("link", { name: "Forgot your password?" }));
    expect(screen.getByRole("heading", { name: "At /forgot-password" })).toBeInTheDocument();
  });
});

describe("email sign up", () => {
  async function openSignUp() {
    const user = renderLogin();
    await user.click(screen.getByRole("tab", { name: "Sign Up" }));
    return user;
  }

  const fill = async (user: Awaited<ReturnType<typeof openSignUp>>, email: string, password: string, confirm: string) => {
    if (email) await user.type(field("Email"), email);
    if (password) await user.type(field("Password"), password);
    if (confirm) await user.type(field("Confirm Password"), confirm);
  };

  it.each([
    ["all empty", "", "", ""],
    ["no confirmation", "a@example.com", "secret", ""],
    ["no email", "", "secret", "secret"],
  ])("asks for all fields (%s)", async (_case, email, password, confirm) => {
    const user = await openSignUp();
    await fill(user, email, password, confirm);
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please fill in all fields");
    expect(lastToast()).toMatchObject({ title: "Sign up failed", description: "Please fill in all fields", variant: "destructive" });
    expect(signUpWithEmail).not.toHaveBeenCalled();
  });

  it("asks for matching passwords", async () => {
    const user = await openSignUp();
    await fill(user, "a@example.com", "secret1", "secret2");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Passwords don't match");
    expect(lastToast()).toMatchObject({ title: "Sign up failed", description: "Passwords don't match" });
    expect(field("Confirm Password")).toHaveAttribute("aria-invalid", "true");
    expect(signUpWithEmail).not.toHaveBeenCalled();
  });

  it("shows 'Creating account...' while busy, then toasts 'Account created' and goes to /", async () => {
    const call = deferred();
    vi.mocked(signUpWithEmail).mockReturnValue(call.promise);
    const user = await openSignUp();
    await fill(user, "new@example.com", "secret1", "secret1{Enter}");
    expect(signUpWithEmail).toHaveBeenCalledWith("new@example.com", "secret1");
    expect(screen.getByRole("button", { name: "Creating account..." })).toBeDisabled();

    await act(async () => call.resolve());
    expect(lastToast()).toMatchObject({ title: "Account created" });
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("shows the AuthFailure sentence inline and as a 'Sign up failed' toast", async () => {
    vi.mocked(signUpWithEmail).mockRejectedValue(new AuthFailure("The email address is already in use", "auth/email-already-in-use"));
    const user = await openSignUp();
    await fill(user, "a@example.com", "secret1", "secret1");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The email address is already in use");
    expect(lastToast()).toMatchObject({
      title: "Sign up failed",
      description: "The email address is already in use",
      variant: "destructive",
    });
    expect(screen.getByRole("button", { name: "Sign Up" })).toBeEnabled();
  });
});

describe("wallet sign-in", () => {
  async function openWallet() {
    const user = renderLogin();
    await user.click(screen.getByRole("tab", { name: "Wallet" }));
    return user;
  }

  it("explains SIWE and offers Connect Wallet first", async () => {
    await openWallet();
    const panel = screen.getByRole("tabpanel", { name: "Wallet" });
    expect(within(panel).getByText(/Sign-In with Ethereum/)).toBeInTheDocument();
    expect(within(panel).getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Authenticate with Wallet" })).toBeNull();
  });

  it("shows the connected address, then authenticates on this chain and goes to /", async () => {
    useWallet.setState({ status: "connected", address: ADDRESS, chainId: testConfig.chainId });
    const call = deferred();
    vi.mocked(signInWithWallet).mockReturnValue(call.promise);
    const user = await openWallet();
    expect(screen.getByText("0x7099...79C8")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Connect Wallet" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Authenticate with Wallet" }));
    expect(signInWithWallet).toHaveBeenCalledWith(testConfig.chainId);
    expect(screen.getByRole("button", { name: "Authenticating..." })).toBeDisabled();

    await act(async () => call.resolve());
    expect(lastToast()).toMatchObject({ title: "Wallet authenticated" });
    expect(screen.getByRole("heading", { name: "Dashboard home" })).toBeInTheDocument();
  });

  it("reports a failure in a toast and inline after the spec's sentence", async () => {
    useWallet.setState({ status: "connected", address: ADDRESS, chainId: testConfig.chainId });
    vi.mocked(signInWithWallet).mockRejectedValue(new AuthFailure("Token mismatch"));
    const user = await openWallet();
    await user.click(screen.getByRole("button", { name: "Authenticate with Wallet" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to authenticate wallet. Please try again later. Token mismatch");
    expect(lastToast()).toMatchObject({ title: "Authentication failed", description: "Token mismatch", variant: "destructive" });
    expect(screen.getByRole("button", { name: "Authenticate with Wallet" })).toBeEnabled();
  });
});
