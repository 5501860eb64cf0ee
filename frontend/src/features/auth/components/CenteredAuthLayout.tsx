import type { ReactNode } from "react";
import { prepareAuth } from "@/lib/auth/firebase";
import { BrandMark } from "./fields";

/**
 * The frame of the sign-in screens that have no page frame (/login, /forgot-password): the product
 * name above a centred card, on a quiet backdrop. The first focus or press on it starts loading
 * Firebase (lib/auth/firebase.ts), so it is there by the time the form is sent.
 */
export function CenteredAuthLayout({ subtitle, children }: { subtitle?: string; children: ReactNode }) {
  return (
    <main
      onFocusCapture={prepareAuth}
      onPointerDownCapture={prepareAuth}
      className="relative flex min-h-full flex-col items-center justify-center overflow-hidden bg-background px-4 py-12"
    >
      {/* A soft wash of the brand colour behind the card, purely decorative. */}
      <div aria-hidden className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-linear-to-b from-accent/70 to-transparent" />
      <div className="relative w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <BrandMark className="h-11 w-11 text-lg" />
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">USDX Dashboard</h1>
            {subtitle && <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p>}
          </div>
        </div>
        {children}
      </div>
    </main>
  );
}
