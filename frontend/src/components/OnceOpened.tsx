import { Suspense, useState, type ReactNode } from "react";

/**
 * For a dialog whose code loads lazily: renders nothing until `open` is first true, then mounts
 * `children` (a React.lazy component) and keeps them, so the dialog can animate out when it closes.
 * Most visits never open most dialogs, and so never download them.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
