import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { call, endpointUrl, errorSentence } from "@/lib/api";
import type { Contact, ContactPage, ImportResult } from "@common/apiTypes";

export type { Contact, ContactPage, ImportResult };

/**
 * The signed-in user's address book on the server (/api/contacts, see server/src/routes/contacts.ts).
 * The server checks every contact (checkContact) and answers a 4xx with a 'Title - description'
 * sentence that the page shows as it is.
 */

export interface ContactFields {
  name: string;
  address: string;
  notes: string;
}

/** Rows per page of the list (the server's default page size). */
export const CONTACTS_PAGE_SIZE = 100;

/** Every contacts query starts with this key, so one invalidation reloads every search. */
export const contactsKey = ["/api/contacts"] as const;
export const contactListKey = (search: string) => [...contactsKey, { search }] as const;

const listQuery = (search: string, offset: number) => ({ search: search || undefined, limit: CONTACTS_PAGE_SIZE, offset });

export function contactListUrl(search: string, offset: number): string {
  return endpointUrl("GET /api/contacts", { query: listQuery(search, offset) });
}

/**
 * The contacts matching `search` (case-insensitive over name, address and notes, on the server),
 * newest first, a page at a time. Each search is its own cache entry, so going back is instant.
 */
export function useContacts(search: string) {
  return useInfiniteQuery({
    queryKey: contactListKey(search),
    queryFn: ({ pageParam }) => call("GET /api/contacts", { query: listQuery(search, pageParam) }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.contacts.length, 0);
      return loaded < last.total && last.contacts.length > 0 ? loaded : undefined;
    },
    // While a new search loads, the previous results stay on screen instead of a spinner.
    placeholderData: (previous) => previous,
  });
}

/** After any change, every cached search may be out of date. */
function useInvalidateContacts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contactsKey });
}

export function useAddContact() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: async (fields: ContactFields) => (await call("POST /api/contacts", { body: fields })).contact,
    onSuccess: invalidate,
  });
}

export function useUpdateContact() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    // Notes are always sent: "" clears them.
    mutationFn: async ({ id, fields }: { id: number; fields: ContactFields }) =>
      (await call("PATCH /api/contacts/:id", { params: { id }, body: fields })).contact,
    // Also after a failure: the contact may have been deleted elsewhere.
    onSettled: invalidate,
  });
}

export function useDeleteContact() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (id: number) => call("DELETE /api/contacts/:id", { params: { id } }),
    // A failed delete (already gone) also reloads, so the list shows what the server has.
    onSettled: invalidate,
  });
}

export function useImportContacts() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (csvData: string) => call("POST /api/contacts/import", { body: { csvData } }),
    onSuccess: invalidate,
  });
}

/**
 * A failed call as a toast: the server's 'Title - description' sentence split in two, or
 * `fallbackTitle` with whatever the error says.
 */
export function serverProblem(error: unknown, fallbackTitle: string): { title: string; description: string } {
  const sentence = errorSentence(error, "");
  const dash = sentence.indexOf(" - ");
  if (dash > 0) return { title: sentence.slice(0, dash), description: sentence.slice(dash + 3) };
  return { title: fallbackTitle, description: sentence || "Unknown error" };
}
