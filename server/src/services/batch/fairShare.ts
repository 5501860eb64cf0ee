import type { batchChunks } from "../../db/schema";

type Chunk = typeof batchChunks.$inferSelect;
/** A reported chunk the RPC pass may look at, with its job's owner and payer. */
export type Reported = Chunk & { uid: string; payer: string | null };

/**
 * Which reported chunks a step of the batch watcher looks up on the node: at most `size`, round
 * robin: one chunk per user in turn (the user served longest ago first), within a user one chunk
 * per job in turn (likewise), within a job the chunk looked up longest ago first. A user with
 * hundreds of reports costs a step no more than anyone else, and cannot hold another user's chunk
 * back. The watcher decides what a chunk's transaction means; this only decides whose turn it is.
 */
export class FairShare {
  /** The step that last looked up a reported chunk (job:index), one of a job's, one of a user's: the round robin's memory. */
  private readonly served = { chunk: new Map<string, number>(), job: new Map<string, number>(), user: new Map<string, number>() };

  constructor(private readonly size: number) {}

  /** Step `step`'s share of `reported` (every chunk reported and not yet decided). */
  pick(reported: Reported[], step: number): Reported[] {
    const chunkKey = (c: Chunk) => `${c.jobId}:${c.index}`;
    const served = this.served;
    const at = (map: Map<string, number>, key: string) => map.get(key) ?? 0;
    // Forget what is no longer reported, so the memory stays the size of the work.
    const live = {
      chunk: new Set(reported.map(chunkKey)),
      job: new Set(reported.map((c) => c.jobId)),
      user: new Set(reported.map((c) => c.uid)),
    };
    for (const kind of ["chunk", "job", "user"] as const)
      for (const key of served[kind].keys()) if (!live[kind].has(key)) served[kind].delete(key);

    const users = new Map<string, Map<string, Reported[]>>();
    for (const chunk of reported) {
      const jobs = users.get(chunk.uid) ?? new Map<string, Reported[]>();
      users.set(chunk.uid, jobs);
      const list = jobs.get(chunk.jobId) ?? [];
      jobs.set(chunk.jobId, list);
      list.push(chunk);
    }
    const queues = [...users.entries()]
      .sort(([a], [b]) => at(served.user, a) - at(served.user, b) || a.localeCompare(b))
      .map(([uid, jobs]) => ({
        uid,
        jobs: [...jobs.entries()]
          .sort(([a], [b]) => at(served.job, a) - at(served.job, b) || a.localeCompare(b))
          .map(([, chunks]) => chunks.sort((a, b) => at(served.chunk, chunkKey(a)) - at(served.chunk, chunkKey(b)) || a.index - b.index)),
      }));

    const picked: Reported[] = [];
    while (picked.length < this.size && queues.some((q) => q.jobs.length > 0)) {
      for (const user of queues) {
        if (picked.length >= this.size) break;
        const job = user.jobs.shift();
        if (!job) continue;
        const chunk = job.shift()!;
        picked.push(chunk);
        if (job.length > 0) user.jobs.push(job);
        served.user.set(chunk.uid, step);
        served.job.set(chunk.jobId, step);
        served.chunk.set(chunkKey(chunk), step);
      }
    }
    return picked;
  }
}
