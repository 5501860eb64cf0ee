/** What the security review's test files (security.*.test.ts) share. */
import { expect } from "chai";
import type { LooseJson } from "./helpers";

/** Every refusal is the API's JSON error, never a page or an empty body, and hands out nothing. */
export function expectRefusal(
  answer: { status: number; body: LooseJson; headers: Headers },
  status: number,
  error?: RegExp | string,
): void {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
  expect(answer.headers.get("content-type")).to.match(/^application\/json/);
  expect(answer.body.success).to.equal(false);
  expect(answer.body.error).to.be.a("string").and.not.equal("");
  expect(answer.body).not.to.have.property("customToken");
  if (typeof error === "string") expect(answer.body.error).to.equal(error);
  else if (error) expect(answer.body.error).to.match(error);
}
