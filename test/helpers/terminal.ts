/** ESC, the control character that starts each of a terminal's colour codes. */
const ESC = "\u001b";

/** A colour code (ESC [ n;…;n m), as Hardhat writes them when its output is coloured. */
const COLOUR_CODE = new RegExp(`${ESC}\\[[0-9;]*m`, "g");

/** `text` without its colour codes: the sentences as a reader sees them. */
export function withoutColours(text: string): string {
  return text.replace(COLOUR_CODE, "");
}
