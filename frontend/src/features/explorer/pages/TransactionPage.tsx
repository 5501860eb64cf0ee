import { Link, useParams } from "react-router-dom";
import { AlertCircle, CheckCircle2, Clock, Info, XCircle } from "lucide-react";
import { Loading, LoadFailed } from "@/components/states";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useConfig } from "@/lib/config";
import { blockUrl, txUrl } from "@/lib/explorer";
import { movedNote } from "@/lib/format";
import { exactTokenAmount } from "@common/amounts";
import { TOKEN_SYMBOL } from "@common/token";
import type { DecodedLog, TransactionView, TxStatus } from "../api/types";
import { DetailList, DetailRow } from "../components/DetailList";
import { AddressValue, ArgList, HashValue, TimeValue } from "../components/DetailValues";
import { ExplorerHeading } from "../components/ExplorerHeading";
import { ExternalExplorer, MessageCard, NoReadSource } from "../components/ExplorerNotices";
import { useReadSource, useTransactionView } from "../hooks/useChainView";

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

const STATUS = {
  success: { text: "Success", variant: "success", Icon: CheckCircle2 },
  reverted: { text: "Reverted", variant: "destructive", Icon: XCircle },
  pending: { text: "Pending", variant: "secondary", Icon: Clock },
} as const;

function StatusBadge({ status }: { status: TxStatus }) {
  const { text, variant, Icon } = STATUS[status];
  return (
    <Badge variant={variant} className="gap-1">
      <Icon className="h-3.5 w-3.5" aria-hidden />
      {text}
    </Badge>
  );
}

function Overview({ tx }: { tx: TransactionView }) {
  const config = useConfig();
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle>Overview</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList>
          <DetailRow label="Hash">
            <HashValue hash={tx.hash} />
          </DetailRow>
          <DetailRow label="Status">
            <StatusBadge status={tx.status} />
          </DetailRow>
          <DetailRow label="Block">
            {tx.blockNumber !== null ? (
              <Link to={blockUrl(config, tx.blockNumber)} className="font-medium text-primary hover:underline">
                {tx.blockNumber}
              </Link>
            ) : (
              <span className="text-muted-foreground">Waiting to be mined</span>
            )}
          </DetailRow>
          <DetailRow label="Time">
            <TimeValue timestamp={tx.timestamp} />
          </DetailRow>
          <DetailRow label="From">
            <AddressValue address={tx.from} label={tx.fromLabel} />
          </DetailRow>
          <DetailRow label={tx.to ? "To" : "Created"}>
            {tx.to ? (
              <AddressValue address={tx.to} label={tx.toLabel} />
            ) : tx.createdContract ? (
              <AddressValue address={tx.createdContract} label={null} />
            ) : (
              <span className="text-muted-foreground">Contract creation</span>
            )}
          </DetailRow>
          <DetailRow label="Function">
            {tx.call ? (
              <span className="font-mono font-medium">{tx.call.name}</span>
            ) : (
              <span className="text-muted-foreground">{plainKind(tx)}</span>
            )}
          </DetailRow>
          <DetailRow label="Value">{tx.value}</DetailRow>
          <DetailRow label="Gas used">
            {tx.gasUsed !== null ? (
              <>
                {tx.gasUsed} <span className="text-muted-foreground">of {tx.gasLimit} limit</span>
              </>
            ) : (
              <span className="text-muted-foreground">Up to {tx.gasLimit}</span>
            )}
          </DetailRow>
          {tx.fee && <DetailRow label="Fee">{tx.fee}</DetailRow>}
          <DetailRow label="Nonce">{tx.nonce}</DetailRow>
        </DetailList>
      </CardContent>
    </Card>
  );
}

function plainKind(tx: TransactionView): string {
  if (!tx.to) return "Contract creation";
  if (tx.input === "0x") return "None (ETH transfer)";
  return `Unknown function (${tx.input.slice(0, 10)})`;
}

function FunctionCard({ tx }: { tx: TransactionView }) {
  if (!tx.call && (tx.input === "0x" || !tx.to)) return null;
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle>Function called</CardTitle>
        {tx.call && (
          <CardDescription className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{tx.call.contract}</Badge>
            <span className="break-all font-mono">{tx.call.signature}</span>
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        {tx.call ? (
          <ArgList args={tx.call.args} />
        ) : (
          <div className="grid gap-2">
            <p className="text-sm text-muted-foreground">Not a function of USDX or BatchPayments. Raw input data:</p>
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-3 font-mono text-xs">{tx.input}</pre>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function LogItem({ log }: { log: DecodedLog }) {
  return (
    <li className="grid gap-3 rounded-md border border-border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-muted-foreground">#{log.index}</span>
        <Badge variant={log.name ? "default" : "secondary"}>{log.name ?? "Unknown event"}</Badge>
        {log.signature && <span className="break-all font-mono text-xs text-muted-foreground">{log.signature}</span>}
      </div>
      <div className="text-sm">
        <span className="text-muted-foreground">Emitted by </span>
        <AddressValue address={log.address} label={log.contract} />
      </div>
      {log.name ? (
        <>
          <ArgList args={log.args} />
          <Moved log={log} />
        </>
      ) : (
        <div className="grid gap-1 font-mono text-xs">
          {log.topics.map((topic, i) => (
            <p key={i} className="break-all">
              <span className="text-muted-foreground">topic {i}: </span>
              {topic}
            </p>
          ))}
          <p className="break-all">
            <span className="text-muted-foreground">data: </span>
            {log.data}
          </p>
        </div>
      )}
    </li>
  );
}

/**
 * A Transfer that moved less than its value (USDX rounds the amount down to whole shares at the
 * log's multiplier): what moved, and why; nothing when all of it moved or the chain could not say.
 */
function Moved({ log }: { log: DecodedLog }) {
  const config = useConfig();
  const note = log.moved ? movedNote(log.moved.value, log.moved.amount) : null;
  if (!log.moved || !note) return null;
  return (
    <div role="note" className="grid gap-1 rounded-md border border-border px-3 py-2 text-sm sm:grid-cols-[13rem_1fr] sm:gap-4">
      <span className="font-medium">moved</span>
      <div className="grid gap-0.5">
        <span className="break-all">
          {exactTokenAmount(note.moved, config.token.decimals)} {TOKEN_SYMBOL}{" "}
          <span className="text-muted-foreground">({exactTokenAmount(BigInt(log.moved.shares), config.token.decimals)} shares)</span>
        </span>
        <span className="flex items-start gap-1 text-xs text-muted-foreground">
          <Info className="mt-0.5 h-3 w-3 shrink-0" aria-hidden />
          <span>{note.text}</span>
        </span>
      </div>
    </div>
  );
}

function EventsCard({ tx }: { tx: TransactionView }) {
  if (tx.status === "pending") return null;
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle>Events ({tx.logs.length})</CardTitle>
      </CardHeader>
      <CardContent>
        {tx.logs.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {tx.status === "reverted" ? "A reverted transaction emits no events." : "This transaction emitted no events."}
          </p>
        ) : (
          <ol className="grid gap-3">
            {tx.logs.map((log) => (
              <LogItem key={log.index} log={log} />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function TransactionDetails({ hash }: { hash: string }) {
  const { canRead } = useReadSource();
  const query = useTransactionView(hash);
  if (!canRead) return <NoReadSource />;
  if (query.isPending) return <Loading label="Loading transaction" className="py-16" />;
  if (query.isError)
    return <LoadFailed title="Error" sentence={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  const tx = query.data;
  if (!tx) {
    return (
      <MessageCard title="Transaction not found on this chain.">
        <p className="break-all font-mono">{hash}</p>
      </MessageCard>
    );
  }
  return (
    <>
      {tx.revertReason && (
        <Alert variant="destructive">
          <AlertCircle className="h-4 w-4" aria-hidden />
          <AlertTitle>Reverted</AlertTitle>
          <AlertDescription>{tx.revertReason}</AlertDescription>
        </Alert>
      )}
      <Overview tx={tx} />
      <FunctionCard tx={tx} />
      <EventsCard tx={tx} />
    </>
  );
}

/** /tx/:hash: the local chain's view of one transaction (on Sepolia, a link to its explorer). */
export default function TransactionPage() {
  const { hash = "" } = useParams();
  const config = useConfig();
  let body;
  if (config.explorerUrl) body = <ExternalExplorer url={txUrl(config, hash)} what="transaction" />;
  else if (!TX_HASH.test(hash)) {
    body = (
      <MessageCard title="Not a transaction hash">
        <p>
          <span className="break-all font-mono">{hash || "(empty)"}</span> is not a transaction hash: a hash is 0x followed by 64
          hexadecimal characters.
        </p>
      </MessageCard>
    );
  } else body = <TransactionDetails hash={hash} />;
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <ExplorerHeading title="Transaction" />
      {body}
    </div>
  );
}
