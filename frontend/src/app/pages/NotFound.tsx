import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">There is no page at this address.</p>
      <Button asChild>
        <Link to="/">Back to the Dashboard</Link>
      </Button>
    </main>
  );
}
