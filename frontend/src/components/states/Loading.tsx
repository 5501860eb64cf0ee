import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";

/** Something still loading: the spinner (role status, named by `label`) and '{label}...'. */
export function Loading({ label, className }: { label: string; className?: string }) {
  return (
    <div className={cn("flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground", className)}>
      <Spinner label={label} /> {label}...
    </div>
  );
}
