/** A plain fixed-width table: what a terminal shows best (the scripts', the benches' and a scenario's printouts). */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Label and value, one pair a line, the labels padded to one width: a table without headers. */
export function formatFacts(rows: [string, string][]): string {
  return formatTable(["", ""], rows).split("\n").slice(2).join("\n");
}
