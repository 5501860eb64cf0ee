import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import { API, type Api, type EndpointKey } from "@common/api";
import { type AnswerOf, type Endpoint, type InputOf, type OtherAnswerOf, splitKey } from "@common/api/endpoint";
import { parse } from "../middleware/validate";

/** Where in a route's middleware its input is validated; by default just before the handler. */
export const VALIDATE = Symbol("validate");

type Handler<K extends EndpointKey> = (
  input: InputOf<Api[K]>,
  res: Response,
  req: Request,
) => Api[K]["answer"] extends { contentType: string } ? Promise<void> | void : Promise<Reply<Api[K]>> | Reply<Api[K]>;
type Reply<E> = AnswerOf<E> | OtherAnswerOf<E>;

/**
 * Mounts declared endpoints (common/api) on a router mounted at `base` ('/api/contacts'): each
 * route's path comes from its declaration, its input is validated by the declared schemas, and a
 * JSON answer is whatever the handler returns, typed by the declared answer. A text answer (CSV,
 * Prometheus) is the handler's to send.
 */
export function declaredRoutes(router: Router, base: string) {
  return function on<K extends EndpointKey>(key: K, middleware: (RequestHandler | typeof VALIDATE)[], handler: Handler<K>): void {
    const endpoint: Endpoint = API[key];
    const { method, path } = splitKey(key);
    if (!path.startsWith(base)) throw new Error(`${key} is declared outside ${base}: mount it on its own router`);
    const local = path.slice(base.length) || "/";

    const validate: RequestHandler = (req, res, next) => {
      res.locals.input = {
        params: endpoint.params ? parse(endpoint.params, req.params, "path") : {},
        query: endpoint.query ? parse(endpoint.query, req.query, "query") : {},
        body: endpoint.body ? parse(endpoint.body, req.body, "body") : undefined,
      };
      next();
    };
    const answer = async (req: Request, res: Response, next: NextFunction) => {
      try {
        const result = await handler(res.locals.input as InputOf<Api[K]>, res, req);
        if ("contentType" in endpoint.answer) return;
        if (endpoint.noStore) res.setHeader("Cache-Control", "no-store");
        // A handler may set a declared other status first (GET /api/health's 503 report).
        if (res.statusCode === 200) res.status(endpoint.status ?? 200);
        res.json(result);
      } catch (error) {
        next(error);
      }
    };
    const chain = middleware.includes(VALIDATE) ? middleware.map((m) => (m === VALIDATE ? validate : m)) : [...middleware, validate];
    router[method.toLowerCase() as "get" | "post" | "patch" | "delete"](local, ...(chain as RequestHandler[]), answer);
  };
}
