import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeading } from "../components/PageHeading";
import { RoleAssignmentsTable } from "../components/RoleAssignmentsTable";
import { RoleForm } from "../components/RoleForm";
import { RoleGatedForm } from "../components/RoleGatedForm";

/** /roles: who holds which role, and the grant/revoke form for admins. */
export default function RoleManagementPage() {
  return (
    <div>
      <PageHeading title="Role Management" description="Who holds each USDX role. Admins grant and revoke them here." />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <RoleGatedForm role="DEFAULT_ADMIN_ROLE" connectPurpose="Connect your wallet to grant or revoke roles.">
            <RoleForm />
          </RoleGatedForm>
        </div>
        <Card className="lg:col-span-3">
          <CardHeader>
            <CardTitle>Role Assignments</CardTitle>
            <CardDescription>Current holders of every role. Click an address to copy it.</CardDescription>
          </CardHeader>
          <CardContent>
            <RoleAssignmentsTable />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
