import type { ReactNode } from "react";

/** A view's title ('Transaction', 'Block #12'), with anything that belongs beside it. */
export function ExplorerHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}
