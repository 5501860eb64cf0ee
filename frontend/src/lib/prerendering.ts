import { createContext, useContext } from "react";

/**
 * True while a screen is rendered at build time into a page of its own (src/prerender.tsx): the
 * same file for everyone, made before the server's configuration or the visitor is known. What
 * shows either leaves its place empty then; the app, rendering over the page, fills it in.
 */
export const Prerendering = createContext(false);

export const usePrerendering = () => useContext(Prerendering);
