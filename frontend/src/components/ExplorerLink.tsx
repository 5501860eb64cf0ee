import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ExternalLink } from "lucide-react";
import { useConfig } from "@/lib/config";
import { isExternal } from "@/lib/explorer";
import { cn } from "@/lib/utils";

/** A link to the block explorer: a new tab on Sepolia, the dashboard's own views (in-app routes) on the local chain. */
export function ExplorerLink({
  href,
  children,
  label,
  title = label,
  className,
}: {
  href: string;
  children: ReactNode;
  label?: string;
  title?: string;
  className?: string;
}) {
  const config = useConfig();
  const classes = cn(
    "inline-flex items-center gap-1 whitespace-nowrap rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
    className,
  );
  if (isExternal(config)) {
    return (
      <a href={href} target="_blank" rel="noreferrer" aria-label={label} title={title} className={classes}>
        {children}
        <ExternalLink className="h-3 w-3 opacity-60" aria-hidden />
      </a>
    );
  }
  return (
    <Link to={href} aria-label={label} title={title} className={classes}>
      {children}
    </Link>
  );
}
