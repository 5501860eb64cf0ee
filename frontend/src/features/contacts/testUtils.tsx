import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { ConfigContext } from "@/lib/config";
import { testConfig } from "@/test/config";
import type { Contact } from "./api/contacts";

export const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export const contact = (
  id: number,
  name: string,
  address: string,
  notes: string | null = null,
  createdAt = new Date().toISOString(),
): Contact => ({
  id,
  name,
  address,
  notes,
  createdAt,
});

export interface Call {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

type Override = (call: Call) => Response | Promise<Response> | undefined;

/**
 * A stand-in for /api/contacts that behaves like the server: newest first, a case-insensitive
 * search over name, address and notes, 409 for an address already stored. `override` answers a call
 * first when it returns a Response (a failure, a slow answer, the export or import).
 */
export function fakeServer(initial: Contact[] = [], override?: Override) {
  const store = { contacts: [...initial], nextId: 100 };
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const call: Call = {
      method: init?.method ?? "GET",
      url,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      headers: (init?.headers as Record<string, string>) ?? {},
    };
    calls.push(call);
    const answer = override?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = new URL(url, "http://dashboard.test");
    const id = Number(pathname.split("/")[3]);
    if (call.method === "GET" && pathname === "/api/contacts") {
      const search = (searchParams.get("search") ?? "").toLowerCase();
      const found = store.contacts.filter((c) => [c.name, c.address, c.notes ?? ""].some((text) => text.toLowerCase().includes(search)));
      const offset = Number(searchParams.get("offset") ?? 0);
      const limit = Number(searchParams.get("limit") ?? 100);
      return json({ success: true, contacts: found.slice(offset, offset + limit), total: found.length });
    }
    if (call.method === "POST" && pathname === "/api/contacts") {
      const body = call.body as { name: string; address: string; notes: string };
      const existing = store.contacts.find((c) => c.address.toLowerCase() === body.address.toLowerCase());
      if (existing)
        return json(
          { success: false, error: `Duplicate address - ${body.address} is already in your contacts as '${existing.name}'` },
          409,
        );
      const added = contact(store.nextId++, body.name, body.address, body.notes || null);
      store.contacts.unshift(added);
      return json({ success: true, contact: added }, 201);
    }
    if (call.method === "PATCH") {
      const index = store.contacts.findIndex((c) => c.id === id);
      if (index < 0) return json({ success: false, error: "Contact not found - It may have been deleted" }, 404);
      const body = call.body as { name: string; address: string; notes: string };
      store.contacts[index] = { ...store.contacts[index], ...body, notes: body.notes || null };
      return json({ success: true, contact: store.contacts[index] });
    }
    if (call.method === "DELETE") {
      const index = store.contacts.findIndex((c) => c.id === id);
      if (index < 0) return json({ success: false, error: "Contact not found - It may have been deleted" }, 404);
      store.contacts.splice(index, 1);
      return json({ success: true, id });
    }
    return json({ success: false, error: `No such endpoint: ${call.method} ${pathname}` }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { store, calls, fetchMock, lists: () => calls.filter((c) => c.method === "GET" && c.url.startsWith("/api/contacts?")) };
}

export function renderPage(element: ReactNode) {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  const utils = render(
    <ConfigContext.Provider value={testConfig()}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/contacts"]}>{element}</MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, client, ...utils };
}

export const toasts = () => useToasts.getState().toasts;
export const lastToast = () => useToasts.getState().toasts[0];

export function resetAll() {
  useToasts.setState({ toasts: [] });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

/** A promise the test settles, to look at the busy state in between. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}
