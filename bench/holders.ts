/**
 * Holders bench (`npm run bench:holders`): with 100,000 holders on the chain (real batch payments
 * to fresh addresses, indexed as the server always indexes, so every figure is the chain's own), how
 * fast GET /api/holders answers a page: the first one (the fold replays every Transfer and sorts),
 * steady pages (first, deepest, each sort, searches), a page just after a new Transfer (the fold
 * applies one block and sorts again), and how long GET /api/holders/export takes for all of them.
 * Loopback only; prints figures. BENCH_HOLDERS (default 100000) sets a smaller run for a quick look.
 */
import { JsonRpcProvider } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import type { HolderPage } from "@common/apiTypes";
import { loadConfig } from "../server/src/config";
import { startServer } from "../server/src/index";
import { createLogger } from "../server/src/lib/logger";
import { emailUser } from "../server/test/helpers";
import { startStack, type Stack } from "../server/test/stack";
import { formatTable } from "@common/textTable";
import { payFreshAddresses } from "./lib/payments";
import { benchServerEnv } from "./lib/serverEnv";
import { time } from "./lib/timing";

const HOLDERS = Number(process.env.BENCH_HOLDERS || 100_000);
const RECIPIENTS_PER_TX = 500;
const RUNS = 100;
const GROWN_RUNS = 10;
const EXPORT_RUNS = 3;

async function main() {
  console.log("Starting a Hardhat node (deployed and seeded) and the Auth emulator...");
  const stack: Stack = await startStack();
  try {
    // The user first: the emulator closes an idle connection, and paying takes minutes.
    (globalThis as { usdxStack?: Stack }).usdxStack = stack;
    const { idToken } = await emailUser();
    const provider = new JsonRpcProvider(stack.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack.deploymentsDir });
    const payer = await provider.getSigner(0); // the seeded admin holds 100,000 USDX
    const usdx = USDX__factory.connect(manifest.proxy, payer);

    const txs = Math.ceil(HOLDERS / RECIPIENTS_PER_TX);
    console.log(`Paying ${(txs * RECIPIENTS_PER_TX).toLocaleString("en-US")} fresh addresses in ${txs} batch payments...`);
    let t = Date.now();
    await payFreshAddresses(payer, manifest, {
      txs,
      perTx: RECIPIENTS_PER_TX,
      reference: "holders",
      amount: (i, j) => BigInt(1e12) + BigInt(i * RECIPIENTS_PER_TX + j),
    });
    console.log(`  paid in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const config = loadConfig(benchServerEnv(stack));
    const server = await startServer(config, createLogger("silent"));
    try {
      t = Date.now();
      await server.services.indexer.syncOnce();
      console.log(`  indexed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${idToken}` } });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res;
      };
      const page = async (query: string) => (await (await get(`/api/holders?${query}`)).json()) as HolderPage;

      t = Date.now();
      const first = await page("");
      const coldMs = Date.now() - t;
      const count = first.holderCount;
      // The answer is the chain's: a sample of rows against balanceOf.
      for (const h of (await page("limit=500&offset=1000")).holders.slice(0, 50)) {
        if ((await usdx.balanceOf(h.address)).toString() !== h.balance) throw new Error(`${h.address}: the page and balanceOf differ`);
      }
      const deepest = Math.max(0, count - 50);
      const queries: [string, string][] = [
        ["first page, largest balance first", ""],
        [`deepest page (offset ${deepest.toLocaleString("en-US")})`, `offset=${deepest}`],
        ["first page by address", "sort=address"],
        ["a deep page by last activity", `sort=lastActivity&order=asc&offset=${Math.floor(count / 2)}`],
        ["prefix search 0xab (about 1 in 256)", "search=0xab"],
        ["hex search 'abc1' anywhere", "search=abc1"],
        ["500 rows a page", "limit=500"],
      ];
      const rows: string[][] = [];
      for (const [label, query] of queries) {
        const { p50, p95 } = await time(RUNS, () => page(query));
        rows.push([label, p50.toFixed(2), p95.toFixed(2)]);
      }
      // A new Transfer makes a new generation: the fold applies its block, the next page sorts again.
      const holder = (await page("limit=1")).holders[0].address;
      const grown = await time(
        GROWN_RUNS,
        () => page(""),
        async () => {
          await (await usdx.transfer(holder, 1n)).wait();
          await server.services.indexer.syncOnce();
        },
      );
      rows.push(["first page after a new Transfer", grown.p50.toFixed(2), grown.p95.toFixed(2)]);

      let bytes = 0;
      const exported = await time(EXPORT_RUNS, async () => {
        bytes = (await (await get("/api/holders/export")).text()).length;
      });
      rows.push([`export, every holder (${(bytes / 1024 / 1024).toFixed(1)} MB)`, exported.p50.toFixed(0), exported.p95.toFixed(0)]);

      console.log(
        `\nGET /api/holders at ${count.toLocaleString("en-US")} holders (over HTTP; ms, ${RUNS} runs a page, ${GROWN_RUNS} after growth, ${EXPORT_RUNS} exports)\n`,
      );
      console.log(`first page, cold (the fold replays every Transfer and the balance order is sorted): ${coldMs} ms\n`);
      console.log(formatTable(["measured", "p50", "p95"], rows));
    } finally {
      await server.close();
    }
    provider.destroy();
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
