/**
 * A y-axis's ticks at a round step that covers the data, as the dashboard's charts have always shown
 * them (recharts' getNiceTickValues): five ticks, the first and last the axis's ends, so 0 to 170,000
 * reads 0, 45K, 90K, 135K, 180K and 1.0 to 1.0143 reads 1.000x to 1.016x in steps of 0.004.
 */

export const TICK_COUNT = 5;

/** Without binary fractions' noise (6 * 0.05 is 0.30000000000000004). */
const tidy = (value: number) => Number(value.toPrecision(12));

/** The rough step rounded up to 2 significant digits in twentieths (tenths for single digits). */
function roundStep(rough: number): number {
  const digits = Math.floor(Math.log10(rough)) + 1; // 42,500 has 5; 0.003575 has -2
  const unit = 10 ** digits * (digits === 1 ? 0.1 : 0.05);
  // The small tolerance keeps a step that is already round (8.000000001 twentieths) from growing.
  return tidy(Math.ceil(rough / unit - 1e-9) * unit);
}

/** The axis's ends for data from min to max: a multiple of a round step below, TICK_COUNT - 1 steps above. */
export function niceRange(min: number, max: number): [number, number] {
  if (!(max > min)) {
    // One value: steps of 1 from 0 up, or around the value.
    if (min === 0) return [0, TICK_COUNT - 1];
    const step = roundStep(Math.abs(min) / (TICK_COUNT - 1));
    return [tidy(min - 2 * step), tidy(min + 2 * step)];
  }
  let step = roundStep((max - min) / (TICK_COUNT - 1));
  for (;;) {
    const start = tidy(Math.floor(min / step + 1e-9) * step);
    const end = tidy(start + step * (TICK_COUNT - 1));
    if (end >= max) return [start, end];
    step = roundStep(step * 1.05);
  }
}

/** TICK_COUNT ticks from one end of the axis to the other. */
export function evenTicks(min: number, max: number): number[] {
  return Array.from({ length: TICK_COUNT }, (_, i) => tidy(min + ((max - min) * i) / (TICK_COUNT - 1)));
}
