import { lazy } from "react";
import { Outlet } from "react-router-dom";
import { OnceOpened } from "@/components/OnceOpened";
import { useWalletChooser } from "@/components/wallet/chooser";
import { useTxModal } from "@/lib/tx/store";

// Both dialogs (and Radix's dialog, focus trap and scroll lock under them) load the first time they
// open: most visits, /login's first of all, never open them.
const WalletChooser = lazy(() => import("@/components/wallet/WalletChooser").then((m) => ({ default: m.WalletChooser })));
const TransactionStatusModal = lazy(() =>
  import("@/components/tx/TransactionStatusModal").then((m) => ({ default: m.TransactionStatusModal })),
);

/** Above every route: the one wallet chooser and the one transaction status modal (inside the router, so their links navigate in-app). */
export function AppShell() {
  const chooserOpen = useWalletChooser((s) => s.open);
  const txModalOpen = useTxModal((s) => s.isOpen);
  return (
    <>
      <Outlet />
      <OnceOpened open={chooserOpen}>
        <WalletChooser />
      </OnceOpened>
      <OnceOpened open={txModalOpen}>
        <TransactionStatusModal />
      </OnceOpened>
    </>
  );
}
