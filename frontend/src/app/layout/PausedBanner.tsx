import { PauseCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { useTokenFigures } from "@/lib/chain/queries";

/**
 * Above every signed-in screen while USDX is paused, so no one fills a form the contract will
 * refuse (a tester who applied the 'paused' scenario sees it at once). Read from the chain, as
 * Admin Functions' 'Contract paused' is, and refreshed with it after every write.
 */
export function PausedBanner() {
  const paused = useTokenFigures().data?.paused === true;
  if (!paused) return null;
  return (
    <Alert variant="info" role="status" aria-label="USDX is paused" className="mb-4 md:mb-6">
      <PauseCircle className="h-4 w-4" aria-hidden />
      <AlertTitle>USDX is paused</AlertTitle>
      <AlertDescription>No tokens can be transferred, minted or burned until a PAUSE_ROLE holder unpauses it.</AlertDescription>
    </Alert>
  );
}
