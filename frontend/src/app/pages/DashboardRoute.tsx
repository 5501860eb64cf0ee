import { AdminFunctions } from "@/features/admin/components/AdminFunctions";
import DashboardPage from "@/features/dashboard/pages/DashboardPage";

/** The Dashboard composes two features: its own cards and the role holders' Admin Functions. */
export default function DashboardRoute() {
  return <DashboardPage adminFunctions={<AdminFunctions />} />;
}
