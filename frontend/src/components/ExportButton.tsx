import { useState } from "react";
import { Download, Loader2 } from "lucide-react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { apiFile, errorSentence } from "@/lib/api";
import { saveTextFile } from "@/lib/download";

/**
 * Downloads a CSV export of the API: `run(path, fallbackName)` fetches it (signed in), saves it
 * under the server's file name, and on failure shows 'Export failed' with the server's sentence.
 * It resolves to whether the file was saved.
 */
export function useCsvExport(): { busy: boolean; run(path: string, fallbackName: string): Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const run = async (path: string, fallbackName: string) => {
    setBusy(true);
    try {
      const { text, fileName } = await apiFile(path, fallbackName);
      saveTextFile(text, fileName, "text/csv;charset=utf-8");
      return true;
    } catch (error) {
      toast({ title: "Export failed", description: errorSentence(error, "Unknown error"), variant: "destructive" });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** The one export button: 'Export CSV' (or `label`) that downloads `path`'s CSV, busy while it loads. */
export function ExportButton({
  path,
  fallbackName,
  label = "Export CSV",
  disabled,
  size,
  className,
}: {
  /** The export's URL (endpointUrl of a declared export). */
  path: string;
  /** The file's name if the server gives none. */
  fallbackName: string;
  label?: string;
  disabled?: boolean;
  size?: ButtonProps["size"];
  className?: string;
}) {
  const { busy, run } = useCsvExport();
  return (
    <Button
      type="button"
      variant="outline"
      size={size}
      className={className}
      onClick={() => void run(path, fallbackName)}
      disabled={busy || disabled}
    >
      <ExportIcon busy={busy} />
      {label}
    </Button>
  );
}

/** The download icon, a spinner while the file loads. */
export function ExportIcon({ busy }: { busy: boolean }) {
  return busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Download className="h-4 w-4" aria-hidden />;
}
