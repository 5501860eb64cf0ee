import { useState } from "react";
import { SCENARIO_NAME, SCENARIO_NAME_RULE } from "@common/scenarios";
import { toast } from "@/components/ui/toast";
import { errorSentence } from "@/lib/api";
import { count } from "@/lib/format";
import { useTakeSnapshot } from "../api";

/** 'Take Snapshot': the name checked by the API's own rule before it is sent; the server's refusal shows under the field. */
export function useTakeSnapshotForm() {
  const take = useTakeSnapshot();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    if (take.isPending) return;
    const typed = name.trim();
    if (!typed) return setProblem("Enter a name for the snapshot.");
    if (!SCENARIO_NAME.test(typed)) return setProblem(`The name ${SCENARIO_NAME_RULE}.`);
    setProblem(null);
    try {
      const snapshot = await take.mutateAsync(typed);
      toast({
        title: "Snapshot taken",
        description: `'${snapshot.name}' at block ${count(snapshot.blockNumber)}: restore it to come back here.`,
      });
      setName("");
    } catch (error) {
      setProblem(errorSentence(error, "The snapshot was not taken."));
    }
  };

  return {
    name,
    setName: (value: string) => {
      setName(value);
      setProblem(null);
    },
    problem,
    busy: take.isPending,
    submit,
  };
}
