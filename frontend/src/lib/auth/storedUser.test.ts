import { afterEach, describe, expect, it } from "vitest";
import { storedUser, storedUserKey } from "./storedUser";

const API_KEY = "demo-api-key";

/** A JWT as Firebase stores it: only its payload is read. */
const token = (claims: Record<string, unknown>) =>
  `header.${btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.signature`;

/** Firebase's record of a signed-in user, as browserLocalPersistence keeps it. */
const keep = (record: unknown) => localStorage.setItem(storedUserKey(API_KEY), JSON.stringify(record));

afterEach(() => localStorage.clear());

describe("the user Firebase kept in this browser", () => {
  it("is the session Firebase will confirm: its id and email, and the server's claims in its ID token", async () => {
    const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    keep({ uid: "wallet:0x7099", email: null, stsTokenManager: { accessToken: token({ wallet, admin: true }) } });
    expect(await storedUser(API_KEY)).toEqual({ uid: "wallet:0x7099", email: null, wallet, admin: true });
    keep({ uid: "u1", email: "ann@example.com", stsTokenManager: { accessToken: token({}) } });
    expect(await storedUser(API_KEY)).toEqual({ uid: "u1", email: "ann@example.com", wallet: null, admin: false });
  });

  it("is nobody when there is none (the test DOM has no IndexedDB either), it is another app's, or it cannot be read", async () => {
    expect(await storedUser(API_KEY)).toBeNull();
    localStorage.setItem(storedUserKey("other-key"), JSON.stringify({ uid: "u1", stsTokenManager: { accessToken: token({}) } }));
    expect(await storedUser(API_KEY)).toBeNull();
    for (const record of [{ uid: "u1" }, { uid: "u1", stsTokenManager: { accessToken: "not-a-token" } }, { email: "a@b.c" }, "{"]) {
      localStorage.setItem(storedUserKey(API_KEY), typeof record === "string" ? record : JSON.stringify(record));
      expect(await storedUser(API_KEY)).toBeNull();
    }
  });
});
