/**
 * Walking a JSON value for the redactor: every string value and every object key becomes a slot
 * to scan; a string that holds JSON is decoded and walked in turn. The walk returns how to build the
 * redacted copy once each slot's `out` is set. A string value whose key says what it holds
 * (`SecretAccessKey`, `password`, `Authorization`) is scanned a second time with its key before it
 * (`"SecretAccessKey": "…"`), so rules that need the name see it; the plain scan keeps `^` at the
 * string's start.
 */

/** One way of reading a slot: the text with what stands around it. */
export interface SlotContext {
  prefix: string;
  suffix: string;
}

export interface Slot {
  text: string;
  contexts: SlotContext[];
  /** the redacted text, set before the copy is built */
  out: string;
}

export type Build = () => unknown;

const PLAIN: SlotContext = { prefix: "", suffix: "" };
/** keys worth reading with their value */
const TELLING_KEY = /pass|pwd|secret|token|key|auth|cred|cookie|session|sig|private|bearer|webhook|dsn|conn|url|uri/i;

function decodedJson(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

function addSlot(slots: Slot[], text: string, key?: string): number {
  const contexts = key !== undefined && TELLING_KEY.test(key) ? [PLAIN, { prefix: `"${key}": "`, suffix: '"' }] : [PLAIN];
  return slots.push({ text, contexts, out: text }) - 1;
}

/** deeper than this, a value is scanned as its JSON text (walking it would exhaust the stack) */
const MAX_DEPTH = 256;

/** A value nested too deep to walk, scanned as its JSON text: the redacted copy holds that text. */
function asText(value: object, slots: Slot[]): Build {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new Error(`a session holds a value nested more than ${MAX_DEPTH} levels deep that cannot be read; nothing of it was sent`);
  }
  const at = addSlot(slots, text);
  return () => slots[at]?.out;
}

/** thrown inside JSON decoded from a string that nests too deep: the string is then scanned as text */
const TOO_DEEP = new Error("too deep");

function planDecoded(json: object, text: string, slots: Slot[], depth: number): Build | undefined {
  const first = slots.length;
  let build: Build;
  try {
    build = planRedaction(json, slots, undefined, depth + 1, true);
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
    slots.length = first;
    return undefined;
  }
  const last = slots.length;
  // written back only when something inside was taken out: otherwise byte for byte as it was
  return () => {
    const inner = build();
    return slots.slice(first, last).some((s) => s.out !== s.text) ? JSON.stringify(inner) : text;
  };
}

/** Registers every string and key of `value` as a slot; returns how to build the redacted copy. */
export function planRedaction(value: unknown, slots: Slot[], key?: string, depth = 0, decoded = false): Build {
  if (typeof value === "string") {
    const json = decodedJson(value);
    const build = json && planDecoded(json, value, slots, depth);
    if (build) return build;
    const at = addSlot(slots, value, key);
    return () => slots[at]?.out;
  }
  if (value !== null && typeof value === "object" && depth > MAX_DEPTH) {
    if (decoded) throw TOO_DEEP;
    return asText(value, slots);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => planRedaction(item, slots, undefined, depth + 1, decoded));
    return () => items.map((build) => build());
  }
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([name, item]) => ({ at: addSlot(slots, name), build: planRedaction(item, slots, name, depth + 1, decoded) }));
    return () => {
      const copy: Record<string, unknown> = {};
      for (const field of fields) {
        const base = slots[field.at]?.out as string;
        let name = base;
        for (let n = 2; Object.hasOwn(copy, name); n++) name = `${base} #${n}`;
        Object.defineProperty(copy, name, { value: field.build(), enumerable: true, writable: true, configurable: true });
      }
      return copy;
    };
  }
  return () => value;
}
