import { useNavigate } from "react-router-dom";
import { ChevronDown, LayoutDashboard, LogOut, UserRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toast";
import { signOutUser } from "@/lib/auth/firebase";
import { useSession } from "@/lib/auth/session";
import { shortAddress } from "@/lib/format";

/** PRODUCT.md section 2's account menu: labelled with the email (or 'Account'), an email line, Dashboard, Logout. */
export function AccountMenu() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  if (!user) return null;
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
    <DropdownMenu>
      {/* Named as its words read: on a phone they are hidden and the icon alone shows. */}
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="ghost" className="max-w-[14rem]" aria-label={user.email ?? "Account"}>
          <UserRound className="h-4 w-4" aria-hidden />
          <span className="hidden truncate sm:inline">{user.email ?? "Account"}</span>
          <ChevronDown className="h-3.5 w-3.5 opacity-60" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
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
