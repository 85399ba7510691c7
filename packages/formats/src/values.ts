/** Small helpers to read untrusted JSON values (never throw). */

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The objects of an array value (other items skipped). */
export function objs(value: unknown): Obj[] {
  return arr(value).filter(isObj);
}

/** One line of at most `max` characters (white space runs become one space). */
export function oneLine(text: string, max = 160): string {
  const head = text.length > max * 2 ? text.slice(0, max * 2) : text;
  const flat = head.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A timestamp as ISO text: ISO strings as given, epoch seconds or milliseconds converted. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === "string" && value.length > 0 && !Number.isNaN(Date.parse(value))) return value;
  const n = num(value);
  if (n === undefined) return undefined;
  return new Date(n < 1e12 ? n * 1000 : n).toISOString();
}

/** Milliseconds of an ISO timestamp (0 when unparsable). */
export function millis(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}
