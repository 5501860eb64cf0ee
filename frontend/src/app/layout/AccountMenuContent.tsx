import type { ReactElement } from "react";
import { useNavigate } from "react-router-dom";
import { LayoutDashboard, LogOut } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toast";
import { signOutUser } from "@/lib/auth/firebase";
import type { SessionUser } from "@/lib/auth/session";
import { shortAddress } from "@/lib/format";

/** The account menu itself (loaded on first use, see AccountMenu): an email line, Dashboard, Logout. */
export default function AccountMenuContent({ trigger, user }: { trigger: ReactElement; user: SessionUser }) {
  const navigate = useNavigate();
  const line = user.email ?? (user.wallet ? `Wallet ${shortAddress(user.wallet)}` : "Signed in");

  const logout = async () => {
    try {
      await signOutUser();
      toast({ title: "Logged out" });
    } catch {
      toast({ title: "Logout issue", description: "You were logged out but there was an issue with the server", variant: "destructive" });
    }
    navigate("/");
  };

  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="truncate">{line}</DropdownMenuLabel>
        {user.admin && <DropdownMenuLabel className="pt-0 text-primary">Admin</DropdownMenuLabel>}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate("/")}>
          <LayoutDashboard className="h-4 w-4" aria-hidden /> Dashboard
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void logout()}>
          <LogOut className="h-4 w-4" aria-hidden /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
