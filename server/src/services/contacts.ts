import { and, asc, count, desc, eq, ilike, ne, or, sql, SQL } from "drizzle-orm";
import { z } from "zod";
import { parseAddress } from "@common/addresses";
import { ContactAddress, ContactName, ContactNotes } from "@common/api/contacts";
import type { Database } from "../db/client";
import { xactLock } from "../db/locks";
import { contacts } from "../db/schema";
import { badRequest, conflict, HttpError, notFound, tooMany } from "../lib/errors";
import { readCsv, type CsvDownload } from "../lib/csv";
import type { Contact, ContactPage, ImportResult } from "@common/apiTypes";
import { count as grouped } from "@common/wording";

export type { Contact, ContactPage, ImportResult };

/** A contact as a person typed it: any field may be missing or padded with spaces. */
export interface ContactInput {
  name?: string | null;
  address?: string | null;
  notes?: string | null;
}

/** A contact as it is stored: trimmed, the address checksummed, empty notes as null. */
export interface ContactFields {
  name: string;
  address: string;
  notes: string | null;
}

/** A candidate for addMany: a CSV row (or another list), with its line for the skipped report. */
export interface ContactCandidate extends ContactInput {
  line: number;
  /** Set when the row could not be read at all. */
  problem?: string;
}

const contactFields = z.object({ name: ContactName, address: ContactAddress, notes: ContactNotes.optional() });

/**
 * The one check of a contact, for add, edit and import: the declared fields' (common/api/contacts.ts,
 * which add and edit already passed); returns the stored form or throws a 400 whose message the
 * dashboard shows as it is.
 */
export function checkContact(input: ContactInput): ContactFields {
  const result = contactFields.safeParse({ name: input.name ?? undefined, address: input.address ?? undefined, notes: input.notes });
  // The first problem, in field order, as the add and edit endpoints answer it (validate.ts).
  if (!result.success) throw badRequest(result.error.issues[0].message);
  const { name, address, notes } = result.data;
  return { name, address: parseAddress(address), notes: notes || null };
}

const duplicateMessage = (address: string, existingName: string) =>
  `Duplicate address - ${address} is already in your contacts as '${existingName}'`;

/** Text for ILIKE that matches `text` literally anywhere: %, _ and the escape itself are escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

function isUniqueViolation(error: unknown): boolean {
  // Drizzle wraps the driver's error in `cause`.
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}

type Row = typeof contacts.$inferSelect;
const toContact = (row: Row): Contact => ({
  id: row.id,
  name: row.name,
  address: row.address,
  notes: row.notes,
  createdAt: row.createdAt.toISOString(),
});

/** The 429 of a user who holds `max` contacts already: it frees up as contacts are deleted. */
const limitMessage = (max: number) =>
  `Contact limit reached - You have ${grouped(max)} contacts, the most one account may keep: delete some to add more`;

/** The reason an import gives each good row past the limit (none of them is added). */
const importLimitReason = (max: number) =>
  `Contact limit reached - At most ${grouped(max)} contacts per account: this row was not added (delete some contacts and import it again)`;

/** Serialises one user's adds and imports, so the limit counts what is stored (two requests at once). */
const lockUser = (uid: string) => xactLock("contacts", uid);

// Rows an INSERT sends at once: four parameters each, well under Postgres's 65,535.
const INSERT_CHUNK = 1000;

/** A user's address book. Every method takes the user's uid: nobody reads or changes another's. */
export class ContactsService {
  constructor(
    private readonly db: Database,
    /** Contacts one user may keep (USER_MAX_CONTACTS), and rows one imported CSV may hold. */
    private readonly limits: { maxContacts: number; maxRows: number },
  ) {}

  /** Newest first; `search` matches name, address or notes, case-insensitively and literally. */
  async list(uid: string, options: { search?: string; limit: number; offset: number }): Promise<ContactPage> {
    const search = options.search?.trim();
    let where: SQL | undefined = eq(contacts.uid, uid);
    if (search) {
      const pattern = containsPattern(search);
      where = and(where, or(ilike(contacts.name, pattern), ilike(contacts.address, pattern), ilike(contacts.notes, pattern)));
    }
    const rows = await this.db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(options.limit)
      .offset(options.offset);
    const [{ total }] = await this.db.select({ total: count() }).from(contacts).where(where);
    return { contacts: rows.map(toContact), total };
  }

  /** Every contact of the user, oldest first. */
  async all(uid: string): Promise<Contact[]> {
    const rows = await this.db.select().from(contacts).where(eq(contacts.uid, uid)).orderBy(asc(contacts.createdAt), asc(contacts.id));
    return rows.map(toContact);
  }

  /** The export (usdx_contacts.csv): Name, Address, Notes, oldest first; the columns an import reads back. */
  async csv(uid: string): Promise<CsvDownload> {
    const rows = (await this.all(uid)).map((c) => [c.name, c.address, c.notes ?? ""]);
    return { fileName: "usdx_contacts.csv", header: ["Name", "Address", "Notes"], chunks: [rows] };
  }

  /** Adds one contact; a user holding the most contacts allowed already gets a 429. */
  async add(uid: string, input: ContactInput): Promise<Contact> {
    const max = this.limits.maxContacts;
    const fields = checkContact(input);
    const row = await this.db.transaction(async (tx) => {
      await tx.execute(lockUser(uid));
      const [{ held }] = await tx.select({ held: count() }).from(contacts).where(eq(contacts.uid, uid));
      if (held >= max) {
        // A duplicate says so rather than the limit: it would not be added either way.
        const existing = await this.findByAddress(uid, fields.address, undefined, tx as unknown as Database);
        if (existing) throw conflict(duplicateMessage(fields.address, existing.name));
        throw tooMany(limitMessage(max));
      }
      const [inserted] = await tx
        .insert(contacts)
        .values({ uid, ...fields })
        .onConflictDoNothing()
        .returning();
      return inserted;
    });
    if (!row) throw await this.duplicateError(uid, fields.address);
    return toContact(row);
  }

  /** Changes the fields `patch` names; a notes of null or "" clears them. */
  async update(uid: string, id: number, patch: ContactInput): Promise<Contact> {
    const current = await this.find(uid, id);
    const fields = checkContact({
      name: patch.name !== undefined ? patch.name : current.name,
      address: patch.address !== undefined ? patch.address : current.address,
      notes: patch.notes !== undefined ? patch.notes : current.notes,
    });
    const other = await this.findByAddress(uid, fields.address, id);
    if (other) throw conflict(duplicateMessage(fields.address, other.name));
    let row: Row | undefined;
    try {
      [row] = await this.db
        .update(contacts)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(and(eq(contacts.uid, uid), eq(contacts.id, id)))
        .returning();
    } catch (error) {
      // Another request stored the address between the check and the update.
      if (isUniqueViolation(error)) throw await this.duplicateError(uid, fields.address);
      throw error;
    }
    if (!row) throw notFoundError();
    return toContact(row);
  }

  async remove(uid: string, id: number): Promise<void> {
    const deleted = await this.db
      .delete(contacts)
      .where(and(eq(contacts.uid, uid), eq(contacts.id, id)))
      .returning({ id: contacts.id });
    if (deleted.length === 0) throw notFoundError();
  }

  /** Reads a contacts CSV (Name, Address, optional Notes) and adds its good rows, up to the most contacts allowed in all. */
  async importCsv(uid: string, csvText: string): Promise<ImportResult> {
    const { maxRows } = this.limits;
    const rows = readCsv(csvText, { required: ["name", "address"], optional: ["notes"], maxRows, rowsAre: "contacts" });
    return this.addMany(
      uid,
      rows.map((row) => ({ line: row.line, problem: row.problem, ...row.cells })),
    );
  }

  /**
   * Adds the good candidates in one transaction; each bad one, and each address already in the
   * contacts or earlier in the list, is skipped with its line and the reason. The user keeps at
   * most `maxContacts`: good rows past that are skipped too, each saying so, and none is added.
   */
  private async addMany(uid: string, candidates: readonly ContactCandidate[]): Promise<ImportResult> {
    const { maxContacts } = this.limits;
    const skipped: ImportResult["skipped"] = [];
    return this.db.transaction(async (tx) => {
      await tx.execute(lockUser(uid));
      const existing = new Map<string, string>();
      const stored = await tx.select({ address: contacts.address, name: contacts.name }).from(contacts).where(eq(contacts.uid, uid));
      for (const row of stored) existing.set(row.address.toLowerCase(), row.name);

      const firstLine = new Map<string, number>();
      const good: (ContactFields & { line: number })[] = [];
      for (const candidate of candidates) {
        const skip = (reason: string) => skipped.push({ line: candidate.line, reason });
        if (candidate.problem) {
          skip(candidate.problem);
          continue;
        }
        let fields: ContactFields;
        try {
          fields = checkContact(candidate);
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          skip(error.message);
          continue;
        }
        const key = fields.address.toLowerCase();
        const earlier = firstLine.get(key);
        if (existing.has(key)) skip(duplicateMessage(fields.address, existing.get(key)!));
        else if (earlier !== undefined) skip(`Duplicate address - ${fields.address} is already on line ${earlier} of this file`);
        else {
          firstLine.set(key, candidate.line);
          if (stored.length + good.length >= maxContacts) skip(importLimitReason(maxContacts));
          else good.push({ ...fields, line: candidate.line });
        }
      }

      const inserted: Row[] = [];
      for (let i = 0; i < good.length; i += INSERT_CHUNK) {
        const chunk = good.slice(i, i + INSERT_CHUNK).map(({ name, address, notes }) => ({ uid, name, address, notes }));
        inserted.push(...(await tx.insert(contacts).values(chunk).onConflictDoNothing().returning()));
      }
      // A row missing from the answer lost a race with another request that stored its address.
      const added = new Set(inserted.map((row) => row.address.toLowerCase()));
      for (const row of good) {
        if (!added.has(row.address.toLowerCase()))
          skipped.push({ line: row.line, reason: `Duplicate address - ${row.address} is already in your contacts` });
      }
      skipped.sort((a, b) => a.line - b.line);
      return { imported: inserted.length, skipped, contacts: inserted.map(toContact) };
    });
  }

  private async find(uid: string, id: number): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.uid, uid), eq(contacts.id, id)));
    if (!row) throw notFoundError();
    return row;
  }

  private async findByAddress(uid: string, address: string, exceptId?: number, db: Database = this.db): Promise<Row | undefined> {
    const [row] = await db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.uid, uid),
          eq(sql`lower(${contacts.address})`, address.toLowerCase()),
          exceptId !== undefined ? ne(contacts.id, exceptId) : undefined,
        ),
      );
    return row;
  }

  private async duplicateError(uid: string, address: string): Promise<HttpError> {
    const existing = await this.findByAddress(uid, address);
    return conflict(existing ? duplicateMessage(address, existing.name) : `Duplicate address - ${address} is already in your contacts`);
  }
}

// The same answer for another user's contact as for a missing one: never reveal that it exists.
const notFoundError = () => notFound("Contact not found - It may have been deleted");
