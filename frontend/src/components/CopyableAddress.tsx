import { toast } from "@/components/ui/toast";
import { copyText } from "@/lib/clipboard";
import { shortAddress } from "@/lib/format";

/** An address that copies itself when clicked (spec: toast 'Address copied'); shortened on phones. */
export function CopyableAddress({ address }: { address: string }) {
  return (
    <button
      type="button"
      title="Click to copy"
      aria-label={`Copy address ${address}`}
      className="cursor-pointer rounded-sm font-mono text-xs text-foreground underline-offset-4 hover:text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      onClick={async () => {
        if (await copyText(address)) toast({ title: "Address copied", description: address });
      }}
    >
      <span className="hidden lg:inline">{address}</span>
      <span className="lg:hidden">{shortAddress(address)}</span>
    </button>
  );
}
