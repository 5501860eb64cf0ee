import { Router } from "express";
import { openApiDocument } from "./openapiDocument";
import { declaredRoutes } from "./declared";

/** GET /api/openapi.json: the API's OpenAPI 3.1 document (server/src/routes/openapiDocument.ts), for /docs and integrators. Public. */
export function openApiRoutes(): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  on("GET /api/openapi.json", [], () => openApiDocument() as unknown as Record<string, unknown>);
  return router;
}
