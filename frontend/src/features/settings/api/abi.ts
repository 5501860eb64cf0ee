/** The ABI download's file name (spec section 9). */
export const ABI_FILE_NAME = "usdxAbi.json";

/**
 * USDX's ABI as minified JSON, from the generated bindings (the one source of ABIs). Loaded on
 * demand: the factory pulls in ethers, which the Settings page does not otherwise need.
 */
export async function loadMinifiedAbi(): Promise<string> {
  const { USDX__factory } = await import("../../../../../typechain-types/factories/contracts/USDX__factory");
  return JSON.stringify(USDX__factory.abi);
}

/** Saves `text` as a file through a temporary download link. */
export function downloadTextFile(text: string, fileName: string, type = "application/json"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns; free the blob once they have it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
