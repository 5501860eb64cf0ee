/** The one set of a read's states: loading, failed with Retry, and empty. */
export { EmptyState } from "./EmptyState";
export { Loading } from "./Loading";
export { LoadFailed } from "./LoadFailed";
export { ReadStates } from "./ReadStates";
