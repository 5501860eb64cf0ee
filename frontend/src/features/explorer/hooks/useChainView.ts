import { useQuery } from "@tanstack/react-query";
import { useConfig, type AppConfig } from "@/lib/config";
import { useRpcSetting } from "@/lib/chain/rpc";
import { useWallet, type Eip1193Provider } from "@/lib/wallet/store";

/** A pending transaction is looked at again this often until it is mined. */
export const PENDING_POLL_MS = 2000;

interface ReadSource {
  config: AppConfig;
  rpcUrl: string | null;
  wallet: Eip1193Provider | null;
  canRead: boolean;
}

/** Where reads go: the Custom RPC URL, else the configured RPC, else the connected wallet. */
export function useReadSource(): ReadSource {
  const config = useConfig();
  const custom = useRpcSetting((s) => s.customRpcUrl);
  const wallet = useWallet((s) => (s.status === "connected" ? s.provider : null));
  const rpcUrl = custom || config.rpcUrl;
  return { config, rpcUrl, wallet, canRead: rpcUrl !== null || wallet !== null };
}

// ethers, the bindings and the decoding load with the first read, not with the app.
async function open(source: ReadSource) {
  const [contracts, reads] = await Promise.all([import("@/lib/chain/contracts"), import("../api/reads")]);
  return { provider: contracts.readProvider(source.config, source.rpcUrl, source.wallet), reads };
}

export function useTransactionView(hash: string) {
  const source = useReadSource();
  return useQuery({
    queryKey: ["chain", "tx", hash],
    enabled: source.canRead,
    queryFn: async () => {
      const { provider, reads } = await open(source);
      return reads.readTransaction(provider, source.config, hash);
    },
    refetchInterval: (query) => (query.state.data?.status === "pending" ? PENDING_POLL_MS : false),
  });
}

export function useBlockView(number: number) {
  const source = useReadSource();
  return useQuery({
    queryKey: ["chain", "block", number],
    enabled: source.canRead,
    queryFn: async () => {
      const { provider, reads } = await open(source);
      return reads.readBlock(provider, source.config, number);
    },
  });
}
