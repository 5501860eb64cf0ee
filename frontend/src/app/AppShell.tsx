import { Outlet } from "react-router-dom";
import { TransactionStatusModal } from "@/components/tx/TransactionStatusModal";
import { WalletChooser } from "@/components/wallet/WalletChooser";

/** Above every route: the one wallet chooser and the one transaction status modal (inside the router, so their links navigate in-app). */
export function AppShell() {
  return (
    <>
      <Outlet />
      <WalletChooser />
      <TransactionStatusModal />
    </>
  );
}
