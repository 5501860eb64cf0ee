import { useId, useState, type DragEvent } from "react";
import { FileSpreadsheet, Upload } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { count } from "@/lib/format";
import { ACCEPTED_EXTENSION } from "../hooks/useCsvUpload";

/** PRODUCT.md section 2's click-to-upload zone for .csv files; a file can also be dropped on it. */
export function UploadZone({
  onFile,
  parsing,
  disabled,
  maxRows,
}: {
  onFile: (file: File) => void;
  parsing: boolean;
  disabled?: boolean;
  maxRows: number;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  const off = disabled || parsing;

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    if (off) return;
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  }

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!off) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={cn(
        "relative rounded-lg border-2 border-dashed border-input bg-muted/30 transition-colors focus-within:border-primary focus-within:ring-2 focus-within:ring-ring",
        over && "border-primary bg-accent/40",
        off ? "opacity-60" : "hover:border-primary/60 hover:bg-accent/20",
      )}
    >
      <input
        id={id}
        type="file"
        accept={`${ACCEPTED_EXTENSION},text/csv`}
        aria-label="Upload CSV file"
        className="sr-only"
        disabled={off}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared so choosing the same file again (after fixing it) is a change too.
          e.target.value = "";
          if (file) onFile(file);
        }}
      />
      <label
        htmlFor={id}
        className={cn("flex flex-col items-center gap-2 px-4 py-8 text-center", off ? "cursor-not-allowed" : "cursor-pointer")}
      >
        {parsing ? (
          <Spinner className="h-8 w-8" label="Reading the CSV file" />
        ) : (
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            {over ? <FileSpreadsheet className="h-6 w-6" aria-hidden /> : <Upload className="h-6 w-6" aria-hidden />}
          </span>
        )}
        <span className="text-sm font-medium">
          {parsing ? "Checking the recipients..." : "Click to upload a CSV file, or drag and drop it here"}
        </span>
        <span className="text-xs text-muted-foreground">
          Columns Name, Address, Amount · each row its own amount · up to {count(maxRows)} rows
        </span>
      </label>
    </div>
  );
}
