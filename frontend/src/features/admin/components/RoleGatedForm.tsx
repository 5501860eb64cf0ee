import type { ReactNode } from "react";
import type { RoleName } from "@common/roles";
import { Card, CardContent } from "@/components/ui/card";
import { Loading } from "@/components/states";
import { useMyRoles } from "@/lib/chain/queries";
import { ProposeVia } from "@/lib/safes";
import { useRoleRoute } from "../hooks/useRoleRoute";
import { RoleRequiredNote } from "./RoleNotes";
import { WalletPrompt } from "./WalletPrompt";

/**
 * A form that needs `role`: the form for a holder; for a wallet without the role that owns a Safe
 * holding it, the same form proposing to that Safe (its button and a line under it say so); else
 * which role it needs. `checking` shows while the roles or the Safes are read.
 */
export function RoleGate({
  role,
  children,
  checking = <Loading label="Checking your roles" className="py-6" />,
  noteClassName,
}: {
  role: RoleName;
  children: ReactNode;
  checking?: ReactNode;
  noteClassName?: string;
}) {
  const route = useRoleRoute(role);
  if (route.kind === "checking") return <>{checking}</>;
  if (route.kind === "none") return <RoleRequiredNote role={role} className={noteClassName} />;
  if (route.kind === "safe") return <ProposeVia.Provider value={route.safe}>{children}</ProposeVia.Provider>;
  return <>{children}</>;
}

/** A page's form for one role: a Connect Wallet prompt, a spinner while the roles load, the form (sent or proposed), or a note. */
export function RoleGatedForm({ role, connectPurpose, children }: { role: RoleName; connectPurpose: string; children: ReactNode }) {
  const mine = useMyRoles();
  if (!mine.address) return <WalletPrompt purpose={connectPurpose} />;
  return (
    <RoleGate
      role={role}
      noteClassName="bg-card"
      checking={
        <Card>
          <CardContent className="p-0">
            <Loading label="Checking your roles" className="py-6" />
          </CardContent>
        </Card>
      }
    >
      {children}
    </RoleGate>
  );
}
