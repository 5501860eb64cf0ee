import type { Chain } from "../chain";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";

/** The mock bank (to be built). */
export class MockBankService {
  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: Config["bank"],
    private readonly log: Logger,
  ) {}

  start(): void {}

  async stop(): Promise<void> {}
}
