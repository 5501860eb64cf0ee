import { administrationApi } from "./administration";
import { alertsApi } from "./alerts";
import { bankApi } from "./bank";
import { batchApi } from "./batch";
import { configurationApi } from "./configuration";
import { contactsApi } from "./contacts";
import { exportsApi } from "./exports";
import { holdersApi } from "./holders";
import { operationsApi } from "./operations";
import { safesApi } from "./safes";
import { scenariosApi } from "./scenarios";
import { signInApi } from "./signIn";
import { tokenApi } from "./token";

/**
 * Every endpoint of the API, keyed "METHOD /api/path": the one declaration the server routes
 * through (server/src/routes/declared.ts), the dashboard types its calls with (lib/api.ts, types
 * only) and the OpenAPI document is generated from (common/api/openapi.ts). In the docs' order.
 */
export const API = {
  ...operationsApi,
  ...configurationApi,
  ...tokenApi,
  ...holdersApi,
  ...exportsApi,
  ...signInApi,
  ...administrationApi,
  ...alertsApi,
  ...safesApi,
  ...batchApi,
  ...contactsApi,
  ...bankApi,
  ...scenariosApi,
};
export type Api = typeof API;
export type EndpointKey = keyof Api;
