import { endpoints } from "./endpoint";

// Filled in by the bank group's conversion.
export const bankApi = endpoints({});
