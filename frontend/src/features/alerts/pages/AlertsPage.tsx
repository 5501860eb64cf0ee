import { useState, type ReactNode } from "react";
import { AlertCircle, BellRing, History, RotateCw, ShieldAlert } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useSession } from "@/lib/auth/session";
import { useAlertRules, useDeliveries } from "../api";
import { DeliveryLog } from "../components/DeliveryLog";
import { RuleForm } from "../components/RuleForm";
import { RulesList } from "../components/RulesList";
import { SecretDialog } from "../components/SecretDialog";

/**
 * /alerts: the operators' alerts, for the server's admins (the admin claim, as the API checks it):
 * rules on the token's events, each delivered to a webhook as signed JSON, and the delivery log.
 */
export default function AlertsPage() {
  const admin = useSession((s) => s.user?.admin ?? false);
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">Alerts</h1>
        <p className="text-sm text-muted-foreground">
          Webhook alerts on the token's events: mints and burns, roles, pauses, upgrades, the multiplier and the blocklist.
        </p>
      </div>
      {admin ? (
        <AlertsAdmin />
      ) : (
        <Alert variant="info">
          <ShieldAlert className="h-4 w-4" aria-hidden />
          <AlertTitle>Only for the server's admins</AlertTitle>
          <AlertDescription>
            Alerts are set by the server's admins: sign in with a wallet listed in the server's ADMIN_WALLETS.
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}

function AlertsAdmin() {
  const rules = useAlertRules();
  const log = useDeliveries();
  const [secret, setSecret] = useState<{ ruleId: number; value: string } | null>(null);
  const deliveries = log.data?.pages.flat() ?? [];

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Rules</CardTitle>
          <CardDescription>
            Each rule alerts on events after it is added, once the index holds them a few blocks deep, and signs each delivery with its own
            secret.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <RuleForm onCreated={({ rule, secret: value }) => setSecret({ ruleId: rule.id, value })} />
          <Loaded
            what="alert rules"
            query={rules}
            empty={!!rules.data && rules.data.length === 0}
            emptyState={
              <Empty
                icon={<BellRing className="h-6 w-6" aria-hidden />}
                title="No alert rules yet"
                text="Add a rule above to be told when the token changes."
              />
            }
          >
            {rules.data && <RulesList rules={rules.data} onSecret={setSecret} />}
          </Loaded>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Delivery log</CardTitle>
          <CardDescription>
            Every delivery and each attempt with the receiver's answer, newest first. Refreshed every few seconds.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Loaded
            what="the delivery log"
            query={log}
            empty={!!log.data && deliveries.length === 0}
            emptyState={
              <Empty
                icon={<History className="h-6 w-6" aria-hidden />}
                title="No deliveries yet"
                text="Deliveries appear here as events match a rule, or when you press 'Send test'."
              />
            }
          >
            <DeliveryLog
              deliveries={deliveries}
              hasMore={log.hasNextPage}
              loadingMore={log.isFetchingNextPage}
              onMore={() => void log.fetchNextPage()}
            />
          </Loaded>
        </CardContent>
      </Card>

      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}

interface QueryState {
  data?: unknown;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  refetch(): unknown;
}

/** A query's loading, failed and empty states, as the other pages show them; the children once there is something. */
function Loaded({
  what,
  query,
  empty,
  emptyState,
  children,
}: {
  what: string;
  query: QueryState;
  empty: boolean;
  emptyState: ReactNode;
  children: ReactNode;
}) {
  if (query.isError && !query.data) {
    return (
      <Alert variant="destructive">
        <AlertCircle className="h-4 w-4" aria-hidden />
        <AlertTitle>Failed to load {what}</AlertTitle>
        <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 [overflow-wrap:anywhere]">{query.error?.message || "Unknown error"}</span>
          <Button type="button" size="sm" variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            <RotateCw className={query.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
            Retry
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  if (!query.data) {
    return (
      <div className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground">
        <Spinner label={`Loading ${what}`} /> Loading {what}...
      </div>
    );
  }
  return empty ? emptyState : children;
}

function Empty({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <span className="mb-1 flex h-12 w-12 items-center justify-center rounded-full bg-accent text-accent-foreground">{icon}</span>
      <p className="font-medium">{title}</p>
      <p className="text-sm text-muted-foreground">{text}</p>
    </div>
  );
}
