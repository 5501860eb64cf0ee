import { Play } from "lucide-react";
import { EmptyState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ScenarioSummary } from "../api";

/** The scenarios shipped in scenarios/, each with its sentence and 'Apply' (which asks first). */
export function ScenarioList({
  scenarios,
  busy,
  onApply,
}: {
  scenarios: ScenarioSummary[];
  /** A run is under way: nothing else may start. */
  busy: boolean;
  onApply(scenario: ScenarioSummary): void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Shipped scenarios</CardTitle>
        <CardDescription>
          Applying one sends only the transactions needed to reach its state; applying it again sends nothing.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {scenarios.length === 0 ? (
          <EmptyState icon={<Play />} title="No scenarios shipped" hint="Scenario files go in the repository's scenarios/ folder." />
        ) : (
          <ul aria-label="Shipped scenarios" className="divide-y divide-border">
            {scenarios.map((scenario) => (
              <li
                key={scenario.name}
                className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="grid min-w-0 gap-1">
                  <p className="font-medium">{scenario.name}</p>
                  <p className="text-sm text-muted-foreground">{scenario.description}</p>
                  <p className="font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">{scenario.file}</p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  className="shrink-0 self-start sm:self-center"
                  aria-label={`Apply ${scenario.name}`}
                  disabled={busy}
                  onClick={() => onApply(scenario)}
                >
                  <Play className="h-4 w-4" aria-hidden />
                  Apply
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
