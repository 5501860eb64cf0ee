import { describe, expect, it } from "vitest";
import { SiweMessage } from "siwe";
import { siweMessage, utf8ToHex } from "./siwe";

describe("the sign-in message", () => {
  it("is an EIP-4361 message the server's parser reads back field by field", () => {
    const text = siweMessage({
      domain: "127.0.0.1:5173",
      address: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
      uri: "http://127.0.0.1:5173",
      chainId: 31337,
      nonce: "0123456789abcdef0123456789abcdef",
      issuedAt: new Date("2026-11-21T10:00:00.000Z"),
      expiresAt: new Date("2026-11-21T10:05:00.000Z"),
    });
    const parsed = new SiweMessage(text);
    expect(parsed.domain).toBe("127.0.0.1:5173");
    expect(parsed.address).toBe("0x14dC79964da2C08b23698B3D3cc7Ca32193d9955");
    expect(parsed.chainId).toBe(31337);
    expect(parsed.nonce).toBe("0123456789abcdef0123456789abcdef");
    expect(parsed.expirationTime).toBe("2026-11-21T10:05:00.000Z");
    expect(parsed.uri).toBe("http://127.0.0.1:5173");
  });

  it("is signed as the hex of its UTF-8 bytes", () => {
    expect(utf8ToHex("hé")).toBe("0x68c3a9");
  });
});
