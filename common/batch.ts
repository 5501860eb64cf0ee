import type { RecipientStatus } from "./api/batch";

/** A batch recipient's status as a person reads it: the job's detail view and the job's CSV export say the same. */
export const RECIPIENT_STATUS_WORDS: Readonly<Record<RecipientStatus, string>> = { pending: "Pending", paid: "Paid", unpaid: "Not paid" };
