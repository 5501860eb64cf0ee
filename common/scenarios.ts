/**
 * A scenario's or a snapshot's name, for testers on the local chain: the one rule the API checks
 * (common/api/scenarios.ts) and the dashboard's Scenarios panel checks before it sends. What a
 * file name and a command-line argument carry safely. No imports: the dashboard bundles it.
 */
export const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** What a name must be, completing "the name ..." or a field's "name: ...". */
export const SCENARIO_NAME_RULE = "must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit";
