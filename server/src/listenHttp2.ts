import type { IncomingMessage, ServerResponse } from "node:http";
import { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import express, { type Express } from "express";

/**
 * Express 5 over Node's HTTP/2 compatibility API, for the TLS listener (listen.ts). Express does not
 * support HTTP/2 (expressjs/express#6580; its maintainers mean to, through this same compatibility
 * API: #6487): it sets each request's prototype to its own, which extends http.IncomingMessage, and
 * an Http2ServerRequest read through that fails ("Cannot read properties of undefined (reading
 * 'readable')"). So an HTTP/2 request gets Express's methods over Node's HTTP/2 request and
 * response instead, and the places where the app reads what only HTTP/1.1 has are bridged below.
 *
 * Why no package: http2-express (which replaces the unmaintained http2-express-bridge) patches
 * express.application for every app in the process, must build the app itself, and leaves both
 * gaps below open.
 */

/** The listener for the TLS server: HTTP/1.1 requests straight to the app, HTTP/2 ones through the bridge. */
export function http2Compatible(
  app: Express,
): (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void {
  // The app as Express's handle() reads it, with request and response prototypes over HTTP/2's.
  // (The app mounts routers only: an Express sub-app would set its own, HTTP/1.1, prototypes.)
  const overHttp2 = Object.create(app) as Express & { request: object; response: object; handle: ExpressHandle };
  const own = { configurable: true, enumerable: true, writable: true, value: overHttp2 };
  overHttp2.request = Object.create(expressOver(Http2ServerRequest.prototype, express.request), { app: own });
  overHttp2.response = Object.create(expressOver(Http2ServerResponse.prototype, express.response, HTTP1_RESPONSE), { app: own });

  return (req, res) => {
    if (!(req instanceof Http2ServerRequest)) return app(req as IncomingMessage, res as ServerResponse);
    // HTTP/2 frames a body itself, so a request may carry one with neither Content-Length nor
    // Transfer-Encoding, the HTTP/1.1 headers by which the body parsers (type-is's hasBody) know
    // there is one: without this, such a JSON or CSV body would be read as none.
    if (!req.stream.endAfterHeaders && req.headers["content-length"] === undefined) req.headers["transfer-encoding"] = "chunked";
    overHttp2.handle(req, res as Http2ServerResponse);
  };
}

type ExpressHandle = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

/** What the app reads of an HTTP/1.1 response that Http2ServerResponse does not have, or has otherwise. */
const HTTP1_RESPONSE: PropertyDescriptorMap = {
  // An export stops reading when its client has gone (server/src/lib/csv.ts): the stream says so.
  destroyed: {
    configurable: true,
    get(this: Http2ServerResponse) {
      return this.stream.destroyed;
    },
  },
};

/** A prototype with Express's methods (`methods`' own properties) and `more`, over `base`. */
function expressOver(base: object, methods: object, more: PropertyDescriptorMap = {}): object {
  return Object.create(base, { ...Object.getOwnPropertyDescriptors(methods), ...more });
}
