import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { RefreshCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { approvalsOf, safeLabel } from "@/lib/safes";
import { useAdminFunctions } from "../hooks/useAdminFunctions";
import { BlocklistForm } from "./BlocklistForm";
import { BlocklistTable } from "./BlocklistTable";
import { BurnForm } from "./BurnForm";
import { MintForm } from "./MintForm";
import { PauseCard } from "./PauseCard";
import { RoleAssignmentsTable } from "./RoleAssignmentsTable";
import { RoleForm } from "./RoleForm";
import { RoleGate } from "./RoleGatedForm";
import { TokenPermissionsCard } from "./TokenPermissionsCard";

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="grid min-w-0 grid-cols-1 gap-2" aria-label={title}>
      <div>
        <h3 className="text-sm font-semibold">{title}</h3>
        {description && <p className="text-xs text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** PRODUCT.md section 6: the lists load only for admin or blocklist holders; others are pointed to the pages that show them. */
function ListsNote() {
  return (
    <div className="rounded-md border border-dashed border-border bg-muted/40 p-4 text-sm text-muted-foreground">
      You need DEFAULT_ADMIN_ROLE or BLOCKLIST_ROLE to see role assignments and the blocklist here. Both are on the{" "}
      <Link to="/roles" className="font-medium text-primary underline-offset-4 hover:underline">
        Role Management
      </Link>{" "}
      and{" "}
      <Link to="/blocklist" className="font-medium text-primary underline-offset-4 hover:underline">
        Blocklist
      </Link>{" "}
      pages.
    </div>
  );
}

/**
 * The Dashboard's Admin Functions: shown only to a wallet holding admin, minter, burner, blocklist,
 * pause or oracle; each tab offers what the wallet's roles allow and names the role the rest needs.
 */
export function AdminFunctions() {
  const { flags, held, safes, seesLists, token, refreshing, refresh } = useAdminFunctions();
  if (!flags) return null;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle>Admin Functions</CardTitle>
          <CardDescription>
            Token operations for the roles your wallet holds{safes.length > 0 && ", and proposals to the Safes it owns"}.
          </CardDescription>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={() => void refresh()} disabled={refreshing}>
          <RefreshCw className={refreshing ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
          Refresh Data
        </Button>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="overview">
          <div className="-mx-1 overflow-x-auto px-1 pb-1">
            <TabsList>
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="token">Token Operations</TabsTrigger>
              <TabsTrigger value="roles">Role Management</TabsTrigger>
              <TabsTrigger value="security">Security</TabsTrigger>
              <TabsTrigger value="configuration">Configuration</TabsTrigger>
            </TabsList>
          </div>

          <TabsContent value="overview" className="grid grid-cols-1 gap-6">
            <dl className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-1">
                <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Contract paused</dt>
                <dd className="text-sm">
                  {token.isLoading ? (
                    <Spinner className="h-4 w-4" label="Loading the contract status" />
                  ) : token.data ? (
                    <Badge variant={token.data.paused ? "destructive" : "success"}>{token.data.paused ? "Yes" : "No"}</Badge>
                  ) : (
                    <span className="text-muted-foreground">Unknown</span>
                  )}
                </dd>
              </div>
              <div className="grid gap-1">
                <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Your roles</dt>
                <dd className="flex flex-wrap gap-1.5">
                  {held.length > 0 ? (
                    held.map((role) => (
                      <Badge key={role} variant="secondary" className="font-mono">
                        {role}
                      </Badge>
                    ))
                  ) : (
                    <span className="text-sm text-muted-foreground">None</span>
                  )}
                </dd>
              </div>
              {safes.map((safe) => (
                <div key={safe.address} className="grid gap-1 sm:col-span-2">
                  <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Through {safeLabel(safe)}</dt>
                  <dd className="flex flex-wrap items-center gap-1.5">
                    {safe.roles.map((role) => (
                      <Badge key={role} variant="outline" className="font-mono">
                        {role}
                      </Badge>
                    ))}
                    <span className="text-xs text-muted-foreground">
                      Each action needs {approvalsOf(safe.threshold, safe.owners.length)}.
                    </span>
                  </dd>
                </div>
              ))}
            </dl>
            {seesLists ? (
              <>
                <Section title="Role assignments" description="Click an address to copy it.">
                  <RoleAssignmentsTable />
                </Section>
                <Section title="Blocklist">
                  <BlocklistTable words="overview" />
                </Section>
              </>
            ) : (
              <ListsNote />
            )}
          </TabsContent>

          <TabsContent value="token">
            <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-3">
              <RoleGate role="MINTER_ROLE">
                <MintForm />
              </RoleGate>
              <RoleGate role="BURNER_ROLE">
                <BurnForm />
              </RoleGate>
              <TokenPermissionsCard />
            </div>
          </TabsContent>

          <TabsContent value="roles" className="grid grid-cols-1 gap-6">
            <RoleGate role="DEFAULT_ADMIN_ROLE">
              <RoleForm />
            </RoleGate>
            {seesLists ? (
              <Section title="Current assignments" description="Click an address to copy it.">
                <RoleAssignmentsTable />
              </Section>
            ) : (
              <ListsNote />
            )}
          </TabsContent>

          <TabsContent value="security">
            <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
              <RoleGate role="PAUSE_ROLE">
                <PauseCard />
              </RoleGate>
              <RoleGate role="BLOCKLIST_ROLE">
                <BlocklistForm />
              </RoleGate>
            </div>
          </TabsContent>

          <TabsContent value="configuration">
            <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-3">
              <TokenPermissionsCard />
            </div>
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
