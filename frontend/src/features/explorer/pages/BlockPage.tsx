import { Link, useParams } from "react-router-dom";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Loading, LoadFailed } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConfig } from "@/lib/config";
import { blockUrl, txUrl } from "@/lib/explorer";
import { shortAddress } from "@/lib/format";
import type { BlockTransaction, BlockView } from "../api/types";
import { DetailList, DetailRow } from "../components/DetailList";
import { AddressValue, HashValue, Mono, TimeValue } from "../components/DetailValues";
import { ExplorerHeading } from "../components/ExplorerHeading";
import { ExternalExplorer, MessageCard, NoReadSource } from "../components/ExplorerNotices";
import { useBlockView, useReadSource } from "../hooks/useChainView";

const BLOCK_NUMBER = /^\d{1,15}$/;

function Party({ address, label }: { address: string | null; label: string | null }) {
  if (!address) return <span className="text-muted-foreground">New contract</span>;
  return (
    <span title={address} className="whitespace-nowrap">
      {label ? <span className="font-medium">{label}</span> : <span className="font-mono">{shortAddress(address)}</span>}
    </span>
  );
}

function TransactionsTable({ transactions }: { transactions: BlockTransaction[] }) {
  const config = useConfig();
  if (transactions.length === 0) return <p className="text-sm text-muted-foreground">This block has no transactions.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Tx Hash</TableHead>
          <TableHead>Function</TableHead>
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead className="text-right">Value</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.map((tx) => (
          <TableRow key={tx.hash}>
            <TableCell>
              <Link to={txUrl(config, tx.hash)} className="font-mono text-primary hover:underline" aria-label={`Transaction ${tx.hash}`}>
                {shortAddress(tx.hash)}
              </Link>
            </TableCell>
            <TableCell className="font-mono">{tx.method}</TableCell>
            <TableCell>
              <Party address={tx.from} label={tx.fromLabel} />
            </TableCell>
            <TableCell>
              <Party address={tx.to} label={tx.toLabel} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-right">{tx.value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function BlockNav({ number, latest }: { number: number; latest: number }) {
  const config = useConfig();
  return (
    <nav aria-label="Blocks" className="flex flex-wrap gap-2">
      {number > 0 ? (
        <Button variant="outline" size="sm" asChild>
          <Link to={blockUrl(config, number - 1)}>
            <ChevronLeft className="h-4 w-4" aria-hidden />
            Previous block
          </Link>
        </Button>
      ) : (
        <Button variant="outline" size="sm" disabled>
          <ChevronLeft className="h-4 w-4" aria-hidden />
          Previous block
        </Button>
      )}
      {number < latest ? (
        <Button variant="outline" size="sm" asChild>
          <Link to={blockUrl(config, number + 1)}>
            Next block
            <ChevronRight className="h-4 w-4" aria-hidden />
          </Link>
        </Button>
      ) : (
        <Button variant="outline" size="sm" disabled title="This is the latest block">
          Next block
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </nav>
  );
}

function BlockSummary({ block }: { block: BlockView }) {
  const config = useConfig();
  return (
    <>
      <BlockNav number={block.number} latest={block.latest} />
      <Card>
        <CardHeader className="pb-2">
          <CardTitle>Overview</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList>
            <DetailRow label="Number">{block.number}</DetailRow>
            <DetailRow label="Hash">
              <HashValue hash={block.hash} />
            </DetailRow>
            <DetailRow label="Time">
              <TimeValue timestamp={block.timestamp} />
            </DetailRow>
            <DetailRow label="Parent">
              {block.number > 0 ? (
                <Link to={blockUrl(config, block.number - 1)} className="break-all font-mono text-primary hover:underline">
                  {block.parentHash}
                </Link>
              ) : (
                <Mono>{block.parentHash}</Mono>
              )}
            </DetailRow>
            <DetailRow label="Gas used">
              {block.gasUsed} <span className="text-muted-foreground">of {block.gasLimit} limit</span>
            </DetailRow>
            {block.baseFee && <DetailRow label="Base fee">{block.baseFee}</DetailRow>}
            <DetailRow label="Miner">
              <AddressValue address={block.miner} label={null} />
            </DetailRow>
          </DetailList>
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="pb-3">
          <CardTitle>Transactions ({block.transactions.length})</CardTitle>
        </CardHeader>
        <CardContent>
          <TransactionsTable transactions={block.transactions} />
        </CardContent>
      </Card>
    </>
  );
}

function BlockDetails({ number }: { number: number }) {
  const config = useConfig();
  const { canRead } = useReadSource();
  const query = useBlockView(number);
  if (!canRead) return <NoReadSource />;
  if (query.isPending) return <Loading label="Loading block" className="py-16" />;
  if (query.isError)
    return <LoadFailed title="Error" sentence={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  if (!query.data.found) {
    return (
      <MessageCard title="Block not found on this chain.">
        <p>
          Block {number} has not been mined yet; the latest block is{" "}
          <Link to={blockUrl(config, query.data.latest)} className="text-primary hover:underline">
            {query.data.latest}
          </Link>
          .
        </p>
      </MessageCard>
    );
  }
  return <BlockSummary block={query.data.block} />;
}

/** /block/:number: the local chain's view of one block (on Sepolia, a link to its explorer). */
export default function BlockPage() {
  const { number: param = "" } = useParams();
  const config = useConfig();
  const valid = BLOCK_NUMBER.test(param);
  let body;
  if (config.explorerUrl) body = <ExternalExplorer url={blockUrl(config, param)} what="block" />;
  else if (!valid) {
    body = (
      <MessageCard title="Not a block number">
        <p>
          <span className="break-all font-mono">{param || "(empty)"}</span> is not a block number: use digits only, like /block/42.
        </p>
      </MessageCard>
    );
  } else body = <BlockDetails number={Number(param)} />;
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <ExplorerHeading title={valid ? `Block #${Number(param)}` : "Block"} />
      {body}
    </div>
  );
}
