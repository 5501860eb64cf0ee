import { useState } from "react";
import { Download, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { serverProblem } from "../api/contacts";
import { saveTextFile } from "@/lib/download";
import { fetchContactsCsv } from "../api/export";

/** Export: every contact as the server's CSV (Name, Address, Notes), saved under the server's file name. */
export function ExportButton() {
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      const { text, fileName } = await fetchContactsCsv();
      saveTextFile(text, fileName, "text/csv;charset=utf-8");
    } catch (error) {
      toast({ ...serverProblem(error, "Export failed"), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="outline" onClick={() => void exportCsv()} disabled={busy}>
      {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Download className="h-4 w-4" aria-hidden />}
      Export
    </Button>
  );
}
