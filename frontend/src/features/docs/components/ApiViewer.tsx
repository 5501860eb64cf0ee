import { useEffect, useRef, useState, type ComponentType } from "react";
import SwaggerUI, { type SwaggerUISystem } from "swagger-ui";
import "swagger-ui/dist/swagger-ui.css";
import { Spinner } from "@/components/ui/spinner";
import { currentIdToken } from "@/lib/api";
import { attachIdToken, bearer } from "../api/idToken";
import "./ApiViewer.css";

/** The server's OpenAPI document (same origin: the dashboard's server forwards /api). */
export const OPENAPI_URL = "/api/openapi.json";

/** The document's name for the Firebase ID token (an HTTP bearer scheme). */
export const SECURITY_SCHEME = "firebaseIdToken";

/**
 * Puts the signed-in user's token under Authorize, or takes the page's own copy away once signed
 * out. A token the person pasted there is theirs and stays.
 */
async function prefillAuthorize(system: SwaggerUISystem, prefilled: { current: string | null }): Promise<void> {
  const token = await currentIdToken();
  const shown = system.authSelectors.authorized().getIn([SECURITY_SCHEME, "value"]);
  if (typeof shown === "string" && bearer(shown) !== prefilled.current) return;
  if (token) {
    // null when the document has no such scheme: then there is nothing to fill.
    prefilled.current = system.preauthorizeApiKey(SECURITY_SCHEME, token) ? bearer(token) : null;
  } else {
    if (shown !== undefined) system.authActions.logout([SECURITY_SCHEME]);
    prefilled.current = null;
  }
}

/**
 * swagger-ui showing the server's OpenAPI document, with 'Try it out' sending the signed-in
 * user's ID token. `uid` is who is signed in: null when no one is, undefined until known.
 */
export function ApiViewer({ uid }: { uid: string | null | undefined }) {
  const prefilled = useRef<string | null>(null);
  // swagger-ui's system and its root component, made once (a component made during render would
  // be a new type each time, and React would remount the whole viewer).
  const [viewer, setViewer] = useState<{ system: SwaggerUISystem; Root: ComponentType } | null>(null);
  const system = viewer?.system ?? null;
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    const made = SwaggerUI({
      url: OPENAPI_URL,
      // Rendered below as a component of this page: swagger-ui's own mounting calls
      // react-dom's createRoot, which React 19 exports from react-dom/client only.
      domNode: null,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      // No badge image from the public validator: the page fetches nothing from the internet.
      validatorUrl: null,
      // The address bar configures nothing, and Authorize keeps no token in localStorage.
      queryConfigEnabled: false,
      persistAuthorization: false,
      requestInterceptor: (request) =>
        attachIdToken(request, { idToken: currentIdToken, prefilled: () => prefilled.current, origin: window.location.origin }),
      onComplete: () => setLoaded(true),
    });
    setViewer({ system: made, Root: made.getComponent("App", "root") });
  }, []);

  // Again whenever someone signs in or out (in this tab or another).
  useEffect(() => {
    if (system && loaded && uid !== undefined) void prefillAuthorize(system, prefilled);
  }, [system, loaded, uid]);

  const Root = viewer?.Root;
  return (
    <div className="api-viewer">
      {Root ? (
        <Root />
      ) : (
        <div className="flex justify-center p-8">
          <Spinner label="Loading the API description" />
        </div>
      )}
    </div>
  );
}
