import type { ReactNode } from "react";
import { AlertTriangle, Copy } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { count, formatUsdx, plural } from "@/lib/format";
import { cn } from "@/lib/utils";
import type { Upload } from "../stores/paymentsStore";

function Figure({
  label,
  value,
  unit,
  hint,
  className,
}: {
  label: string;
  value: ReactNode;
  unit?: string;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("min-w-0 rounded-md border border-border bg-muted/30 p-4", className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 whitespace-nowrap text-xl font-semibold tabular-nums xl:text-2xl">
        {value}
        {unit && <span className="ml-1 text-sm font-medium text-muted-foreground">{unit}</span>}
      </dd>
      {hint && <dd className="mt-1 text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

/**
 * PRODUCT.md section 2's summary: the total in USDX (2 decimals, from the server's exact sum), recipients
 * valid of total, and what deserves a second look before paying: rows with errors, and addresses
 * that appear more than once.
 */
export function BatchSummary({ upload, chunkSize, children }: { upload: Upload; chunkSize: number; children?: ReactNode }) {
  const { parsed } = upload;
  const valid = parsed.validRecipients.length;
  const invalid = parsed.invalidEntries.length;
  const transactions = Math.ceil(valid / chunkSize);
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle>Summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Figure
            label="Total Amount"
            value={formatUsdx(BigInt(parsed.totalAmountRaw))}
            unit="USDX"
            hint="Sum of the valid rows"
            className="col-span-2 sm:col-span-1"
          />
          <Figure
            label="Recipients"
            value={`${count(valid)}/${count(parsed.totalRows)}`}
            hint={invalid > 0 ? `${plural(invalid, "row")} with errors` : "All rows valid"}
          />
          <Figure
            label="Transactions"
            value={count(transactions)}
            hint={transactions > 1 ? `${count(chunkSize)} recipients each, one signature for all` : "One signature, one transaction"}
          />
        </dl>
        {invalid > 0 && (
          <Alert variant="destructive">
            <AlertTriangle className="h-4 w-4" aria-hidden />
            <AlertTitle>{plural(invalid, "row")} will not be paid</AlertTitle>
            <AlertDescription>
              The reason is under each cell marked in the table. Fix the file and upload it again to include them.
            </AlertDescription>
          </Alert>
        )}
        {parsed.duplicates.length > 0 && (
          <Alert variant="info">
            <Copy className="h-4 w-4" aria-hidden />
            <AlertTitle>{plural(parsed.duplicates.length, "address", "addresses")} on more than one row</AlertTitle>
            <AlertDescription>
              Each row is paid, so these addresses receive more than once:{" "}
              {parsed.duplicates.slice(0, 3).map((d, i) => (
                <span key={d.address}>
                  {i > 0 && "; "}
                  <span className="break-all font-mono text-xs">{d.address}</span> (lines {d.lines.join(", ")})
                </span>
              ))}
              {parsed.duplicates.length > 3 && ` and ${count(parsed.duplicates.length - 3)} more`}.
            </AlertDescription>
          </Alert>
        )}
        {children}
      </CardContent>
    </Card>
  );
}
