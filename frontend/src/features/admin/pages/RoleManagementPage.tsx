import { RoleAssignmentsTable } from "../components/RoleAssignmentsTable";
import { RoleForm } from "../components/RoleForm";
import { RolePageLayout } from "../components/RolePageLayout";

/** /roles: who holds which role, and the grant/revoke form for admins. */
export default function RoleManagementPage() {
  return (
    <RolePageLayout
      title="Role Management"
      description="Who holds each USDX role. Admins grant and revoke them here."
      role="DEFAULT_ADMIN_ROLE"
      connectPurpose="Connect your wallet to grant or revoke roles."
      form={<RoleForm />}
      listTitle="Role Assignments"
      listDescription="Current holders of every role. Click an address to copy it."
      list={<RoleAssignmentsTable />}
    />
  );
}
