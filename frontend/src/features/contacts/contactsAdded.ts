import { plural } from "@/lib/format";

/** '{N} contacts added', in the singular for one. */
export const contactsAdded = (n: number) => `${plural(n, "contact")} added`;
