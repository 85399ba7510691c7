import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionParser, forEachLine, parseSessionText } from "../src/index";

const HEADER = `{"type":"session","id":"abc","timestamp":"2025-01-01T00:00:00Z","cwd":"/p"}`;
const entry = (id: string): string => `{"type":"message","id":"${id}","parentId":null,"timestamp":"t","message":{"role":"user","content":"${id}","timestamp":1}}`;

describe("parseSessionText with { lines: true }", () => {
  it("gives each entry's line number and text, parallel to entries, around blank, CRLF, corrupt and skipped lines", () => {
    const text = `\uFEFF${HEADER}\r\n\n  \t \n${entry("m1")}\r\nnot json\n42\n${HEADER}\n${entry("m2")}\n\r\n${entry("m3")}\n{"type":"message","id":"m4"`;
    const p = parseSessionText(text, { lines: true });
    expect(p.entries.map((e) => e.id)).toEqual(["m1", "m2", "m3"]);
    expect(p.entryLines).toEqual([4, 8, 10]);
    expect(p.entryTexts).toEqual([entry("m1"), entry("m2"), entry("m3")]);
    expect(p.entryTexts.map((t) => JSON.parse(t))).toEqual(p.entries);
    expect(p.headerLine).toBe(1);
    expect(p.headerText).toBe(HEADER);
    expect(p.issues.map((i) => [i.line, i.kind])).toEqual([
      [5, "invalid-json"],
      [6, "not-an-object"],
      [7, "extra-header"],
      [11, "truncated-line"],
    ]);
  });

  it("returns exactly what the plain parse returns, plus the line fields", () => {
    const text = `${HEADER}\nbad\n${entry("a")}\n[1]\n${entry("b")}`;
    const plain = parseSessionText(text);
    const withLines = parseSessionText(text, { lines: true });
    expect({ header: withLines.header, entries: withLines.entries, issues: withLines.issues }).toStrictEqual(plain);
    expect(Object.keys(plain).sort()).toEqual(["entries", "header", "issues"]);
  });

  it("agrees with forEachLine on which lines exist and their numbers", () => {
    const text = `${HEADER}\n\n${entry("a")}\r\n   \n${entry("b")}\n\n`;
    const seen: [number, string][] = [];
    forEachLine(text, (line, no) => void seen.push([no, line]));
    const p = parseSessionText(text, { lines: true });
    expect(seen).toEqual([
      [p.headerLine, p.headerText],
      ...p.entryLines.map((no, i): [number, string] => [no, p.entryTexts[i] as string]),
    ]);
  });

  it("has no lines when the text is not a session", () => {
    const notSession = parseSessionText(`${entry("a")}\n${entry("b")}\n`, { lines: true });
    expect(notSession.header).toBeNull();
    expect(notSession.entries).toEqual([]);
    expect(notSession.entryLines).toEqual([]);
    expect(notSession.entryTexts).toEqual([]);
    expect(notSession.headerLine).toBe(0);
    expect(notSession.issues[0]).toMatchObject({ line: 1, kind: "missing-header" });
    const empty = parseSessionText("\n\n", { lines: true });
    expect(empty.issues).toEqual([expect.objectContaining({ line: 0, kind: "empty" })]);
    expect(empty.headerText).toBe("");
  });
});

describe("SessionParser: the text pushed in pieces", () => {
  const messy = `\uFEFF${HEADER}\r\n\n  \t \n${entry("m1")}\r\nnot json\n42\n${HEADER}\n${entry("é✓😀")}\n\r\n${entry("m3")}\n{"type":"message","id":"m4"`;

  function pushed(text: string, cuts: number[], lines: boolean): ReturnType<typeof parseSessionText> {
    const parser = new SessionParser({ lines });
    let from = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      parser.push(text.slice(from, cut));
      from = cut;
    }
    parser.push(text.slice(from));
    return parser.end();
  }

  it("any single cut gives what the whole text gives (line numbers, issues, entries, line texts)", () => {
    for (const text of [messy, `${HEADER}\n${entry("a")}\n`, `${entry("a")}\n${HEADER}\n`, "\n\n", `${HEADER}\r`]) {
      const whole = parseSessionText(text, { lines: true });
      for (let cut = 0; cut <= text.length; cut++) expect(pushed(text, [cut], true), `cut at ${cut}`).toStrictEqual(whole);
    }
  });

  it("property: any number of cuts anywhere gives the same result", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: messy.length }), { maxLength: 12 }), fc.boolean(), (cuts, lines) => {
        expect(pushed(messy, cuts, lines)).toStrictEqual(parseSessionText(messy, { lines }));
      }),
      { numRuns: 300 },
    );
  });

  it("a rejected file stops reading; push after end is a mistake", () => {
    const parser = new SessionParser();
    parser.push(`${entry("a")}\n`);
    parser.push(`${HEADER}\n${entry("b")}\n`);
    const result = parser.end();
    expect(result.header).toBeNull();
    expect(result.issues).toEqual([expect.objectContaining({ line: 1, kind: "missing-header" })]);
    expect(() => parser.push("x")).toThrow(/after end/);
    expect(parser.end()).toStrictEqual(result);
  });
});
