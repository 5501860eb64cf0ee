/**
 * Text about the RPC node as the public may read it. A provider's RPC URL carries its API key in
 * the path or query (…/v3/<key>), and ethers puts the whole URL in its errors ("requestUrl"), which
 * the background loops keep as their lastError: only the URL's origin may leave the server.
 */
export function redactRpcUrl(text: string, rpcUrl: string): string {
  const url = new URL(rpcUrl);
  let out = text.split(rpcUrl).join(url.origin).split(url.href).join(url.origin);
  const secretPart = `${url.pathname}${url.search}`;
  if (secretPart !== "/") out = out.split(secretPart).join("/…");
  return out;
}
