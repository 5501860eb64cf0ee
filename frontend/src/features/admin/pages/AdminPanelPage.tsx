import { Navigate } from "react-router-dom";
import { ShieldCheck } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { Loading } from "@/components/states";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useMyRoles } from "@/lib/chain/queries";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { AdminTransferForm } from "../components/AdminTransferForm";
import { BlocklistForm } from "../components/BlocklistForm";
import { BurnForm } from "../components/BurnForm";
import { MintForm } from "../components/MintForm";
import { MultiplierForm } from "../components/MultiplierForm";
import { PageHeading } from "../components/PageHeading";
import { PauseToggle } from "../components/PauseCard";
import { RoleForm } from "../components/RoleForm";

const TITLE = "USDX Admin Panel";

/**
 * /admin guards itself (PRODUCT.md section 2): a spinner while the admin check runs, then home for a
 * visitor with no wallet or without DEFAULT_ADMIN_ROLE.
 */
export default function AdminPanelPage() {
  const connecting = useWallet((s) => s.status === "connecting");
  const mine = useMyRoles();
  if (connecting || mine.loading) {
    return (
      <div>
        <PageHeading title={TITLE} />
        <Loading label="Checking admin access" className="py-16" />
      </div>
    );
  }
  if (!mine.address || !mine.isAdmin) return <Navigate to="/" replace />;

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeading title={TITLE} description="Administer the USDX token contract." className="mb-0" />
      <Card>
        <CardContent className="grid gap-5 p-6">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-muted-foreground">Connected as</span>
            <span className="font-mono font-medium" title={mine.address}>
              {shortAddress(mine.address)}
            </span>
            <Badge className="font-mono">DEFAULT_ADMIN_ROLE</Badge>
          </div>
          <Alert variant="info">
            <ShieldCheck className="h-4 w-4" aria-hidden />
            <AlertTitle>Only for the admin role</AlertTitle>
            <AlertDescription>
              This panel is only for accounts holding DEFAULT_ADMIN_ROLE. Each action also needs its own role on the contract: every form
              names the role it needs, and the contract refuses the change without it.
            </AlertDescription>
          </Alert>
          <PauseToggle />
        </CardContent>
      </Card>

      <Tabs defaultValue="token">
        <div className="-mx-1 overflow-x-auto px-1 pb-1">
          <TabsList>
            <TabsTrigger value="token">Token Operations</TabsTrigger>
            <TabsTrigger value="roles">Role Management</TabsTrigger>
            <TabsTrigger value="blocklist">Blocklist</TabsTrigger>
            <TabsTrigger value="settings">Settings</TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="token">
          <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-3">
            <MintForm adminPanel />
            <BurnForm adminPanel />
            <AdminTransferForm adminPanel />
          </div>
        </TabsContent>
        <TabsContent value="roles">
          <div className="max-w-xl">
            <RoleForm adminPanel />
          </div>
        </TabsContent>
        <TabsContent value="blocklist">
          <div className="max-w-xl">
            <BlocklistForm adminPanel />
          </div>
        </TabsContent>
        <TabsContent value="settings">
          <div className="max-w-xl">
            <MultiplierForm />
          </div>
        </TabsContent>
      </Tabs>
    </div>
  );
}
