import type { DashboardConfig } from "@common/apiTypes";
import { LOCAL_CHAIN, describeChain } from "@common/networks";

/**
 * The API server as the scenario's user part talks to it: over HTTP, as the dashboard does, so the
 * server checks everything it would check for a person. Sign-in is the Auth emulator's REST API
 * (what the Firebase web SDK calls), at the address GET /api/config gives the dashboard.
 */

/** Where the API server is: its base URL ("http://127.0.0.1:3001"). */
export interface UserApi {
  url: string;
}

/** An API refusal, in the API's own sentence and the step it stopped. */
export class UserPartRefused extends Error {}

export class ApiClient {
  private constructor(
    private readonly url: string,
    readonly config: DashboardConfig,
  ) {}

  /** Reads GET /api/config and refuses, before anything else, a server that is not on the local chain or signs in with a real Firebase project. */
  static async open(api: UserApi): Promise<ApiClient> {
    const config = await send<DashboardConfig>(api.url, "GET", "/api/config", "read the server's settings");
    if (config.chainId !== LOCAL_CHAIN.chainId)
      throw new UserPartRefused(
        `The scenario's Firebase test user is for the local chain only: the API server at ${api.url} is on ${describeChain(config.chainId)}. Nothing was sent.`,
      );
    if (!config.firebase.emulatorUrl)
      throw new UserPartRefused(
        `The scenario's Firebase test user is made in the Auth emulator, and the API server at ${api.url} signs in with a real Firebase project (${config.firebase.projectId}). Nothing was sent.`,
      );
    return new ApiClient(api.url, config);
  }

  /** A call as `token`'s user; a refusal throws its sentence, with `what` was being done. */
  call<T>(what: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
    return send<T>(this.url, method, path, what, token, body);
  }

  /**
   * Signs in with email and password at the emulator; a user it does not have is created first when
   * `create` (else null). A wrong password is refused: the scenario names another password.
   */
  async signIn(email: string, password: string, create: boolean): Promise<{ idToken: string; uid: string } | null> {
    const identity = async (path: string) => {
      const res = await fetch(
        `${this.config.firebase.emulatorUrl}/identitytoolkit.googleapis.com/v1/${path}?key=${this.config.firebase.apiKey}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        },
      ).catch((error: unknown) => {
        throw new UserPartRefused(
          `The Auth emulator at ${this.config.firebase.emulatorUrl} does not answer (${(error as Error).message}).`,
        );
      });
      return { ok: res.ok, body: (await res.json()) as { idToken?: string; localId?: string; error?: { message?: string } } };
    };
    const signedIn = await identity("accounts:signInWithPassword");
    if (signedIn.ok) return { idToken: signedIn.body.idToken!, uid: signedIn.body.localId! };
    const reason = signedIn.body.error?.message ?? "";
    if (/INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS/.test(reason))
      throw new UserPartRefused(
        `The Firebase user ${email} already exists with another password than the scenario's: change the scenario's password, or delete the user in the Auth emulator.`,
      );
    if (!/EMAIL_NOT_FOUND/.test(reason)) throw new UserPartRefused(`The Auth emulator refused to sign in ${email}: ${reason}.`);
    if (!create) return null;
    const made = await identity("accounts:signUp");
    if (!made.ok)
      throw new UserPartRefused(`The Auth emulator refused to create ${email}: ${made.body.error?.message ?? "no reason given"}.`);
    // A new user signs in again for the token used from here on: the emulator can stamp the sign-up's
    // own token a moment before the user's validSince, which the server then refuses as revoked.
    const again = await identity("accounts:signInWithPassword");
    if (!again.ok)
      throw new UserPartRefused(`The Auth emulator refused to sign in ${email}: ${again.body.error?.message ?? "no reason given"}.`);
    return { idToken: again.body.idToken!, uid: again.body.localId! };
  }
}

async function send<T>(base: string, method: string, path: string, what: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new UserPartRefused(`Could not ${what}: the API server at ${base} does not answer (${(error as Error).message}).`);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: the status says it */
  }
  if (!res.ok) {
    const sentence = (json as { error?: unknown } | null)?.error;
    throw new UserPartRefused(
      `Could not ${what}: the API answered ${res.status}, ${typeof sentence === "string" ? sentence : text.slice(0, 200)}`,
    );
  }
  return json as T;
}
