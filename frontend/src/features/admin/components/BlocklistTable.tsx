import { Link } from "react-router-dom";
import { ShieldCheck } from "lucide-react";
import { CopyableAddress } from "@/components/CopyableAddress";
import { EmptyState, Loading, LoadFailed } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useBlockedFlags } from "@/lib/chain/queries";
import { useConfig } from "@/lib/config";
import { isExternal, txUrl } from "@/lib/explorer";
import { relativeTime } from "@/lib/format";
import { useBlocklist, type BlockedAccount } from "../api";

/** The Blocklist page says Blocked / Not Blocked; the Dashboard's overview, Blocked / Active. */
const WORDS = {
  page: { blocked: "Blocked", clear: "Not Blocked" },
  overview: { blocked: "Blocked", clear: "Active" },
} as const;

function Since({ since }: { since: BlockedAccount["since"] }) {
  const config = useConfig();
  if (!since) return <span className="text-muted-foreground">Unknown</span>;
  const text = relativeTime(since.timestamp);
  const className = "text-primary underline-offset-4 hover:underline";
  return isExternal(config) ? (
    <a
      href={txUrl(config, since.transactionHash)}
      target="_blank"
      rel="noreferrer"
      className={className}
      title={`Block ${since.blockNumber}`}
    >
      {text}
    </a>
  ) : (
    <Link to={txUrl(config, since.transactionHash)} className={className} title={`Block ${since.blockNumber}`}>
      {text}
    </Link>
  );
}

/**
 * Accounts blocked now (GET /api/blocklist). The server's index can trail the chain by a block
 * right after an unblock, so each status is confirmed with isBlocked where the chain can be read.
 */
export function BlocklistTable({ words = "page" }: { words?: keyof typeof WORDS }) {
  const query = useBlocklist();
  const addresses = query.data?.map((entry) => entry.address) ?? [];
  const flags = useBlockedFlags(addresses);
  if (query.isError) {
    return (
      <LoadFailed
        title="Failed to load blocklist information"
        sentence={query.error.message || "Unknown error"}
        toastAt={query.errorUpdatedAt}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (!query.data) return <Loading label="Loading the blocklist" />;
  if (query.data.length === 0) {
    return <EmptyState icon={<ShieldCheck aria-hidden />} title="No addresses currently blocklisted" />;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Address</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Since</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {query.data.map((entry) => {
          const blocked = flags.data?.[entry.address] ?? entry.isBlocked;
          return (
            <TableRow key={entry.address}>
              <TableCell>
                <CopyableAddress address={entry.address} />
              </TableCell>
              <TableCell>
                <Badge variant={blocked ? "destructive" : "success"} className="whitespace-nowrap">
                  {blocked ? WORDS[words].blocked : WORDS[words].clear}
                </Badge>
              </TableCell>
              <TableCell className="whitespace-nowrap text-sm">
                <Since since={entry.since} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
