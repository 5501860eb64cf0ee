import { Check, Minus } from "lucide-react";
import { ROLE_NAMES, ROLE_PERMITS } from "@common/roles";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMyRoles } from "@/lib/chain/queries";
import { cn } from "@/lib/utils";

/** What each of the connected wallet's roles allows it to do, and what it does not hold. */
export function TokenPermissionsCard() {
  const { flags } = useMyRoles();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your token permissions</CardTitle>
        <CardDescription>Every wallet can send its own USDX. These roles allow more.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2.5">
          {ROLE_NAMES.map((role) => {
            const held = flags?.[role] ?? false;
            return (
              <li key={role} className="flex items-start gap-2.5 text-sm">
                {held ? (
                  <Check className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden />
                ) : (
                  <Minus className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <div className={cn("grid gap-0.5", !held && "text-muted-foreground")}>
                  <span className="font-mono text-xs">
                    {role} <span className="sr-only">{held ? "(held)" : "(not held)"}</span>
                  </span>
                  <span>{held ? `You can ${ROLE_PERMITS[role]}.` : `Not held: cannot ${ROLE_PERMITS[role]}.`}</span>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
