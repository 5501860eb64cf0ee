/**
 * What lib has to tell the person (a write's outcome, a wallet that would not switch network), in
 * PRODUCT.md section 8's words. lib never imports components: it raises a notice here, and the
 * app hands it to the toast layer at startup (`setNotifier` in main.tsx); until then it goes nowhere.
 */
export interface Notice {
  title: string;
  description?: string;
  /** Toasts are destructive unless they report a success. */
  variant?: "default" | "destructive";
}

export type Notifier = (notice: Notice) => void;

let notifier: Notifier = () => undefined;

/** The app's toast layer (and the tests' setup) listens here. */
export function setNotifier(next: Notifier): void {
  notifier = next;
}

export function notify(notice: Notice): void {
  notifier(notice);
}
