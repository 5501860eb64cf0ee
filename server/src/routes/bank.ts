import { Router } from "express";
import type { Services } from "../services";

/** /api/bank (to be built). */
export function bankRoutes(_services: Services): Router {
  return Router();
}
