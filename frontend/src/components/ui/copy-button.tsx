import { useEffect, useState } from "react";
import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { copyText, COPIED_MS } from "@/lib/clipboard";
import { cn } from "@/lib/utils";

/** A copy button that says 'Copied' for 2 s (PRODUCT.md section 4) and raises 'Copied to Clipboard'. */
export function CopyButton({
  value,
  label = "Copy",
  toastTitle = "Copied to Clipboard",
  className,
}: {
  value: string;
  label?: string;
  toastTitle?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className={cn("h-7 gap-1 px-2 text-xs", className)}
      aria-label={copied ? "Copied" : `${label} ${value}`}
      onClick={async () => {
        if (await copyText(value)) {
          setCopied(true);
          toast({ title: toastTitle, description: value });
        }
      }}
    >
      {copied ? <Check className="h-3.5 w-3.5 text-success" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
      {copied ? "Copied" : label}
    </Button>
  );
}
