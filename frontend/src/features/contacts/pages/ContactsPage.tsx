import { useState } from "react";
import { BookUser, Plus, Search, SearchX } from "lucide-react";
import { EmptyState, LoadFailed, ReadStates } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useContacts, type Contact } from "../api/contacts";
import { ContactDialog } from "../components/ContactDialog";
import { ContactsTable } from "../components/ContactsTable";
import { DeleteContactDialog } from "../components/DeleteContactDialog";
import { ExportButton } from "@/components/ExportButton";
import { endpointUrl } from "@/lib/api";
import { count, plural } from "@/lib/format";
import { ImportButton } from "../components/ImportButton";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "@/lib/useDebouncedValue";

const LOAD_FAILED = "Failed to load contacts";

/** The add/edit dialog: closed, adding, or editing one contact. */
type Editing = { contact: Contact | null } | null;

/** /contacts: the signed-in user's address book, kept by the server (PRODUCT.md section 2, Contacts). */
export default function ContactsPage() {
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const contacts = useContacts(query);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);

  const rows = contacts.data?.pages.flatMap((page) => page.contacts) ?? [];
  const total = contacts.data?.pages[0]?.total ?? 0;
  // The previous search's results still show while the new one loads.
  const searching = contacts.isPlaceholderData;

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold tracking-tight">Contacts</h1>
          <p className="text-sm text-muted-foreground">Your address book of frequently used addresses.</p>
        </div>
        {/* Small on phones, so the three fit on one row at 390 px. */}
        <div className="flex flex-wrap gap-2 [&>button]:h-9 [&>button]:px-3 sm:[&>button]:h-10 sm:[&>button]:px-4">
          <ExportButton path={endpointUrl("GET /api/contacts/export")} fallbackName="usdx_contacts.csv" label="Export" />
          <ImportButton />
          <Button type="button" onClick={() => setEditing({ contact: null })}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Contact
          </Button>
        </div>
      </div>

      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 space-y-0 p-4 sm:p-6">
          <div className="relative w-full sm:max-w-sm">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              type="search"
              aria-label="Search contacts"
              placeholder="Search name, address or notes"
              className="pl-9 pr-9"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            {searching && <Spinner className="absolute right-3 top-1/2 h-4 w-4 -translate-y-1/2" label="Searching" />}
          </div>
          {contacts.data && (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {query ? plural(total, "match", "matches") : plural(total, "contact")}
            </p>
          )}
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          <ReadStates
            query={contacts}
            failed={LOAD_FAILED}
            sentence={contacts.error?.message || "Unknown error"}
            loading="Loading contacts"
            isEmpty={() => rows.length === 0}
            empty={
              <EmptyState
                icon={query !== "" ? <SearchX aria-hidden /> : <BookUser aria-hidden />}
                title="No contacts found"
                hint={query !== "" ? "Try changing your search query" : "Add contacts to manage your frequently used addresses"}
              />
            }
          >
            {() => (
              <div className="grid gap-4">
                {contacts.isError && (
                  // A reload or the next page failed: what was loaded stays, with the reason and a retry.
                  <LoadFailed
                    title={LOAD_FAILED}
                    sentence={contacts.error.message || "Unknown error"}
                    retrying={contacts.isFetching}
                    onRetry={() => void (contacts.isFetchNextPageError ? contacts.fetchNextPage() : contacts.refetch())}
                  />
                )}
                <ContactsTable contacts={rows} onEdit={(contact) => setEditing({ contact })} onDelete={setDeleting} />
                {contacts.hasNextPage && (
                  <div className="flex flex-wrap items-center justify-between gap-2 border-t border-border pt-4 text-sm text-muted-foreground">
                    <span>
                      Showing {count(rows.length)} of {count(total)}
                    </span>
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      onClick={() => void contacts.fetchNextPage()}
                      disabled={contacts.isFetchingNextPage}
                    >
                      {contacts.isFetchingNextPage && <Spinner className="h-4 w-4 text-current" label="Loading more contacts" />}
                      Load more
                    </Button>
                  </div>
                )}
              </div>
            )}
          </ReadStates>
        </CardContent>
      </Card>

      <ContactDialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} contact={editing?.contact ?? null} />
      <DeleteContactDialog contact={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
