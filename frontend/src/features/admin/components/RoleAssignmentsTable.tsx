import { CopyableAddress } from "@/components/CopyableAddress";
import { Loading, LoadFailed } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useRoleFlags } from "@/lib/chain/queries";
import { isRoleName } from "@common/roles";
import { useRoleAssignments } from "../api";

function StatusBadge({ granted }: { granted: boolean }) {
  return (
    <Badge variant={granted ? "success" : "secondary"} className="whitespace-nowrap">
      {granted ? "Granted" : "Not Granted"}
    </Badge>
  );
}

/**
 * One holder of a role. The server's index can trail the chain by a block right after a revoke, so
 * the status is confirmed with hasRole where the chain can be read.
 */
function HolderRow({ roleName, address }: { roleName: string; address: string }) {
  const flags = useRoleFlags(address);
  const granted = flags.data && isRoleName(roleName) ? flags.data[roleName] : true;
  return (
    <TableRow>
      <TableCell className="whitespace-nowrap font-mono text-xs">{roleName}</TableCell>
      <TableCell>
        <CopyableAddress address={address} />
      </TableCell>
      <TableCell>
        <StatusBadge granted={granted} />
      </TableCell>
    </TableRow>
  );
}

/** Every role and who holds it (GET /api/roles); a role nobody holds reads 'None assigned'. */
export function RoleAssignmentsTable() {
  const query = useRoleAssignments();
  if (query.isError) {
    return (
      <LoadFailed
        title="Failed to load role information"
        sentence={query.error.message || "Unknown error"}
        toastAt={query.errorUpdatedAt}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (!query.data) return <Loading label="Loading role assignments" />;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Role</TableHead>
          <TableHead>Address</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {query.data.map((role) =>
          role.holders.length === 0 ? (
            <TableRow key={role.roleName}>
              <TableCell className="whitespace-nowrap font-mono text-xs">{role.roleName}</TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">None assigned</TableCell>
              <TableCell>
                <StatusBadge granted={false} />
              </TableCell>
            </TableRow>
          ) : (
            role.holders.map((address) => <HolderRow key={`${role.roleName}-${address}`} roleName={role.roleName} address={address} />)
          ),
        )}
      </TableBody>
    </Table>
  );
}
