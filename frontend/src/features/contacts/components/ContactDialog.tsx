import { useState, type FormEvent } from "react";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { checkAddress, type Problem } from "@/lib/validation";
import { cn } from "@/lib/utils";
import { serverProblem, useAddContact, useUpdateContact, type Contact, type ContactFields } from "../api/contacts";
import { FieldError } from "@/components/ui/field-error";

type Field = "name" | "address" | "notes";

/** What is wrong: the fields to mark, and the sentence shown under the first of them (or the form). */
interface FormProblem {
  fields: Field[];
  text: string;
}

/** The field a server sentence is about, from its title ('Duplicate address', 'Name too long'...). */
function fieldOf(title: string): Field[] {
  if (/missing information/i.test(title)) return ["name", "address"];
  if (/address/i.test(title)) return ["address"];
  if (/notes/i.test(title)) return ["notes"];
  if (/name/i.test(title)) return ["name"];
  return [];
}

interface ContactDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The contact to edit; null adds a new one. */
  contact: Contact | null;
}

/** 'Add Contact' (PRODUCT.md section 5's checks, then POST) and its twin for editing (PATCH). */
export function ContactDialog({ open, onOpenChange, contact }: ContactDialogProps) {
  const add = useAddContact();
  const update = useUpdateContact();
  const busy = add.isPending || update.isPending;
  return (
    // While the server answers the dialog stays open, so a refusal lands beside the values typed.
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{contact ? "Edit Contact" : "Add Contact"}</DialogTitle>
          <DialogDescription>
            {contact ? "Change the name, address or notes of this contact." : "Save an address you send USDX to often."}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: each opening starts from the contact (or blank), not from last time's typing. */}
        <ContactForm
          contact={contact}
          busy={busy}
          onCancel={() => onOpenChange(false)}
          onSave={async (fields) => {
            if (contact) {
              const saved = await update.mutateAsync({ id: contact.id, fields });
              toast({ title: "Contact updated", description: `${saved.name}'s details were saved` });
            } else {
              const saved = await add.mutateAsync(fields);
              toast({ title: "Contact added", description: `${saved.name} was added to your contacts` });
            }
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function ContactForm({
  contact,
  busy,
  onCancel,
  onSave,
}: {
  contact: Contact | null;
  busy: boolean;
  onCancel(): void;
  onSave(fields: ContactFields): Promise<void>;
}) {
  const [name, setName] = useState(contact?.name ?? "");
  const [address, setAddress] = useState(contact?.address ?? "");
  const [notes, setNotes] = useState(contact?.notes ?? "");
  const [problem, setProblem] = useState<FormProblem | null>(null);

  const reject = (fields: Field[], p: Problem) => {
    setProblem({ fields, text: p.description });
    toast({ title: p.title, description: p.description, variant: "destructive" });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const missing = (["name", "address"] as const).filter((field) => !(field === "name" ? name : address).trim());
    if (missing.length > 0) return reject(missing, { title: "Missing information", description: "Please provide both name and address" });
    const checked = checkAddress(address);
    if (!checked.ok) return reject(["address"], checked.problem);
    setProblem(null);
    try {
      await onSave({ name: name.trim(), address: checked.value, notes: notes.trim() });
    } catch (error) {
      // The server's own check (a duplicate, a name too long): its sentence, and the values stay.
      const p = serverProblem(error, contact ? "Update failed" : "Could not add contact");
      reject(fieldOf(p.title), p);
    }
  };

  const invalid = (field: Field) => problem?.fields.includes(field) ?? false;
  // The sentence goes under the first field it concerns, or under the form when it concerns none.
  const messageAt: Field | "form" | null = problem ? (problem.fields[0] ?? "form") : null;
  const errorId = "contact-form-error";
  const fieldProps = (field: Field) => ({
    "aria-invalid": invalid(field) || undefined,
    "aria-describedby": invalid(field) ? errorId : undefined,
    className: cn(invalid(field) && "border-destructive focus-visible:ring-destructive"),
  });
  const message = (at: Field | "form") => messageAt === at && <FieldError id={errorId}>{problem!.text}</FieldError>;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy} className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="contact-name">Name</Label>
        <Input
          id="contact-name"
          autoComplete="off"
          placeholder="e.g. Treasury desk"
          value={name}
          onChange={(e) => setName(e.target.value)}
          {...fieldProps("name")}
        />
        {message("name")}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="contact-address">Address</Label>
        <Input
          id="contact-address"
          autoComplete="off"
          spellCheck={false}
          placeholder="0x..."
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          {...fieldProps("address")}
          className={cn("font-mono", fieldProps("address").className)}
        />
        {message("address")}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="contact-notes">
          Notes <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Textarea
          id="contact-notes"
          rows={3}
          placeholder="What this address is for"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          {...fieldProps("notes")}
        />
        {message("notes")}
      </div>
      {message("form")}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          {busy ? "Saving..." : contact ? "Save Changes" : "Add Contact"}
        </Button>
      </DialogFooter>
    </form>
  );
}
