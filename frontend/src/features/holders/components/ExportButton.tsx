import { useState } from "react";
import { Download, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { saveTextFile } from "@/lib/download";
import { fetchHoldersCsv, type HolderView } from "../api/holders";

/** 'Export CSV': every holder the search matches, in the table's order, saved under the server's file name (usdx_holders.csv). */
export function ExportButton({ view, disabled }: { view: Pick<HolderView, "sort" | "order" | "search">; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      const { text, fileName } = await fetchHoldersCsv(view);
      saveTextFile(text, fileName, "text/csv;charset=utf-8");
    } catch (error) {
      const message = error instanceof Error ? error.message.replace(/^\d{3}: /, "") : String(error);
      toast({ title: "Export failed", description: message || "Unknown error", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="outline" onClick={() => void exportCsv()} disabled={busy || disabled}>
      {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Download className="h-4 w-4" aria-hidden />}
      Export CSV
    </Button>
  );
}
