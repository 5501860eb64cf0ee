import path from "node:path";
import { types } from "hardhat/config";
import { LOG_CHUNK } from "../scripts/lib/network";
import { TaskError, guarded, logChunkParam, usdxScope } from "./usdx";

/*
 * `npx hardhat usdx adopt --proxy <address> --network <network>`: writes deployments/<network>.json
 * for a USDX proxy that is already on the chain, instead of deploying a new one. It only reads, so
 * it needs no deployer key, unless --deploy-batch-payments asks it to deploy the BatchPayments the
 * manifest needs (a token someone else deployed has none of ours): then it sends that one
 * transaction from the network's deployer. The logic is in scripts/lib/adopt.ts.
 */

usdxScope
  .task("adopt", "Write deployments/<network>.json for a USDX proxy already on the chain, read from the chain alone")
  .addParam("proxy", "The USDX proxy's address")
  .addOptionalParam(
    "batchPayments",
    "The BatchPayments bound to the proxy (checked); without it, adopt looks among the next contracts the proxy's deployer created and refuses if none is bound to the proxy",
  )
  .addFlag(
    "deployBatchPayments",
    "Deploy a BatchPayments bound to the proxy from the network's deployer (DEPLOYER_PRIVATE_KEY on sepolia) and write it in the manifest",
  )
  .addFlag(
    "force",
    "Replace a manifest that describes another proxy; with --deploy-batch-payments, deploy although one bound to the proxy exists",
  )
  .addOptionalParam("logChunk", logChunkParam, LOG_CHUNK, types.int)
  .setAction(
    async (args: { proxy: string; batchPayments?: string; deployBatchPayments: boolean; force: boolean; logChunk: number }, hre) => {
      const { adoptUSDX, formatAdoption } = await import("../scripts/lib/adopt");
      const { assertNetworkReady } = await import("../scripts/lib/network");
      if (args.logChunk < 1) throw new TaskError("--log-chunk must be at least 1.");
      await guarded(async () => {
        await assertNetworkReady(hre, { readOnly: !args.deployBatchPayments });
        let deployer;
        if (args.deployBatchPayments) {
          [deployer] = await hre.ethers.getSigners();
          if (!deployer) throw new TaskError(`Network '${hre.network.name}' has no account to deploy from (set DEPLOYER_PRIVATE_KEY).`);
        }
        const adoption = await adoptUSDX(hre.ethers.provider, {
          network: hre.network.name,
          proxy: args.proxy,
          batchPayments: args.batchPayments,
          deployer,
          force: args.force,
          logChunk: args.logChunk,
          log: console.log,
        });
        if (adoption.deployment) console.log("");
        console.log(formatAdoption(adoption));
        const replaced = adoption.replaced ? ` (it described ${adoption.replaced} before)` : "";
        console.log(`\nmanifest written to ${path.relative(process.cwd(), adoption.file)}${replaced}`);
      });
    },
  );
