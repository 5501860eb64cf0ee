import type { ReactNode } from "react";
import type { RoleName } from "@common/roles";
import { Card, CardContent } from "@/components/ui/card";
import { Loading } from "@/components/states";
import { useMyRoles } from "@/lib/chain/queries";
import { RoleRequiredNote } from "./RoleNotes";
import { WalletPrompt } from "./WalletPrompt";

/** A page's form for one role: a Connect Wallet prompt, a spinner while the roles load, the form, or a note. */
export function RoleGatedForm({ role, connectPurpose, children }: { role: RoleName; connectPurpose: string; children: ReactNode }) {
  const mine = useMyRoles();
  if (!mine.address) return <WalletPrompt purpose={connectPurpose} />;
  if (mine.loading) {
    return (
      <Card>
        <CardContent className="p-0">
          <Loading label="Checking your roles" className="py-6" />
        </CardContent>
      </Card>
    );
  }
  if (!mine.flags?.[role]) return <RoleRequiredNote role={role} className="bg-card" />;
  return <>{children}</>;
}
