import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BlocklistForm } from "../components/BlocklistForm";
import { BlocklistTable } from "../components/BlocklistTable";
import { PageHeading } from "../components/PageHeading";
import { RoleGatedForm } from "../components/RoleGatedForm";

/** /blocklist: accounts blocked now, and the block/unblock form for blocklist-role holders. */
export default function BlocklistPage() {
  return (
    <div>
      <PageHeading title="Blocklist Management" description="Blocked accounts cannot send USDX or be burned from." />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <RoleGatedForm role="BLOCKLIST_ROLE" connectPurpose="Connect your wallet to block or unblock accounts.">
            <BlocklistForm />
          </RoleGatedForm>
        </div>
        <Card className="lg:col-span-3">
          <CardHeader>
            <CardTitle>Blocked Accounts</CardTitle>
            <CardDescription>Click an address to copy it.</CardDescription>
          </CardHeader>
          <CardContent>
            <BlocklistTable />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
