import { useRef, useState, type ChangeEvent } from "react";
import { Loader2, Upload } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { serverProblem, useImportContacts, type ImportResult } from "../api/contacts";
import { contactsAdded } from "../contactsAdded";
import { ImportResultDialog } from "./ImportResultDialog";

/** The file's text (FileReader: Blob.text() is missing from older browsers and jsdom). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error ?? new Error("Failed to read the file"));
    reader.readAsText(file);
  });
}

/** Import: pick a .csv (Name, Address, optional Notes), POST it, then show what was added and skipped. */
export function ImportButton() {
  const input = useRef<HTMLInputElement>(null);
  const importCsv = useImportContacts();
  const [outcome, setOutcome] = useState<{ result: ImportResult; fileName: string } | null>(null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared at once, so picking the same file again (after fixing it) fires again.
    event.target.value = "";
    if (!file) return;
    if (!file.name.toLowerCase().endsWith(".csv")) {
      toast({ title: "Invalid file type", description: "Please choose a .csv file", variant: "destructive" });
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      toast({ title: "Error reading file", description: "Failed to read the uploaded file", variant: "destructive" });
      return;
    }
    try {
      const result = await importCsv.mutateAsync(text);
      setOutcome({ result, fileName: file.name });
      if (result.imported > 0) toast({ title: "Contacts updated", description: contactsAdded(result.imported) });
      else toast({ title: "No contacts added", description: "Every line was skipped: see the reasons", variant: "destructive" });
    } catch (error) {
      // A file the server cannot read as a whole (no header, a missing column, too many rows).
      toast({ ...serverProblem(error, "Import failed"), variant: "destructive" });
    }
  };

  const busy = importCsv.isPending;
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        className="hidden"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => void pick(e)}
        data-testid="contacts-import-file"
      />
      <Button type="button" variant="outline" onClick={() => input.current?.click()} disabled={busy}>
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Upload className="h-4 w-4" aria-hidden />}
        {busy ? "Importing..." : "Import"}
      </Button>
      <ImportResultDialog result={outcome?.result ?? null} fileName={outcome?.fileName ?? ""} onClose={() => setOutcome(null)} />
    </>
  );
}
