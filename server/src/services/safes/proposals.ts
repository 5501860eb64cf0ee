import { and, asc, desc, eq, inArray, max, ne } from "drizzle-orm";
import { RPC_TIMEOUT_MS, type Chain } from "../../chain/client";
import type { Database } from "../../db/client";
import { safeApprovals, safeProposals } from "../../db/schema";
import { within } from "../../lib/concurrency";
import { badRequest, conflict, notFound, unavailable } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { SafeAlerts } from "../alerts/safeEvents";
import type { AuditService } from "../auth/audit";
import type { SessionUser } from "../auth/firebaseAuth";
import { changesSince } from "./changes";
import { checkSafeTx, ownerOf, safeWords, type CheckedProposal } from "./checks";
import type { SafeReader, SafeState } from "./reader";
import { reconcile } from "./reconcile";
import { claimChunk, findChunk, simulateChunk, type ChunkTarget } from "./batchChunks";
import { SAFE_ENDED_SHOWN, type SafeInfo, type SafeProposal } from "@common/api/safes";
import { describeError, isCallException } from "@common/contractErrors";
import { safeTxHash, type SafeTx } from "@common/safe";
import { multiSendCallOnlyOf } from "@common/safeDeployments";
import { describeSafeCall } from "@common/safeCalls";
import { shortHash } from "@common/wording";

type ProposalRow = typeof safeProposals.$inferSelect;
type ApprovalRow = typeof safeApprovals.$inferSelect;

/**
 * Admin writes proposed to a Safe that holds USDX roles (docs/architecture/safes.md): proposals and
 * owners' signatures are stored; approvals are counted against the owners and threshold at the
 * latest block on every answer; what became of each is reconciled from the chain (reconcile.ts)
 * whenever a Safe's proposals are read or written. The server holds no key and sends nothing: an
 * owner's wallet executes.
 */
export class SafesService {
  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly reader: SafeReader,
    private readonly audit: AuditService,
    private readonly chainId: number,
    private readonly log: Logger,
    /** 'safe' alert rules' deliveries, made in the transaction that stores each step. */
    private readonly alerts: SafeAlerts,
  ) {}

  /** GET /api/safes: every Safe that holds a USDX role, as read at the latest block. */
  async safes(): Promise<SafeInfo[]> {
    const safes = await this.reader.list();
    return Promise.all(
      safes.map(async (safe) => {
        await this.reconcile(safe);
        return this.info(safe);
      }),
    );
  }

  /** Whether `address` is a Safe GET /api/safes shows (or the manifest names): its reads are shared, not counted per user. */
  known(address: string): Promise<boolean> {
    return this.reader.known(address);
  }

  /** GET /api/safes/:safe/proposals: every pending proposal by nonce, then the newest that ended. */
  async proposals(address: string): Promise<{ safe: SafeInfo; proposals: SafeProposal[] }> {
    const safe = await this.requireSafe(address, "show");
    await this.reconcile(safe);
    const mine = this.ofSafe(safe);
    const [pending, ended] = await Promise.all([
      this.db
        .select()
        .from(safeProposals)
        .where(and(mine, eq(safeProposals.state, "pending")))
        .orderBy(asc(safeProposals.nonce), asc(safeProposals.proposedAt)),
      this.db
        .select()
        .from(safeProposals)
        .where(and(mine, ne(safeProposals.state, "pending")))
        .orderBy(desc(safeProposals.nonce), desc(safeProposals.proposedAt))
        .limit(SAFE_ENDED_SHOWN),
    ]);
    return { safe: await this.info(safe), proposals: await this.answers(safe, [...pending, ...ended]) };
  }

  /** POST /api/safes/:safe/proposals: checks, simulates and stores a proposal with its proposer's signature. */
  async propose(user: SessionUser, address: string, input: { tx: SafeTx; signature: string }): Promise<SafeProposal> {
    const safe = await this.requireSafe(address, "propose");
    await this.reconcile(safe);
    const pending = await this.db
      .selectDistinct({ nonce: safeProposals.nonce })
      .from(safeProposals)
      .where(and(this.ofSafe(safe), eq(safeProposals.state, "pending")));
    const { manifest } = this.chain;
    const targets = { token: manifest.proxy, batchPayments: manifest.batchPayments, multiSendCallOnly: multiSendCallOnlyOf(manifest) };
    const checked = checkSafeTx(input.tx, safe, targets, new Set(pending.map((p) => p.nonce)));
    const hash = safeTxHash(this.chainId, safe.address, checked.tx);
    const proposer = ownerOf(hash, input.signature, safe, this.chainId);
    if (await this.find(safe, hash)) throw conflict(`This proposal was already made (${shortHash(hash)}): approve it instead.`);
    // A batch chunk's payment: the chunk it pays, checked against its job's plan (batchChunks.ts).
    const chunk: ChunkTarget | null = checked.kind === "batch" ? await findChunk(this.db, safe, checked.chunk) : null;
    const description =
      checked.kind === "batch"
        ? await simulateChunk(this.chain, safe, checked.tx, checked.chunk, chunk!)
        : await this.describe(safe, checked);

    const row = await this.db.transaction(async (tx) => {
      if (chunk) await claimChunk(tx as unknown as Database, chunk);
      const [stored] = await tx
        .insert(safeProposals)
        .values({
          safeTxHash: hash,
          chainId: this.chainId,
          safe: safe.address.toLowerCase(),
          ...checked.tx,
          nonce: Number(checked.tx.nonce),
          description,
          proposer,
          proposedBlock: safe.blockNumber,
          thresholdAtProposal: safe.threshold,
          batchJobId: chunk?.jobId ?? null,
          batchChunk: chunk?.index ?? null,
        })
        .onConflictDoNothing()
        .returning();
      // Two owners proposing the same SafeTx at once: the second hears what it would have a moment later.
      if (!stored) throw conflict(`This proposal was already made (${shortHash(hash)}): approve it instead.`);
      await tx.insert(safeApprovals).values({ safeTxHash: hash, owner: proposer, signature: input.signature.toLowerCase() });
      await this.alerts.proposed(tx, safe, stored);
      return stored;
    });
    await this.audit.record(user, "safe-proposal", {
      safe: safe.address,
      safeTxHash: hash,
      nonce: checked.tx.nonce,
      description,
      proposer,
    });
    return (await this.answers(safe, [row]))[0];
  }

  /** POST /api/safes/:safe/proposals/:hash/approvals: adds a current owner's signature to a pending proposal. */
  async approve(user: SessionUser, address: string, hashInput: string, signature: string): Promise<SafeProposal> {
    const safe = await this.requireSafe(address, "approve");
    await this.reconcile(safe);
    const hash = hashInput.toLowerCase();
    const row = await this.find(safe, hash);
    if (!row) throw notFound(`There is no proposal ${shortHash(hash)} of ${safeWords(safe)}.`);
    if (row.state !== "pending") throw conflict(await this.endedSentence(safe, row));
    const owner = ownerOf(hash, signature, safe, this.chainId);
    const added = await this.db.transaction(async (tx) => {
      const [added] = await tx
        .insert(safeApprovals)
        .values({ safeTxHash: hash, owner, signature: signature.toLowerCase() })
        .onConflictDoNothing()
        .returning();
      if (added) await this.alerts.approved(tx, safe, row, owner);
      return added;
    });
    if (!added) throw conflict(`${owner} already approved this proposal.`);
    await this.audit.record(user, "safe-approval", { safe: safe.address, safeTxHash: hash, nonce: String(row.nonce), owner });
    return (await this.answers(safe, [row]))[0];
  }

  /**
   * The Safe at `address`, or a 404: it must be a Safe, and to take a proposal it must hold a USDX
   * role (one that lost its roles still shows the proposals it has). To show its proposals it is
   * read as of the indexer's head (cached); to write, at the latest block, and what was cached of
   * it is dropped, so the next listing is no older than what the write saw.
   */
  private async requireSafe(address: string, purpose: "show" | "approve" | "propose"): Promise<SafeState> {
    const safe = purpose === "show" ? await this.reader.cached(address) : await this.reader.read(address);
    if (purpose !== "show") this.reader.forget(address);
    if (safe === "no code") throw notFound(`${address} is not a Safe on this chain: it has no contract code.`);
    if (safe === "not a Safe")
      throw notFound(`${address} is not a Safe on this chain: it does not answer getOwners, getThreshold and VERSION as a Safe does.`);
    if (safe === "old version")
      throw notFound(
        `${address} is a Safe older than version 1.3, which signs its transactions another way: the dashboard cannot take its proposals.`,
      );
    if (safe.roles.length > 0) return safe;
    const stored = purpose !== "propose" && (await this.db.select().from(safeProposals).where(this.ofSafe(safe)).limit(1)).length > 0;
    if (!stored) throw notFound(`${safe.address} holds no USDX role, so there is nothing a Safe proposal here could ask it to do.`);
    return safe;
  }

  /** What became of the Safe's proposals; a change found drops the Safe's cached reads (the server learnt of it first). */
  private async reconcile(safe: SafeState): Promise<void> {
    if (await reconcile(this.db, this.chain, this.chainId, safe, this.log, this.alerts)) this.reader.forget(safe.address);
  }

  private ofSafe(safe: SafeState) {
    return and(eq(safeProposals.chainId, this.chainId), eq(safeProposals.safe, safe.address.toLowerCase()));
  }

  private async find(safe: SafeState, hash: string): Promise<ProposalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(safeProposals)
      .where(and(this.ofSafe(safe), eq(safeProposals.safeTxHash, hash)));
    return row;
  }

  /** The Safe as GET /api/safes shows it; nextNonce is past the Safe's nonce and every pending proposal. */
  private async info(safe: SafeState): Promise<SafeInfo> {
    const [{ highest }] = await this.db
      .select({ highest: max(safeProposals.nonce) })
      .from(safeProposals)
      .where(and(this.ofSafe(safe), eq(safeProposals.state, "pending")));
    const queued = highest === null ? 0n : BigInt(highest) + 1n;
    return {
      address: safe.address,
      name: safe.name,
      owners: safe.owners,
      threshold: safe.threshold,
      nonce: safe.nonce.toString(),
      roles: safe.roles,
      nextNonce: (queued > safe.nonce ? queued : safe.nonce).toString(),
    };
  }

  /**
   * Simulates a call as the Safe at the block read (eth_call from the Safe to USDX): a call the token
   * would refuse is a 400 with the contract's reason in words. Then it is described, with the
   * multiplier of that block for a multiplier change.
   */
  private async describe(safe: SafeState, checked: CheckedProposal): Promise<string> {
    const where = { token: this.chain.manifest.proxy, safe: safe.address };
    if (checked.kind !== "call") return describeSafeCall(checked.tx, where);
    const blockTag = safe.blockNumber;
    try {
      await within(
        this.chain.provider.call({ from: safe.address, to: checked.tx.to, data: checked.tx.data, blockTag }),
        RPC_TIMEOUT_MS,
        "no answer",
      );
    } catch (error) {
      if (isCallException(error)) throw badRequest(`USDX would refuse this call from ${safeWords(safe)}: ${describeError(error)}`);
      throw unavailable("Cannot simulate the proposal: the chain's RPC node is not answering. Try again shortly.");
    }
    const multiplier = checked.call.name.endsWith("RewardMultiplier") ? await this.chain.usdx.rewardMultiplier({ blockTag }) : null;
    return describeSafeCall(checked.tx, { ...where, multiplier });
  }

  /** Why a proposal that ended takes no approval, in words. */
  private async endedSentence(safe: SafeState, row: ProposalRow): Promise<string> {
    const tx = row.executedTx ? ` (transaction ${shortHash(row.executedTx)})` : "";
    if (row.state === "executed") return `This proposal was already executed${tx}.`;
    if (row.state === "failed") return `This proposal was already executed and its call failed${tx}: its nonce is used.`;
    const [winner] = await this.db
      .select({ safeTxHash: safeProposals.safeTxHash, description: safeProposals.description })
      .from(safeProposals)
      .where(and(this.ofSafe(safe), eq(safeProposals.nonce, row.nonce), inArray(safeProposals.state, ["executed", "failed"])));
    return winner
      ? `This proposal was replaced by ${shortHash(winner.safeTxHash)} ('${winner.description}'), executed at nonce ${row.nonce}.`
      : `This proposal was replaced by another transaction of the Safe at nonce ${row.nonce}.`;
  }

  /** Proposals as answered: approvals recounted against the owners and threshold read at the latest block. */
  private async answers(safe: SafeState, rows: ProposalRow[]): Promise<SafeProposal[]> {
    if (rows.length === 0) return [];
    const approvals = await this.db
      .select()
      .from(safeApprovals)
      .where(
        inArray(
          safeApprovals.safeTxHash,
          rows.map((r) => r.safeTxHash),
        ),
      )
      .orderBy(asc(safeApprovals.approvedAt), asc(safeApprovals.owner));
    const byProposal = new Map<string, ApprovalRow[]>();
    for (const a of approvals) byProposal.set(a.safeTxHash, [...(byProposal.get(a.safeTxHash) ?? []), a]);
    const owners = new Set(safe.owners);
    return rows.map((row) => {
      const signed = (byProposal.get(row.safeTxHash) ?? []).map((a) => ({
        owner: a.owner,
        signature: a.signature,
        approvedAt: a.approvedAt.toISOString(),
        current: owners.has(a.owner),
      }));
      return {
        safe: safe.address,
        safeTxHash: row.safeTxHash,
        tx: {
          to: row.to,
          value: row.value,
          data: row.data,
          operation: row.operation,
          safeTxGas: row.safeTxGas,
          baseGas: row.baseGas,
          gasPrice: row.gasPrice,
          gasToken: row.gasToken,
          refundReceiver: row.refundReceiver,
          nonce: String(row.nonce),
        },
        description: row.description,
        proposer: row.proposer,
        proposedAt: row.proposedAt.toISOString(),
        state: row.state as SafeProposal["state"],
        approvals: signed,
        confirmations: signed.filter((a) => a.current).length,
        threshold: safe.threshold,
        executedBy: row.executedTx,
        changes: changesSince(row, signed, safe),
      };
    });
  }
}
