import { z } from "zod";
import { endpoints } from "./endpoint";
import { EXPORT_LIMITS, SAFE_CELLS } from "./exports";
import { Address, checksumHolds, csvText, IN_WORDS, IsoDate, OFFSET_MAX, ok, rowId, wholeNumber } from "./schemas";

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

/** The longest name and notes a contact keeps, in characters (code points: an emoji is one). */
export const CONTACT_NAME_MAX = 100;
export const CONTACT_NOTES_MAX = 500;

/**
 * What a contact check answers: the dashboard's 'Title - what to do' sentences, shown as they are
 * (server/src/middleware/validate.ts answers such a sentence whole, not as a field's complaint).
 */
export const CONTACT_PROBLEMS = {
  missing: "Missing information - Please provide both name and address",
  nameTooLong: `Name too long - Please keep the name to ${CONTACT_NAME_MAX} characters or fewer`,
  nameControls: "Invalid name - The name cannot contain control characters such as line breaks or tabs",
  address: "Invalid address - Please enter a valid Ethereum address",
  checksum:
    "Invalid address - The checksum does not match (its mix of upper and lower case is wrong): check it for a typo, or enter it in lower case",
  notesTooLong: `Notes too long - Please keep the notes to ${CONTACT_NOTES_MAX} characters or fewer`,
  notesControls: "Invalid notes - The notes cannot contain control characters other than line breaks and tabs",
} as const;

// C0/C1 controls, plus the bidi overrides that can make a name display as something else.
const NAME_ALLOWED = /^[^\p{Cc}\u202A-\u202E\u2066-\u2069]*$/u;
// Notes may span lines; other controls (NUL, which Postgres refuses, among them) may not.
const NOTES_ALLOWED = /^(?:[^\p{Cc}\u202A-\u202E\u2066-\u2069]|[\t\n\r])*$/u;
// Surrounding spaces are trimmed off what is stored.
const ADDRESS_TYPED = /^\s*0x[0-9a-fA-F]{40}\s*$/;
const NOT_BLANK = /\S/;

const codePoints = (text: string) => Array.from(text).length;
/** A type error's sentence: a missing field is the contact's 'Missing information'. */
const textOr = (missing: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? missing : "must be text";

/**
 * The one check of a contact's fields, as the declared body of add and edit and, line by line, of
 * an import (server/src/services/contacts.ts): each check is on the text as sent, then the name and
 * notes are stored trimmed and the address checksummed.
 */
export const ContactName = z
  .string({ error: textOr(CONTACT_PROBLEMS.missing) })
  .min(1, CONTACT_PROBLEMS.missing)
  .regex(NOT_BLANK, CONTACT_PROBLEMS.missing)
  .refine((text) => codePoints(text) <= CONTACT_NAME_MAX, CONTACT_PROBLEMS.nameTooLong)
  .regex(NAME_ALLOWED, CONTACT_PROBLEMS.nameControls)
  .trim()
  .meta({ maxLength: CONTACT_NAME_MAX, example: "Alice" });
export const ContactAddress = z
  .string({ error: textOr(CONTACT_PROBLEMS.missing) })
  .regex(NOT_BLANK, CONTACT_PROBLEMS.missing)
  .regex(ADDRESS_TYPED, CONTACT_PROBLEMS.address)
  .trim()
  .refine((text) => !ADDRESS_TYPED.test(text) || checksumHolds(text), { message: CONTACT_PROBLEMS.checksum, params: IN_WORDS })
  .meta({
    description: "0x and 40 hex characters; mixed case must be a right EIP-55 checksum (all lower or all upper case carries none).",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });
export const ContactNotes = z
  .string({ error: "must be text" })
  .refine((text) => codePoints(text) <= CONTACT_NOTES_MAX, CONTACT_PROBLEMS.notesTooLong)
  .regex(NOTES_ALLOWED, CONTACT_PROBLEMS.notesControls)
  .trim()
  .nullable()
  .meta({ maxLength: CONTACT_NOTES_MAX, description: "Empty or null: no notes." });

const addBody = z.object({ name: ContactName, address: ContactAddress, notes: ContactNotes.optional() });
const editBody = z
  .object({ name: ContactName.optional(), address: ContactAddress.optional(), notes: ContactNotes.optional() })
  .refine((body) => body.name !== undefined || body.address !== undefined || body.notes !== undefined, {
    message: "Nothing to change: send name, address or notes",
  })
  .meta({ anyOf: [{ required: ["name"] }, { required: ["address"] }, { required: ["notes"] }] });
const idPath = z.object({ id: rowId("a contact") });

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
        // eslint-disable-next-line no-control-regex -- a NUL is what it refuses (Postgres refuses it outright)
        .regex(/^[^\u0000]*$/, "cannot contain a NUL character")
        .optional(),
      limit: wholeNumber(1, CONTACTS_LIST_LIMIT_MAX)
        .default(CONTACTS_LIST_LIMIT_DEFAULT)
        .meta({ description: `Contacts per page, 1 to ${CONTACTS_LIST_LIMIT_MAX}; ${CONTACTS_LIST_LIMIT_DEFAULT} when left out.` }),
      offset: wholeNumber(0, OFFSET_MAX).default(0).meta({ description: "Contacts to skip; 0 when left out." }),
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
      csvData: csvText(z.string().max(CSV_MAX_CHARS, { message: "must be at most 1 MB of CSV text", abort: true })).meta({
        example: "Name,Address\nAlice,0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n",
      }),
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
    body: editBody,
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
