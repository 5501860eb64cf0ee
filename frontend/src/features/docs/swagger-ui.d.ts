// swagger-ui ships no types (the DefinitelyTyped package lags its releases): the part of its
// documented configuration and system that the /docs page uses.
declare module "swagger-ui" {
  import type { ComponentType } from "react";

  export interface SwaggerUIRequest {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    [key: string]: unknown;
  }

  export interface SwaggerUIOptions {
    url?: string;
    /** null: the caller renders `getComponent("App", "root")` itself. */
    domNode?: null;
    tryItOutEnabled?: boolean;
    validatorUrl?: string | null;
    deepLinking?: boolean;
    queryConfigEnabled?: boolean;
    persistAuthorization?: boolean;
    displayRequestDuration?: boolean;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
    syntaxHighlight?: { activated?: boolean; theme?: string } | false;
    requestInterceptor?: (request: SwaggerUIRequest) => SwaggerUIRequest | Promise<SwaggerUIRequest>;
    onComplete?: () => void;
  }

  /** Immutable.js maps, as swagger-ui's selectors return them. */
  interface ImmutableMap {
    getIn(path: string[]): unknown;
  }

  export interface SwaggerUISystem {
    getComponent(name: "App", container: "root"): ComponentType;
    preauthorizeApiKey(scheme: string, value: string): unknown;
    authActions: { logout(schemes: string[]): void };
    authSelectors: { authorized(): ImmutableMap };
    specSelectors: { specJson(): ImmutableMap };
  }

  export default function SwaggerUI(options: SwaggerUIOptions): SwaggerUISystem;
}
