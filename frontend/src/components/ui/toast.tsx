import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { create } from "zustand";
import type { Notice } from "@/lib/notices";
import { cn } from "@/lib/utils";

/** PRODUCT.md section 9: at most one toast at a time, closing after 5,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

/** A notice (lib/notices.ts) on screen. */
export interface Toast extends Notice {
  id: number;
}

interface ToastStore {
  toasts: Toast[];
  show(toast: Omit<Toast, "id">): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastStore>((set) => ({
  toasts: [],
  show(toast) {
    const id = nextId++;
    // A new toast replaces the one showing (the limit is one).
    set((state) => ({ toasts: [{ ...toast, id }, ...state.toasts].slice(0, TOAST_LIMIT) }));
    return id;
  },
  dismiss(id) {
    set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Raises a toast from a component or feature; lib raises notices, which main.tsx hands to this. */
export const toast = (t: Omit<Toast, "id">) => useToasts.getState().show(t);

/**
 * The toast layer (Radix Toast): F8 focuses it, z-index 100, top on small screens and bottom right
 * on larger ones, at most 420 px wide from the medium breakpoint (PRODUCT.md section 9).
 */
export function Toaster() {
  const { toasts, dismiss } = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          onOpenChange={(open) => !open && dismiss(t.id)}
          className={cn(
            "group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-8 shadow-lg",
            t.variant === "destructive"
              ? "border-destructive bg-destructive text-destructive-foreground"
              : "border-border bg-card text-foreground",
          )}
        >
          {/* min-w-0 and break-words: an address or hash in a message wraps instead of leaving the screen. */}
          <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>}
          </div>
          <ToastPrimitive.Close className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100" aria-label="Close">
            <X className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={["F8"]}
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
