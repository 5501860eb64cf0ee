import { ShieldCheck } from "lucide-react";
import { EmptyState, ReadStates } from "@/components/states";
import { useSafes } from "../api/safes";
import { SafeCard } from "../components/SafeCard";

/**
 * /approvals: the Safes that hold USDX roles and the writes proposed to them, for their owners to
 * approve, execute or reject (an addition for roles held by a Safe on a public network).
 */
export default function ApprovalsPage() {
  const safes = useSafes();
  return (
    <div>
      <div className="mb-6 grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">Approvals</h1>
        <p className="text-sm text-muted-foreground">
          Writes proposed to the Safes that hold USDX roles. Each runs once enough of its Safe&apos;s owners approve it.
        </p>
      </div>
      <ReadStates
        query={safes}
        failed="Failed to load Safes"
        loading="Loading Safes"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState
            icon={<ShieldCheck />}
            title="No Safe holds a USDX role"
            hint="When a Safe is granted a role, its owners propose and approve that role's writes here."
          />
        }
      >
        {(list) => (
          <div className="grid grid-cols-1 gap-6">
            {list.map((safe) => (
              <SafeCard key={safe.address} listed={safe} />
            ))}
          </div>
        )}
      </ReadStates>
    </div>
  );
}
