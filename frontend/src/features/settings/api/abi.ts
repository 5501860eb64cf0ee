/** The ABI download's file name (PRODUCT.md section 9). */
export const ABI_FILE_NAME = "usdxAbi.json";

/**
 * USDX's ABI as minified JSON, from the generated bindings (the one source of ABIs). Loaded on
 * demand: the factory pulls in ethers, which the Settings page does not otherwise need.
 */
export async function loadMinifiedAbi(): Promise<string> {
  const { USDX__factory } = await import("@bindings/factories/contracts/USDX__factory");
  return JSON.stringify(USDX__factory.abi);
}
