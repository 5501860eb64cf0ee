import { useId, useState } from "react";
import { Download, FileSpreadsheet, Send, Wallet, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { useConfig } from "@/lib/config";
import { count, plural } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { BatchSummary } from "../components/BatchSummary";
import { PayFrom } from "../components/PayFrom";
import { PaymentHistory } from "../components/PaymentHistory";
import { RecipientsTable } from "../components/RecipientsTable";
import { CompletedPanel, FailedPanel, TransferProgress } from "../components/TransferStatus";
import { UploadZone } from "../components/UploadZone";
import { useBatchStatus } from "../hooks/useBatchStatus";
import { useBatchTransfer } from "../hooks/useBatchTransfer";
import { useCsvUpload } from "../hooks/useCsvUpload";
import { resetPayments, usePayments } from "../stores/paymentsStore";
import { downloadTemplate } from "../template";

type Tab = "upload" | "history";

/**
 * Payments (route /payments, PRODUCT.md section 2): a batch payment from a CSV file, each row its own
 * amount, paid from the connected wallet with one permit signature and one transaction per chunk;
 * and Payment History, the user's real batch jobs.
 */
export default function PaymentsPage() {
  const connected = useWallet((s) => s.status === "connected");
  const { chunkSize } = useConfig().batch;
  const [tab, setTab] = useState<Tab>("upload");
  // The poll lives with the page, so it goes on while Payment History is open.
  const status = useBatchStatus();
  // Only the latest poll counts: one that answers again clears the notice.
  const pollError = status.isError ? status.error : null;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Payments</h1>
        <p className="text-sm text-muted-foreground">
          Pay many recipients in USDX from a CSV file: one signature, then one transaction for every {count(chunkSize)} recipients.
        </p>
      </div>

      {!connected && (
        <Card className="border-primary/30 bg-gradient-to-br from-accent/60 to-card">
          <CardContent className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-center gap-3">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                <Wallet className="h-5 w-5" aria-hidden />
              </span>
              <p className="text-sm font-medium">Connect your wallet to make USDX payments</p>
            </div>
            <ConnectWalletButton className="shrink-0" />
          </CardContent>
        </Card>
      )}

      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
        <TabsList>
          <TabsTrigger value="upload">CSV Upload</TabsTrigger>
          <TabsTrigger value="history">Payment History</TabsTrigger>
        </TabsList>
        <TabsContent value="upload">
          <UploadTab onShowHistory={() => setTab("history")} pollError={pollError} />
        </TabsContent>
        <TabsContent value="history">
          <PaymentHistory />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function UploadTab({ onShowHistory, pollError }: { onShowHistory(): void; pollError: Error | null }) {
  const config = useConfig();
  const upload = usePayments((s) => s.upload);
  const phase = usePayments((s) => s.phase);
  const csv = useCsvUpload();
  const transfer = useBatchTransfer();

  const summary = upload && (
    <BatchSummary upload={upload} chunkSize={config.batch.chunkSize}>
      {phase === "initial" && <StartControls onStart={() => void transfer.start()} starting={transfer.starting} />}
    </BatchSummary>
  );

  return (
    <div className="flex flex-col gap-6">
      {phase === "initial" ? (
        <div className="grid items-start gap-6 lg:grid-cols-5">
          <Card className={upload ? "min-w-0 lg:col-span-2" : "min-w-0 lg:col-span-5"}>
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
              <div className="space-y-1.5">
                <CardTitle>Upload Recipients</CardTitle>
                <CardDescription>A CSV file with Name, Address and Amount columns.</CardDescription>
              </div>
              <Button variant="outline" size="sm" onClick={downloadTemplate}>
                <Download className="h-4 w-4" aria-hidden />
                Download Template
              </Button>
            </CardHeader>
            <CardContent className="space-y-3">
              <UploadZone onFile={(file) => void csv.upload(file)} parsing={csv.parsing} maxRows={config.batch.maxRows} />
              {upload && (
                <div className="flex items-center justify-between gap-2 rounded-md border border-border px-3 py-2 text-sm">
                  <span className="flex min-w-0 items-center gap-2">
                    <FileSpreadsheet className="h-4 w-4 shrink-0 text-primary" aria-hidden />
                    <span className="truncate font-medium">{upload.fileName}</span>
                    <span className="shrink-0 text-muted-foreground">· {plural(upload.parsed.totalRows, "row")}</span>
                  </span>
                  <Button variant="ghost" size="sm" onClick={resetPayments} aria-label={`Remove ${upload.fileName}`}>
                    <X className="h-4 w-4" aria-hidden />
                    Remove
                  </Button>
                </div>
              )}
            </CardContent>
          </Card>
          {summary && <div className="min-w-0 lg:col-span-3">{summary}</div>}
        </div>
      ) : (
        // Once started, the progress (or its outcome) is what matters: it takes the full width.
        <>
          {phase === "transferring" ? (
            <TransferProgress pollError={pollError} />
          ) : phase === "completed" ? (
            <CompletedPanel onShowHistory={onShowHistory} />
          ) : (
            <FailedPanel onRetry={() => void transfer.retry()} retrying={transfer.starting} />
          )}
          {summary}
        </>
      )}

      {upload && (
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Recipients</CardTitle>
            <CardDescription>Every row of the file. Rows marked Error are not paid; the reason is under the cell.</CardDescription>
          </CardHeader>
          <CardContent>
            <RecipientsTable rows={upload.rows} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

/** 'Add recipients to contacts', the paying wallet and its balance, and the action button. */
function StartControls({ onStart, starting }: { onStart(): void; starting: boolean }) {
  const checkboxId = useId();
  const addToContacts = usePayments((s) => s.addToContacts);
  const valid = usePayments((s) => s.upload?.parsed.validRecipients.length ?? 0);
  return (
    <div className="flex flex-col gap-4 border-t border-border pt-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="space-y-2">
        <div className="flex items-center gap-2">
          <Checkbox id={checkboxId} checked={addToContacts} onChange={(e) => usePayments.setState({ addToContacts: e.target.checked })} />
          <Label htmlFor={checkboxId} className="cursor-pointer">
            Add recipients to contacts
          </Label>
        </div>
        <PayFrom />
      </div>
      <Button onClick={onStart} disabled={starting} className="sm:min-w-48">
        {starting ? <Spinner className="h-4 w-4 text-primary-foreground" label="Starting" /> : <Send className="h-4 w-4" aria-hidden />}
        {starting ? "Starting..." : `Pay ${plural(valid, "recipient")}`}
      </Button>
    </div>
  );
}
