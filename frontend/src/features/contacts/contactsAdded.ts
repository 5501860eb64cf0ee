/** '{N} contacts added', in the singular for one. */
export const contactsAdded = (n: number) => (n === 1 ? "1 contact added" : `${n.toLocaleString("en-US")} contacts added`);
