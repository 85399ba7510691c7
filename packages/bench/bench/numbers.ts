/** How the comparison prints numbers: thousands separated, a fixed number of decimals. */
export const fmt = (n: number, digits = 0): string => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
