import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { serverProblem, useDeleteContact, type Contact } from "../api/contacts";

/** Asks before a contact is deleted (there is no undo), then DELETEs it: 'Contact deleted'. */
export function DeleteContactDialog({ contact, onClose }: { contact: Contact | null; onClose(): void }) {
  const remove = useDeleteContact();
  const busy = remove.isPending;

  const confirm = async () => {
    if (!contact || busy) return;
    try {
      await remove.mutateAsync(contact.id);
      toast({ title: "Contact deleted", description: `${contact.name} was removed from your contacts` });
    } catch (error) {
      toast({ ...serverProblem(error, "Delete failed"), variant: "destructive" });
    }
    onClose();
  };

  return (
    <Dialog open={contact !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete contact?</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">
            <span className="font-medium text-foreground">{contact?.name}</span> (
            <span className="font-mono text-xs">{contact?.address}</span>) will be removed from your contacts. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" onClick={() => void confirm()} disabled={busy}>
            {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
            {busy ? "Deleting..." : "Delete"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
