import { endpoints } from "./endpoint";

// Filled in by the batch group's conversion.
export const batchApi = endpoints({});
