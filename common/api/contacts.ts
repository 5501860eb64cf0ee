import { z } from "zod";
import { endpoints } from "./endpoint";
import { EXPORT_LIMITS, SAFE_CELLS } from "./exports";
import { Address, IsoDate, MAX_SERIAL_ID, ok } from "./schemas";

/** /api/contacts: the signed-in user's own address book, and only theirs. */

export const CONTACTS_LIST_LIMIT_DEFAULT = 100;
export const CONTACTS_LIST_LIMIT_MAX = 1000;
const CSV_MAX_CHARS = 1024 * 1024;

/** A stored contact: the address checksummed, empty notes as null. */
export const Contact = z
  .strictObject({
    id: z.number().int(),
    name: z.string().meta({ example: "Alice" }),
    address: Address,
    notes: z.string().nullable(),
    createdAt: IsoDate,
  })
  .meta({ id: "Contact" });
export type Contact = z.infer<typeof Contact>;

/** GET /api/contacts: one page of a user's contacts, and how many match in all. */
export const ContactPage = z.strictObject({
  contacts: z.array(Contact),
  total: z.number().int().meta({ description: "How many contacts match, in all." }),
});
export type ContactPage = z.infer<typeof ContactPage>;

/** POST /api/contacts/import: what was added, and each skipped line with its reason. */
export const ImportResult = z.strictObject({
  imported: z.number().int(),
  skipped: z.array(z.strictObject({ line: z.number().int(), reason: z.string() })),
  contacts: z.array(Contact),
});
export type ImportResult = z.infer<typeof ImportResult>;

// Types only: what is missing, empty or too long is checkContact's to say, in the dashboard's words.
const field = z.string();
const addBody = z.object({
  name: field.optional().meta({ example: "Alice" }),
  address: field.optional().meta({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
  notes: field.nullable().optional(),
});
const idPath = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, "must be a contact id (a whole number)")
    .transform(Number)
    .pipe(z.number().min(1).max(MAX_SERIAL_ID, "must be a contact id (a whole number)")),
});

export const contactsApi = endpoints({
  "GET /api/contacts": {
    tag: "Contacts",
    summary: "Your contacts, a page at a time",
    description: "Sorted by name. search matches the name, address or notes.",
    access: "user",
    query: z.object({
      search: z
        .string()
        .max(200)
        .refine((text) => !text.includes("\u0000"), "cannot contain a NUL character")
        .optional(),
      limit: z
        .string()
        .regex(/^\d{1,6}$/, "must be a whole number")
        .transform(Number)
        .pipe(z.number().min(1).max(CONTACTS_LIST_LIMIT_MAX))
        .default(CONTACTS_LIST_LIMIT_DEFAULT)
        .meta({ description: `Contacts per page, 1 to ${CONTACTS_LIST_LIMIT_MAX}; ${CONTACTS_LIST_LIMIT_DEFAULT} when left out.` }),
      offset: z
        .string()
        .regex(/^\d{1,9}$/, "must be a whole number")
        .transform(Number)
        .default(0)
        .meta({ description: "Contacts to skip; 0 when left out." }),
    }),
    answer: ok(ContactPage.shape),
    errors: [503],
  },
  "GET /api/contacts/export": {
    tag: "Contacts",
    summary: "Export your contacts as CSV",
    description: `Name, Address, Notes, oldest first: a file POST /api/contacts/import reads back. ${SAFE_CELLS} ${EXPORT_LIMITS}`,
    access: "user",
    answer: {
      contentType: "text/csv; charset=utf-8",
      description: "A CSV file (usdx_contacts.csv).",
      example: '"Name","Address","Notes"\r\n"Alice","0x70997970C51812dc3A010C7d01b50e0d17dc79C8","Payroll"\r\n',
    },
    noStore: true,
    // 429: the export limits (requests a minute, exports at once, rows a minute), with Retry-After.
    errors: [429, 503],
  },
  "POST /api/contacts/import": {
    tag: "Contacts",
    summary: "Import contacts from CSV",
    description:
      "CSV text with Name and Address columns (Notes optional). Each line that cannot be added is skipped with its reason; the rest are added.",
    access: "user",
    body: z.object({
      csvData: z
        .string()
        .max(CSV_MAX_CHARS, "must be at most 1 MB of CSV text")
        .meta({ example: "Name,Address\nAlice,0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n" }),
    }),
    answer: ok(ImportResult.shape),
    errors: [409, 429, 503],
  },
  "POST /api/contacts": {
    tag: "Contacts",
    summary: "Add a contact",
    access: "user",
    body: addBody,
    status: 201,
    answer: ok({ contact: Contact }),
    // 429: the user keeps as many contacts as one account may.
    errors: [409, 429, 503],
  },
  "PATCH /api/contacts/:id": {
    tag: "Contacts",
    summary: "Change a contact",
    description: "Send any of name, address and notes.",
    access: "user",
    params: idPath,
    body: addBody.refine((body) => body.name !== undefined || body.address !== undefined || body.notes !== undefined, {
      message: "Nothing to change: send name, address or notes",
    }),
    answer: ok({ contact: Contact }),
    errors: [404, 409, 503],
  },
  "DELETE /api/contacts/:id": {
    tag: "Contacts",
    summary: "Delete a contact",
    access: "user",
    params: idPath,
    answer: ok({ id: z.number().int() }),
    errors: [404, 503],
  },
});
