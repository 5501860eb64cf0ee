import type { ReactNode } from "react";

interface EmptyStateProps {
  /** A lucide icon, drawn in a circle above the title. */
  icon?: ReactNode;
  title: ReactNode;
  /** What would fill it. */
  hint?: ReactNode;
  /** The action that fills it (Add Account, ...). */
  children?: ReactNode;
}

/** An empty list: an icon, the sentence, a hint on what would fill it, and the action that does. */
export function EmptyState({ icon, title, hint, children }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      {icon && (
        <span
          className="flex h-11 w-11 items-center justify-center rounded-full bg-muted text-muted-foreground [&>svg]:h-5 [&>svg]:w-5"
          aria-hidden
        >
          {icon}
        </span>
      )}
      <p className="text-sm font-medium">{title}</p>
      {hint && <p className="max-w-md text-sm text-muted-foreground">{hint}</p>}
      {children && <div className="mt-2">{children}</div>}
    </div>
  );
}
