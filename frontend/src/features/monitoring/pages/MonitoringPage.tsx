import { lazy, Suspense } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Spinner } from "@/components/ui/spinner";
import { useConfig } from "@/lib/config";
import { addressUrl, isExternal } from "@/lib/explorer";
import { MONITORING_POLL_MS, useMonitoring, type MonitoringAnswer } from "../api/queries";
import { PartsHealth } from "../components/PartsHealth";
import { RpcBudget } from "../components/RpcBudget";

const OperationsCharts = lazy(() => import("../components/OperationsCharts"));

/** Set by the dashboard's build (vite.config.mts): when this dashboard was built, and from which commit. */
declare const __DASHBOARD_BUILD__: { builtAt: string; commit: string | null };

const when = (iso: string) => new Date(iso).toLocaleString();
const asSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** An address in full, and a link to the explorer where there is one (the local chain has none). */
function Address({ value }: { value: string }) {
  const config = useConfig();
  return isExternal(config) ? (
    <a
      href={addressUrl(config, value)}
      target="_blank"
      rel="noreferrer"
      className="font-mono text-primary underline-offset-4 hover:underline"
    >
      {value}
    </a>
  ) : (
    <span className="font-mono">{value}</span>
  );
}

/** "Last 45 seconds", "Last 15 minutes": the span the charts cover. */
function span(points: number, intervalSeconds: number): string {
  const seconds = points * intervalSeconds;
  if (seconds < 120) return `Last ${seconds} seconds`;
  return `Last ${Math.round(seconds / 60)} minutes`;
}

function BuildInfo({ build, replica }: Pick<MonitoringAnswer, "build" | "replica">) {
  const rows: [string, React.ReactNode][] = [
    ["Server version", build.version],
    ["Server commit", build.commit ?? "unknown"],
    ["Server started", when(replica.startedAt)],
    [
      "Dashboard built",
      `${when(__DASHBOARD_BUILD__.builtAt)}${__DASHBOARD_BUILD__.commit ? ` (commit ${__DASHBOARD_BUILD__.commit})` : ""}`,
    ],
    ["Network", `${build.network} (chain id ${build.chainId})`],
    ["USDX (proxy)", <Address key="proxy" value={build.proxy} />],
    ["Implementation", <Address key="impl" value={build.implementation} />],
    ["BatchPayments", <Address key="batch" value={build.batchPayments} />],
    ["Deployed", `block ${build.deploymentBlock.toLocaleString()}, ${when(build.deployedAt)}`],
  ];
  return (
    <dl
      className="grid gap-x-6 gap-y-2 rounded-lg border border-border bg-card p-4 text-sm sm:grid-cols-[max-content_1fr]"
      aria-label="Build information"
    >
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="min-w-0 break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * /monitoring ('CI/CD Monitoring' in the footer): the service's health, live figures and build,
 * for an operator. Open signed out (PRODUCT.md section 2, Routes); the server shows nothing secret here.
 */
export default function MonitoringPage() {
  const query = useMonitoring();
  const data = query.data;
  return (
    <main className="mx-auto max-w-6xl space-y-6 p-4 md:p-8">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">CI/CD Monitoring</h1>
        <p className="text-sm text-muted-foreground">
          The service as it runs now, updated every {MONITORING_POLL_MS / 1000} seconds.
          {data &&
            ` Figures are those of the server that answered (${data.replica.leader ? "the one running the background work" : "one of several; another runs the background work"}).`}
        </p>
      </header>
      {query.error && (
        <Alert variant="destructive">
          <AlertDescription>
            The server did not answer: {asSentence((query.error as Error).message)} Trying again every {MONITORING_POLL_MS / 1000} seconds.
          </AlertDescription>
        </Alert>
      )}
      {!data && !query.error && (
        <div className="flex justify-center p-8">
          <Spinner label="Loading" />
        </div>
      )}
      {data && (
        <>
          <section className="space-y-3">
            <h2 className="text-lg font-semibold">Health</h2>
            <PartsHealth parts={data.parts} />
            <RpcBudget budget={data.rpcBudget} />
          </section>
          <section className="space-y-3">
            <h2 className="text-lg font-semibold">
              {data.series.points.length < 2 ? "Live figures" : span(data.series.points.length, data.series.intervalSeconds)}
            </h2>
            {data.series.points.length < 2 ? (
              <p className="text-sm text-muted-foreground">
                The charts appear after two samples ({data.series.intervalSeconds * 2} seconds after the server started).
              </p>
            ) : (
              <Suspense fallback={<Spinner label="Loading charts" />}>
                <OperationsCharts points={data.series.points} />
              </Suspense>
            )}
          </section>
          <section className="space-y-3">
            <h2 className="text-lg font-semibold">Build</h2>
            <BuildInfo build={data.build} replica={data.replica} />
          </section>
        </>
      )}
    </main>
  );
}
