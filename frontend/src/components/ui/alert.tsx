import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "@/lib/utils";

const alertVariants = cva("relative w-full rounded-lg border p-4 text-sm [&>svg]:absolute [&>svg]:left-4 [&>svg]:top-4 [&>svg~*]:pl-7", {
  variants: {
    variant: {
      default: "border-border bg-card text-foreground [&>svg]:text-muted-foreground",
      info: "border-accent bg-accent/40 text-accent-foreground [&>svg]:text-primary",
      destructive: "border-destructive/50 bg-destructive/5 text-destructive [&>svg]:text-destructive",
    },
  },
  defaultVariants: { variant: "default" },
});

/** shadcn-style Alert: an inline notice or error inside a card or page. */
export const Alert = ({ className, variant, ...props }: React.HTMLAttributes<HTMLDivElement> & VariantProps<typeof alertVariants>) => (
  <div role={variant === "destructive" ? "alert" : undefined} className={cn(alertVariants({ variant }), className)} {...props} />
);
// Not a heading (as in shadcn/ui's current Alert): an alert sits at any depth of a page, and a fixed
// heading level there breaks the page's outline (axe's heading-order).
export const AlertTitle = ({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) => (
  <div className={cn("mb-1 font-medium leading-none tracking-tight", className)} {...props} />
);
export const AlertDescription = ({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) => (
  <div className={cn("text-sm [&_p]:leading-relaxed", className)} {...props} />
);
