import { useId, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { plural } from "@/lib/format";
import type { RecipientField } from "../api/types";
import type { RecipientRow } from "../stores/paymentsStore";
import { VirtualTable, type Column } from "./VirtualTable";

const GRID = "minmax(112px,0.5fr) minmax(150px,1fr) minmax(370px,1.7fr) minmax(130px,0.7fr)";
const MIN_WIDTH = 780;

/** A cell's value, and the parser's reason under it when that cell is what is wrong. */
function Cell({ row, field, mono }: { row: RecipientRow; field: Exclude<RecipientField, "row">; mono?: boolean }) {
  const value = row[field];
  const problem = row.problems[field];
  return (
    <>
      <span className={mono ? "truncate font-mono text-xs" : "truncate"} title={value || undefined}>
        {value || <span className="text-muted-foreground">empty</span>}
      </span>
      {problem && (
        <span className="truncate text-xs font-medium text-destructive" title={problem.detail}>
          {problem.reason}
        </span>
      )}
    </>
  );
}

const columns: Column<RecipientRow>[] = [
  {
    header: "Status",
    cell: (row) => (
      <span className="flex flex-wrap items-center gap-1">
        {row.valid ? <Badge variant="success">Valid</Badge> : <Badge variant="destructive">Error</Badge>}
        {row.duplicate && (
          <Badge variant="outline" title="This address is on more than one row: it is paid once per row">
            Duplicate
          </Badge>
        )}
      </span>
    ),
  },
  {
    header: "Name",
    cell: (row) =>
      row.problems.row ? (
        <>
          <span className="truncate text-xs text-muted-foreground" title={row.problems.row.detail}>
            Line {row.line}: {row.problems.row.detail}
          </span>
          <span className="truncate text-xs font-medium text-destructive">{row.problems.row.reason}</span>
        </>
      ) : (
        <Cell row={row} field="name" />
      ),
  },
  { header: "Address", cell: (row) => <Cell row={row} field="address" mono /> },
  { header: "Amount", align: "end", cell: (row) => <Cell row={row} field="amount" /> },
];

/** PRODUCT.md section 2's recipients table: Status, Name, Address, Amount; invalid rows highlighted. */
export function RecipientsTable({ rows }: { rows: RecipientRow[] }) {
  const filterId = useId();
  const [errorsOnly, setErrorsOnly] = useState(false);
  const invalid = useMemo(() => rows.filter((r) => !r.valid), [rows]);
  const shown = errorsOnly ? invalid : rows;
  return (
    <div className="space-y-3">
      {invalid.length > 0 && (
        <div className="flex items-center gap-2">
          <Checkbox id={filterId} checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} />
          <Label htmlFor={filterId} className="cursor-pointer font-normal">
            Show only the {plural(invalid.length, "row")} with errors
          </Label>
        </div>
      )}
      <VirtualTable
        label="Recipients"
        rows={shown}
        columns={columns}
        gridTemplate={GRID}
        minWidth={MIN_WIDTH}
        rowKey={(row) => row.line}
        rowClassName={(row) =>
          row.valid ? undefined : "bg-destructive/5 hover:bg-destructive/10 shadow-[inset_3px_0_0_var(--color-destructive)]"
        }
      />
    </div>
  );
}
