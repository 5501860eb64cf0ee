import type { Database } from "../db/client";

/** A user's address book (to be built). */
export class ContactsService {
  constructor(private readonly db: Database) {}
}
