import { useState, type FormEvent } from "react";
import { Globe, RotateCcw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { FieldError } from "@/components/ui/field-error";
import { useConfig } from "@/lib/config";
import { useRpcSettings } from "../hooks/useRpcSettings";

/** PRODUCT.md section 2: read-only Network and Chain ID, and the optional Custom RPC URL. */
export function NetworkCard() {
  const config = useConfig();
  const { customRpcUrl, checking, problem, clearProblem, save, reset } = useRpcSettings();
  const [input, setInput] = useState(customRpcUrl ?? "");

  const networkName = config.networkLabel + (config.network === "sepolia" ? " Testnet" : "");
  const readsFrom = customRpcUrl || config.rpcUrl;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(input);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Globe className="h-5 w-5 text-primary" aria-hidden />
          Network
        </CardTitle>
        <CardDescription>The chain this dashboard runs on, and where it reads it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="settings-network">Network</Label>
            <Input id="settings-network" value={networkName} readOnly className="bg-muted" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="settings-chain-id">Chain ID</Label>
            <Input id="settings-chain-id" value={String(config.chainId)} readOnly className="bg-muted font-mono" />
          </div>
        </div>

        <form onSubmit={submit} noValidate aria-busy={checking} className="grid gap-2">
          <Label htmlFor="settings-rpc-url">
            Custom RPC URL <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Input
            id="settings-rpc-url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={config.rpcUrl ?? "https://"}
            value={input}
            onChange={(e) => {
              setInput(e.target.value);
              if (problem) clearProblem();
            }}
            aria-invalid={problem !== null}
            aria-describedby={problem ? "settings-rpc-error settings-rpc-hint" : "settings-rpc-hint"}
            className="font-mono"
          />
          {problem && <FieldError id="settings-rpc-error">{problem.description}</FieldError>}
          <p id="settings-rpc-hint" className="text-xs text-muted-foreground">
            {readsFrom ? (
              <>
                Reads go to <span className="break-all font-mono">{readsFrom}</span> {customRpcUrl ? "(custom)" : "(default)"}.
              </>
            ) : (
              "Reads go through your connected wallet."
            )}{" "}
            A new URL must serve chain {config.chainId}.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button type="submit" disabled={checking}>
              {checking && <Spinner className="h-4 w-4 text-primary-foreground" label="Checking the RPC URL" />}
              {checking ? "Checking..." : "Save RPC Settings"}
            </Button>
            {customRpcUrl && (
              <Button
                type="button"
                variant="outline"
                disabled={checking}
                onClick={() => {
                  reset();
                  setInput("");
                }}
              >
                <RotateCcw className="h-4 w-4" aria-hidden />
                Reset to default
              </Button>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
