import { useState } from "react";
import { Check, Copy, KeyRound } from "lucide-react";
import { ALERT_HEADERS } from "@common/alerts";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { copyText } from "@/lib/clipboard";

/**
 * A rule's signing secret, the one time the server shows it (on creation and rotation): copied to
 * the receiver now, or rotated later. The toast says it was copied without repeating it.
 */
export function SecretDialog({ secret, onClose }: { secret: { ruleId: number; value: string } | null; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <KeyRound className="h-5 w-5" aria-hidden /> Rule #{secret?.ruleId}'s signing secret
          </DialogTitle>
          <DialogDescription>
            Receivers check each delivery's {ALERT_HEADERS.signature} header, the HMAC-SHA256 of the body, with this secret. It is shown
            only now: copy it to the receiver. If it is lost, rotate it.
          </DialogDescription>
        </DialogHeader>
        <code
          aria-label="Signing secret"
          className="block select-all break-all rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm"
        >
          {secret?.value}
        </code>
        <DialogFooter>
          <Button
            type="button"
            variant="outline"
            onClick={async () => {
              if (secret && (await copyText(secret.value))) {
                setCopied(true);
                toast({ title: "Secret copied", description: `Rule #${secret.ruleId}'s signing secret is on the clipboard.` });
              }
            }}
          >
            {copied ? <Check className="h-4 w-4 text-success" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
            {copied ? "Copied" : "Copy Secret"}
          </Button>
          <Button type="button" onClick={close}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
