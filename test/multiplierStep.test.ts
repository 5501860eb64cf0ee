import { expect } from "chai";
import {
  balanceChangePercent,
  changeToEveryBalance,
  formatStepBound,
  parseStepBound,
  retypeReason,
  retyped,
  retypeWarning,
} from "@common/multiplierStep";
import { parseTokenAmount } from "@common/amounts";

const m = (text: string) => parseTokenAmount(text);

describe("common: one change of the reward multiplier (the oracle's tools)", () => {
  it("says how much every balance changes, with its sign and two to four decimals", () => {
    expect(balanceChangePercent(m("1"), m("1.005"))).to.equal("+0.50%");
    expect(balanceChangePercent(m("1.25"), m("1.1"))).to.equal("\u221212.00%");
    expect(balanceChangePercent(m("1"), m("1.000125"))).to.equal("+0.0125%");
    expect(balanceChangePercent(m("1.05"), m("1"))).to.equal("\u22124.762%");
    expect(balanceChangePercent(m("1"), m("12"))).to.equal("+1,100.00%");
    expect(balanceChangePercent(m("1.2"), m("1.2"))).to.equal("0.00%");
    expect(changeToEveryBalance(m("1"), m("1.005"))).to.equal("+0.50% to every balance");
  });

  it("never shows a change smaller than it is (rounded away from zero at the fourth decimal)", () => {
    expect(balanceChangePercent(m("1"), m("1.0100001"))).to.equal("+1.0001%");
    expect(balanceChangePercent(m("1"), 10n ** 18n + 1n)).to.equal("+0.0001%");
  });

  it("asks for the value again for any decrease, or a step above the bound (1% by default); not at or below it", () => {
    expect(retypeReason(m("1.5"), m("1.4999"), 100)).to.equal("decrease");
    expect(retypeReason(m("1"), m("1.01"), 100)).to.equal(null);
    expect(retypeReason(m("1"), m("1.0100001"), 100)).to.equal("above bound");
    expect(retypeReason(m("2"), m("2.02"), 100)).to.equal(null);
    expect(retypeReason(m("2"), m("2.03"), 100)).to.equal("above bound");
    expect(retypeReason(m("1"), m("1.004"), 50)).to.equal(null);
    expect(retypeReason(m("1"), m("1.006"), 50)).to.equal("above bound");
    expect(retypeReason(m("1"), m("1.0001"), 0)).to.equal("above bound");
    expect(retypeReason(m("1.3"), m("1.3"), 0)).to.equal(null);
  });

  it("explains why in one sentence", () => {
    expect(retypeWarning("decrease", m("1.25"), m("1.1"), 100)).to.equal(
      "This lowers the multiplier, so every holder's balance goes down (\u221212.00%).",
    );
    expect(retypeWarning("above bound", m("1"), m("1.1"), 100)).to.equal(
      "This raises every holder's balance by 10.00%, more than the 1% one change may move it without a second look.",
    );
  });

  it("takes the retyped value only when it matches exactly", () => {
    expect(retyped("1.1", "1.1")).to.equal(true);
    expect(retyped("1.1", " 1.1 ")).to.equal(true);
    expect(retyped("1.1", "1.10")).to.equal(false);
    expect(retyped("1.1", "")).to.equal(false);
    expect(retyped("", "")).to.equal(false);
  });

  it("reads the bound as a percentage with at most two decimals, from 0 to 1000", () => {
    expect(parseStepBound("1")).to.equal(100);
    expect(parseStepBound(" 0.5 ")).to.equal(50);
    expect(parseStepBound("2.25")).to.equal(225);
    expect(parseStepBound("0")).to.equal(0);
    expect(parseStepBound("1000")).to.equal(100_000);
    for (const bad of ["", "-1", "1%", "0.125", "1001", "abc", "1e2"]) {
      expect(() => parseStepBound(bad), bad).to.throw(/percentage from 0 to 1000 with at most two decimals/);
    }
    expect([100, 50, 225, 0, 5].map(formatStepBound)).to.deep.equal(["1%", "0.5%", "2.25%", "0%", "0.05%"]);
  });
});
