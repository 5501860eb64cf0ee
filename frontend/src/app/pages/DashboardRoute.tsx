import { lazy, Suspense } from "react";
import DashboardPage from "@/features/dashboard/pages/DashboardPage";

// Admin Functions (every admin form, its tables and selects) shows only once a wallet holding a role
// is connected, never at a page load: its code loads then, beside the role reads it waits for anyway.
const AdminFunctions = lazy(() => import("@/features/admin/components/AdminFunctions").then((m) => ({ default: m.AdminFunctions })));

/** The Dashboard composes two features: its own cards and the role holders' Admin Functions. */
export default function DashboardRoute() {
  return (
    <DashboardPage
      adminFunctions={
        <Suspense fallback={null}>
          <AdminFunctions />
        </Suspense>
      }
    />
  );
}
