import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ContractEventsCard } from "../components/ContractEventsCard";
import { HistoryCard } from "../components/HistoryCard";

type Tab = "history" | "events";

/**
 * Transaction History (route /transactions, PRODUCT.md section 2): the connected wallet's transfers,
 * mints and burns, and the token's contract events. `?address=0x...` shows another account's
 * history (the local chain's address links lead here); `?tab=events` opens Contract Events, so
 * the tab survives a reload and the Back button.
 */
export default function TransactionsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get("tab") === "events" ? "events" : "history";
  const viewed = params.get("address");
  // Once opened, Contract Events stays mounted (hidden), so its filter survives a look at the other tab.
  const [eventsOpened, setEventsOpened] = useState(tab === "events");
  if (tab === "events" && !eventsOpened) setEventsOpened(true);

  const showTab = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === "events") updated.set("tab", "events");
        else updated.delete("tab");
        return updated;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Transaction History</h1>
        <p className="text-sm text-muted-foreground">Your USDX transfers, mints and burns, and every event of the token contract.</p>
      </div>
      <Tabs value={tab} onValueChange={showTab}>
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="history" className="flex-1 sm:flex-none">
            Your Transactions
          </TabsTrigger>
          <TabsTrigger value="events" className="flex-1 sm:flex-none">
            Contract Events
          </TabsTrigger>
        </TabsList>
        <TabsContent value="history">
          <HistoryCard viewed={viewed} />
        </TabsContent>
        <TabsContent value="events" forceMount={eventsOpened || undefined} className="data-[state=inactive]:hidden">
          <ContractEventsCard />
        </TabsContent>
      </Tabs>
    </div>
  );
}
