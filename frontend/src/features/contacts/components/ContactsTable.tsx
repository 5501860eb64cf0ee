import { Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { relativeTime } from "@/lib/format";
import { cn } from "@/lib/utils";
import type { Contact } from "../api/contacts";
import { useNow } from "@/lib/useNow";
import { CopyableAddress } from "@/components/CopyableAddress";

// On phones the table scrolls sideways; edit and delete stay in view at its right edge.
const stickyEnd = "max-md:sticky max-md:right-0 max-md:bg-card max-md:shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.2)]";

interface ContactsTableProps {
  contacts: Contact[];
  onEdit(contact: Contact): void;
  onDelete(contact: Contact): void;
}

/** Name, Address (click to copy), Notes, Date Added, and edit and delete for each contact. */
export function ContactsTable({ contacts, onEdit, onDelete }: ContactsTableProps) {
  const now = useNow();
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Address</TableHead>
          <TableHead>Notes</TableHead>
          <TableHead>Date Added</TableHead>
          <TableHead className={cn("text-right", stickyEnd)}>Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {contacts.map((contact) => {
          const added = Date.parse(contact.createdAt);
          return (
            <TableRow key={contact.id}>
              <TableCell className="font-medium">
                <span className="block max-w-28 truncate sm:max-w-48" title={contact.name}>
                  {contact.name}
                </span>
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <CopyableAddress address={contact.address} />
              </TableCell>
              <TableCell className="text-muted-foreground">
                {contact.notes ? (
                  <span className="block max-w-64 truncate" title={contact.notes}>
                    {contact.notes}
                  </span>
                ) : (
                  <span aria-label="No notes">—</span>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                <time dateTime={contact.createdAt} title={new Date(added).toLocaleString()}>
                  {relativeTime(added / 1000, now)}
                </time>
              </TableCell>
              <TableCell className={cn("whitespace-nowrap text-right", stickyEnd)}>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="h-8 w-8"
                  aria-label={`Edit ${contact.name}`}
                  title="Edit"
                  onClick={() => onEdit(contact)}
                >
                  <Pencil className="h-4 w-4" aria-hidden />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="h-8 w-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                  aria-label={`Delete ${contact.name}`}
                  title="Delete"
                  onClick={() => onDelete(contact)}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
