/** The alert matcher's rule for the reward multiplier, alone: which changes a rule's step lets through. */
import { expect } from "chai";
import { matches } from "../src/services/alerts/matcher";

const ONE = 10n ** 18n;
const event = (value: bigint) => ({ eventName: "RewardMultiplier", args: { value: value.toString() } });
const m = (thousandths: bigint) => (ONE * thousandths) / 1000n;

describe("Operators' alerts: a multiplier rule's step", () => {
  it("with a step percentage, alerts on a change of more than that share of every balance, up or down, and not on a smaller one", () => {
    const rule = { kind: "multiplier", threshold: null, stepPercent: 100 }; // 1%
    expect(matches(rule, event(m(1015n)), m(1000n)), "+1.5%").to.equal(true);
    expect(matches(rule, event(m(1010n)), m(1000n)), "+1.0%: not more than 1%").to.equal(false);
    expect(matches(rule, event(m(1005n)), m(1000n)), "+0.5%").to.equal(false);
    expect(matches(rule, event(m(1960n)), m(2000n)), "-2%").to.equal(true);
    expect(matches(rule, event(m(1990n)), m(2000n)), "-0.5%").to.equal(false);
    // The same 0.015 step is 1.5% of a multiplier of 1.0 but 0.75% of one of 2.0.
    expect(matches(rule, event(m(2015n)), m(2000n)), "+0.75%").to.equal(false);
  });

  it("without one, alerts on every change, or on one of more than the absolute threshold", () => {
    expect(matches({ kind: "multiplier", threshold: null, stepPercent: null }, event(m(1001n)), m(1000n))).to.equal(true);
    const step = { kind: "multiplier", threshold: (ONE / 100n).toString(), stepPercent: null };
    expect(matches(step, event(m(1011n)), m(1000n))).to.equal(true);
    expect(matches(step, event(m(1009n)), m(1000n))).to.equal(false);
  });
});
