import { CheckCircle2, AlertTriangle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { count, plural } from "@/lib/format";
import type { ImportResult } from "../api/contacts";
import { contactsAdded } from "../contactsAdded";

/** What an import did: how many contacts were added, and each skipped line with the server's reason. */
/** Enough skipped lines to fix a file by; a 10,000-line file of mistakes stays a light dialog. */
const SKIPPED_SHOWN = 500;

export function ImportResultDialog({ result, fileName, onClose }: { result: ImportResult | null; fileName: string; onClose(): void }) {
  const skipped = result?.skipped ?? [];
  return (
    <Dialog open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Import results</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">From {fileName}</DialogDescription>
        </DialogHeader>
        {result && (
          <div className="grid gap-4">
            <div className="grid gap-2 sm:grid-cols-2">
              <p className="flex items-center gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm font-medium">
                <CheckCircle2 className="h-4 w-4 shrink-0 text-success" aria-hidden />
                {contactsAdded(result.imported)}
              </p>
              <p className="flex items-center gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm font-medium">
                <AlertTriangle
                  className={skipped.length ? "h-4 w-4 shrink-0 text-amber-500" : "h-4 w-4 shrink-0 text-muted-foreground"}
                  aria-hidden
                />
                {plural(skipped.length, "line")} skipped
              </p>
            </div>
            {skipped.length > 0 && (
              <div className="max-h-72 overflow-y-auto rounded-md border border-border">
                <Table aria-label="Skipped lines">
                  <TableHeader>
                    <TableRow>
                      <TableHead className="w-16">Line</TableHead>
                      <TableHead>Reason</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {skipped.slice(0, SKIPPED_SHOWN).map((row) => (
                      <TableRow key={`${row.line}-${row.reason}`}>
                        <TableCell className="align-top tabular-nums">{row.line}</TableCell>
                        <TableCell className="text-destructive [overflow-wrap:anywhere]">{row.reason}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {skipped.length > SKIPPED_SHOWN && (
                  <p className="border-t border-border p-3 text-sm text-muted-foreground">
                    Showing the first {SKIPPED_SHOWN} of {count(skipped.length)} skipped lines.
                  </p>
                )}
              </div>
            )}
          </div>
        )}
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
