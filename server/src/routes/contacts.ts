import { Router } from "express";
import type { Services } from "../services";

/** /api/contacts (to be built). */
export function contactRoutes(_services: Services): Router {
  return Router();
}
