import { useState } from "react";
import { AlertTriangle, FlaskConical } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { errorSentence } from "@/lib/api";
import { useConfig } from "@/lib/config";
import { isUnavailable, useBankAccounts, useBankTerms } from "../api";
import { BankAccountsTab } from "../components/BankAccountsTab";
import { DepositHistoryTab } from "../components/DepositHistoryTab";
import { DepositSuccessDialog } from "../components/DepositSuccessDialog";
import { DepositTab } from "../components/DepositTab";
import { WalletsTab } from "../components/WalletsTab";
import { useDepositTracker } from "../hooks/useDepositTracker";
import { useVerificationToasts } from "../hooks/useVerificationToasts";

const TITLE = "Bank Accounts & Deposits";
const MOCK_NOTICE = "Simulated bank: no real money moves; deposits mint test USDX on this chain";
/** Why the bank is off, when the server's own sentence cannot be read. */
const OFF_REASON =
  "The mock bank is off on this server. It runs on the local chain by default, and elsewhere only as a capped test faucet that the operator turns on with MOCK_BANK=faucet.";

type Tab = "accounts" | "wallets" | "deposit" | "history";

function Heading() {
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="grid grid-cols-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight">{TITLE}</h1>
          <Badge variant="outline" className="gap-1 border-amber-500/60 bg-amber-50 text-amber-800">
            <FlaskConical className="h-3 w-3" aria-hidden /> Mock
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground">
          Add bank accounts and wallets, deposit US dollars, and follow each deposit until its USDX is minted.
        </p>
      </div>
      <Alert className="border-amber-500/50 bg-amber-50/70 text-amber-900 [&>svg]:text-amber-600">
        <FlaskConical className="h-4 w-4" aria-hidden />
        <AlertDescription>{MOCK_NOTICE}</AlertDescription>
      </Alert>
    </div>
  );
}

function Unavailable({ reason }: { reason: string }) {
  return (
    <Alert variant="destructive">
      <AlertTriangle className="h-4 w-4" aria-hidden />
      <AlertTitle>The mock bank is unavailable</AlertTitle>
      <AlertDescription className="[overflow-wrap:anywhere]">{reason}</AlertDescription>
    </Alert>
  );
}

/**
 * Bank Accounts & Deposits (/accounts, PRODUCT.md section 2): the mock bank, clearly marked as such.
 * The verification toasts and the deposit being followed live here, so they carry on across tabs.
 */
export default function BankAccountsPage() {
  const config = useConfig();
  return config.mockBank ? <MockBank /> : <Off />;
}

/** Off (MOCK_BANK, or refused on a mainnet chain id): every bank route answers 503 with the server's sentence, shown here. */
function Off() {
  const terms = useBankTerms();
  return (
    <div className="mx-auto grid grid-cols-1 max-w-6xl gap-6">
      <Heading />
      {terms.isPending ? (
        <Spinner label="Loading the mock bank" />
      ) : (
        <Unavailable reason={isUnavailable(terms.error) ? errorSentence(terms.error, "Unknown error") : OFF_REASON} />
      )}
    </div>
  );
}

function MockBank() {
  const [tab, setTab] = useState<Tab>("accounts");
  const terms = useBankTerms();
  const accounts = useBankAccounts();
  const tracker = useDepositTracker();
  useVerificationToasts(accounts.data);

  if (isUnavailable(terms.error)) {
    return (
      <div className="mx-auto grid grid-cols-1 max-w-6xl gap-6">
        <Heading />
        <Unavailable reason={errorSentence(terms.error, "Unknown error")} />
      </div>
    );
  }

  return (
    <div className="mx-auto grid grid-cols-1 max-w-6xl gap-6">
      <Heading />
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
        {/* Two rows of two on phones, so every tab stays in view. */}
        <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:h-10 sm:w-auto">
          <TabsTrigger value="accounts">My Bank Accounts</TabsTrigger>
          <TabsTrigger value="wallets">My Wallets</TabsTrigger>
          <TabsTrigger value="deposit">Deposit USD</TabsTrigger>
          <TabsTrigger value="history">Deposit History</TabsTrigger>
        </TabsList>
        <TabsContent value="accounts">
          <BankAccountsTab verifyMs={terms.data?.verifyMs} />
        </TabsContent>
        <TabsContent value="wallets">
          <WalletsTab />
        </TabsContent>
        <TabsContent value="deposit">
          <DepositTab terms={terms} tracker={tracker} onGoTo={setTab} />
        </TabsContent>
        <TabsContent value="history">
          <DepositHistoryTab />
        </TabsContent>
      </Tabs>
      <DepositSuccessDialog deposit={tracker.succeeded} onClose={tracker.closeSuccess} />
    </div>
  );
}
