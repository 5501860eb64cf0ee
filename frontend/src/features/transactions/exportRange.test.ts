import { describe, expect, it } from "vitest";
import { eventsExportUrl } from "./api/events";
import { historyExportUrl } from "./api/history";
import { checkExportRange, EMPTY_EXPORT_DRAFT } from "./exportRange";

const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("the transactions' CSV exports", () => {
  it("exports all, a block range or a date range, each end optional", () => {
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, fromBlock: "junk" })).toEqual({ ok: true, range: {} });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "blocks", fromBlock: " 7 ", toBlock: "9" })).toEqual({
      ok: true,
      range: { fromBlock: 7, toBlock: 9 },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "blocks", toBlock: "9" })).toEqual({
      ok: true,
      range: { fromBlock: undefined, toBlock: 9 },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "dates", fromDate: "2024-02-29", toDate: "2024-02-29" })).toEqual({
      ok: true,
      range: { fromDate: "2024-02-29", toDate: "2024-02-29" },
    });
  });

  it("says what is wrong with a range, under the field it concerns", () => {
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "blocks" })).toEqual({
      ok: false,
      problems: { from: "Give a From Block, a To Block or both." },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "blocks", fromBlock: "12.5", toBlock: "-1" })).toEqual({
      ok: false,
      problems: {
        from: "From Block must be a whole number (digits only, like 1200).",
        to: "To Block must be a whole number (digits only, like 1200).",
      },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "blocks", fromBlock: "10", toBlock: "9" })).toEqual({
      ok: false,
      problems: { from: "From Block (10) must not be after To Block (9)." },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "dates", fromDate: "2025-02-29" })).toEqual({
      ok: false,
      problems: { from: "From Date must be a date (YYYY-MM-DD)." },
    });
    expect(checkExportRange({ ...EMPTY_EXPORT_DRAFT, scope: "dates", fromDate: "2026-02-01", toDate: "2026-01-31" })).toEqual({
      ok: false,
      problems: { from: "From Date (2026-02-01) must not be after To Date (2026-01-31)." },
    });
  });

  it("builds the exports' URLs: the account's range, and the events filter applied without paging", () => {
    expect(historyExportUrl(A, {})).toBe(`/api/accounts/${A}/history/export`);
    expect(historyExportUrl(A, { fromDate: "2026-01-01", toDate: undefined })).toBe(
      `/api/accounts/${A}/history/export?fromDate=2026-01-01`,
    );
    expect(eventsExportUrl({ label: "RewardMultiplierUpdated", fromBlock: 3 })).toBe(
      "/api/events/export?fromBlock=3&eventName=RewardMultiplier",
    );
    expect(eventsExportUrl({ label: "All Events" })).toBe("/api/events/export");
  });
});
