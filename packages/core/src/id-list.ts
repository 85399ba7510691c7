/**
 * A list of entry ids held either as an array or as the text a store reads it as: the ids' JSON
 * strings joined by IdList.SEPARATOR (SQLite's group_concat(json_quote(id), ...): one string for
 * tens of thousands of ids, or its UTF-8 bytes, which a writer passes on as they are). Its length is known without the ids, the ids are made only when asked
 * for, and it prints exactly as JSON.stringify prints the array — through toJSON anywhere, and as
 * the text itself through prettyJson when the text is already what JSON.stringify would print.
 */
export class IdList {
  /**
   * What JSON.stringify(value, null, 2) puts between the items of an array that is a field of the
   * top object (a report's id list): a store joins the ids by it, so that they print as read.
   */
  static readonly SEPARATOR = ",\n    ";

  private constructor(
    readonly length: number,
    private ids: string[] | undefined,
    private readonly items: JsonText | undefined,
  ) {}

  /** the ids of a list given either way, as an array (the array itself when it is one) */
  static array(list: string[] | IdList): string[];
  static array(list: readonly string[] | IdList): readonly string[];
  static array(list: readonly string[] | IdList): readonly string[] {
    return list instanceof IdList ? list.toArray() : list;
  }

  static of(ids: string[]): IdList {
    return new IdList(ids.length, ids, undefined);
  }

  /** `items`: the JSON strings of `length` ids (any escaping JSON allows), joined by IdList.SEPARATOR (text, or its UTF-8 bytes) */
  static fromJsonItems(items: JsonText, length: number): IdList {
    return length === 0 ? IdList.of([]) : new IdList(length, undefined, items);
  }

  /**
   * An IdList as a structured clone gives it back (posted between threads: its fields without its
   * class), rebuilt; an IdList is given back as it is.
   */
  static fromClone(value: IdList): IdList {
    if (value instanceof IdList) return value;
    const { length, ids, items } = value as unknown as { length: unknown; ids?: unknown; items?: unknown };
    if (Array.isArray(ids)) return IdList.of(ids as string[]);
    if (typeof length === "number" && (typeof items === "string" || items instanceof Uint8Array)) return IdList.fromJsonItems(items, length);
    if (length === 0) return IdList.of([]);
    throw new TypeError("not an id list");
  }

  toArray(): string[] {
    // the separator is a comma and JSON whitespace: the items in brackets are a JSON array
    this.ids ??= JSON.parse(`[${textOf(this.items as JsonText)}]`) as string[];
    return this.ids;
  }

  toJSON(): string[] {
    return this.toArray();
  }

  /**
   * JSON.stringify(ids, null, 2) with every line after the first indented by `indent` more (what the
   * array prints as inside a pretty-printed object). Items read with nothing escaped in them (no
   * backslash: no quote, backslash or control character in any id, so each item is what
   * JSON.stringify gives for its id) that are joined as the array prints at this depth are the text.
   */
  prettyJson(indent = ""): string {
    return this.prettyJsonParts(indent).map(textOf).join("");
  }

  /**
   * prettyJson in parts, whose concatenation it is: the items read as the text stay one string of
   * their own, so that a writer passes them on without copying them into a longer one.
   */
  prettyJsonParts(indent = ""): JsonText[] {
    if (this.length === 0) return ["[]"];
    const item = `\n${indent}  `;
    const items = this.items;
    if (this.ids === undefined && items !== undefined && `,${item}` === IdList.SEPARATOR && !hasBackslash(items)) return [`[${item}`, items, `\n${indent}]`];
    return [
      `[${item}${this.toArray()
        .map((id) => JSON.stringify(id))
        .join(`,${item}`)}\n${indent}]`,
    ];
  }
}

/** JSON text, as a string or as its UTF-8 bytes */
export type JsonText = string | Uint8Array;

// the platform's decoder (Node and browsers): core's own build names no platform
declare const TextDecoder: new () => { decode(bytes: Uint8Array): string };
const utf8 = new TextDecoder();

/** the text of JSON text given either way */
export function textOf(text: JsonText): string {
  return typeof text === "string" ? text : utf8.decode(text);
}

function hasBackslash(text: JsonText): boolean {
  return typeof text === "string" ? text.includes("\\") : text.includes(0x5c);
}
