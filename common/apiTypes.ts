/**
 * The API's records, as types: declared once, as zod schemas, in common/api/ (the API's declaration);
 * re-exported here for the server's services and the dashboard. Types only: the dashboard's bundle
 * carries no zod.
 */
export type {
  ContractEvent,
  TransferMoved,
  EventPage,
  HistoryEntry,
  HistoryPage,
  TokenInfo,
  RoleHolders,
  BlockedAccount,
  SupplyPoint,
  SafeVia,
} from "./api/token";
export type { Contact, ContactPage, ImportResult } from "./api/contacts";
export type { Holder, HolderPage, HolderSort, SortOrder, Rewards } from "./api/holders";
export type { MonitoredPart, PartHealth, MonitoringPoint, MonitoringAnswer, RpcBudgetStatus } from "./api/operations";
export type { DashboardConfig } from "./api/configuration";
export type { SessionUser } from "./api/signIn";
export type { AuditEntry } from "./api/administration";
export type { AlertRule, AlertAttempt, AlertDelivery } from "./api/alerts";
export type {
  RecipientField,
  JobStatus,
  ChunkStatus,
  RecipientStatus,
  RecipientProblem,
  ParsedRecipients,
  ChunkPlan,
  JobSummary,
  ChunkDetail,
  RecipientDetail,
} from "./api/batch";
export type {
  BankAccountType,
  DepositStatus,
  BankAccount,
  BankWallet,
  BankWalletChallenge,
  BankFaucetLimits,
  Deposit,
  BankTerms,
} from "./api/bank";
export type { ScenarioSummary, SnapshotSummary, ScenarioRun, RunKind, RunState } from "./api/scenarios";
