import type { ReactNode } from "react";
import { errorSentence } from "@/lib/api";
import { Loading } from "./Loading";
import { LoadFailed } from "./LoadFailed";

/** What ReadStates needs of a TanStack query. */
export interface ReadQuery<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch(): unknown;
}

interface ReadStatesProps<T> {
  query: ReadQuery<T>;
  /** LoadFailed's title ('Could not load your wallets'). */
  failed: string;
  /** The failure in words: the server's sentence unless the screen names it otherwise. */
  sentence?: string;
  /** Loading's label ('Loading wallets'). */
  loading: string;
  isEmpty(data: T): boolean;
  /** Shown when the read found nothing (an EmptyState). */
  empty: ReactNode;
  children(data: T): ReactNode;
}

/**
 * A list read's states, in one order: failed before anything arrived (the sentence and Retry),
 * loading, empty, else the list. A later failure leaves what arrived on screen.
 */
export function ReadStates<T>({ query, failed, sentence, loading, isEmpty, empty, children }: ReadStatesProps<T>) {
  if (query.isError && query.data === undefined) {
    return (
      <LoadFailed
        title={failed}
        sentence={sentence ?? errorSentence(query.error, "Unknown error")}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (query.data === undefined) return <Loading label={loading} />;
  return <>{isEmpty(query.data) ? empty : children(query.data)}</>;
}
