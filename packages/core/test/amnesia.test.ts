import { describe, expect, it } from "vitest";
import {
  amnesiaReport,
  amnesiaScore,
  extractIdentifiers,
  instructionSimilarity,
  missingFromSummary,
  RESTATE_SIMILARITY,
  summaryIdentifierCandidates,
  type AmnesiaFinding,
  type SessionEntry,
} from "../src/index";
import { A, AC, C, U, chain } from "./support/notation";

type Body = Parameters<typeof chain>[0];

let calls = 0;
/** an assistant calling one tool, and its result */
function call(name: string, args: Record<string, unknown>, output: string, isError = false): Body[] {
  const id = `t${++calls}`;
  return [
    AC([{ type: "toolCall", id, name, arguments: args }], undefined, "toolUse"),
    { type: "message", message: { role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: output }], isError, timestamp: 0 } },
  ];
}

const SUMMARY = "## Goal\nAdd a retry helper in src/retry.ts with exponential backoff.\n\n## Progress\n- [x] helper written, tests pass";

/**
 * A session whose summarized span reads src/retry.ts, searches once, fixes a failing test and states
 * an instruction; the kept part documents; `after` is what happens after the compaction.
 */
function session(after: Body[], spanExtra: Body[] = []): SessionEntry[] {
  const span: Body[] = [
    U("Add a retry helper with exponential backoff. Keep the public interface of the client unchanged."),
    ...call("read", { path: "src/retry.ts" }, "export function retry(fn) { return fn(); }"),
    ...call("bash", { command: "npm test" }, "Error: expected 3 retries but got 2\n    at retry.test.ts:12", true),
    ...call("edit", { path: "src/retry.ts", oldText: "return fn();", newText: "return withBackoff(fn);" }, "edited"),
    ...call("bash", { command: "npm test" }, "ok 12 tests passed"),
    ...spanExtra,
    A("The helper retries three times now."),
  ];
  const kept: Body[] = [U("Now write a short note in the README about it."), ...call("edit", { path: "README.md", oldText: "a", newText: "b" }, "edited"), A("Documented.")];
  const keptId = `e${span.length}`;
  return chain(...span, ...kept, C(SUMMARY, keptId, { details: { readFiles: [], modifiedFiles: ["README.md", "src/retry.ts"] } }), ...after);
}

const CLEAN_AFTER: Body[] = [U("Thanks. Next, add a changelog entry for this release."), ...call("write", { path: "CHANGELOG.md", content: "## 1.2.0\n- retries" }, "written"), A("Added the changelog entry.")];

function findingsOf(entries: SessionEntry[]): AmnesiaFinding[] {
  const report = amnesiaReport(entries);
  expect(report.compactions).toHaveLength(1);
  return report.compactions[0]!.findings;
}

const idOf = (entries: SessionEntry[], pred: (e: SessionEntry) => boolean) => entries.find(pred)?.id;
const text = (e: SessionEntry) => JSON.stringify(e);

describe("amnesia report", () => {
  it("a session without signs finds none (score 0)", () => {
    const entries = session(CLEAN_AFTER);
    expect(amnesiaReport(entries)).toEqual({ compactions: [{ compactionId: idOf(entries, (e) => e.type === "compaction"), score: 0, findings: [] }], prunings: [] });
  });

  it("reread: a file of the summarized span read again after the compaction", () => {
    const entries = session([U("Carry on with the next task please."), ...call("read", { path: "src/retry.ts" }, "export function retry"), A("ok")]);
    const findings = findingsOf(entries).filter((f) => f.kind === "reread");
    expect(findings).toHaveLength(1);
    const before = idOf(entries, (e) => text(e).includes('"read"') && text(e).includes("src/retry.ts"));
    const again = entries.filter((e) => text(e).includes('"name":"read"')).at(-1)?.id;
    expect(findings[0]!.entryIds).toEqual([before, again]);
    expect(findings[0]!.detail).toContain("src/retry.ts");
  });

  it("reread: a file listed in the summary's read files counts too; a re-read after changing it does not", () => {
    const listed = session([U("Carry on with the next task please."), ...call("read", { path: "docs/api.md" }, "the api"), A("ok")]).map((e) =>
      e.type === "compaction" ? ({ ...e, details: { readFiles: ["docs/api.md"], modifiedFiles: [] } } as SessionEntry) : e,
    );
    const found = findingsOf(listed).filter((f) => f.kind === "reread");
    expect(found.map((f) => f.entryIds[0])).toEqual([idOf(listed, (e) => e.type === "compaction")]);
    const changedFirst = session([
      U("Carry on with the next task please."),
      ...call("edit", { path: "src/retry.ts", oldText: "x", newText: "y" }, "edited"),
      ...call("read", { path: "src/retry.ts" }, "export function retry"),
      A("ok"),
    ]);
    expect(findingsOf(changedFirst).filter((f) => f.kind === "reread")).toEqual([]);
  });

  it("repeatedCall: the same tool call with the same arguments (keys in any order); routine calls of the span are not counted", () => {
    const entries = session(
      [U("Carry on with the next task please."), ...call("grep", { path: "src", pattern: "backoff" }, "src/retry.ts"), ...call("bash", { command: "npm test" }, "ok"), A("ok")],
      call("grep", { pattern: "backoff", path: "src" }, "none"),
    );
    const findings = findingsOf(entries).filter((f) => f.kind === "repeatedCall");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.detail).toContain("grep(");
    expect(findings[0]!.entryIds).toHaveLength(2);
  });

  it("recurringError: an error fixed in the span comes back after the compaction", () => {
    const entries = session([U("Carry on with the next task please."), ...call("bash", { command: "npm run test:all" }, "Error: expected 4 retries but got 2", true), A("hm")]);
    const findings = findingsOf(entries).filter((f) => f.kind === "recurringError");
    expect(findings).toHaveLength(1);
    const [error, fix, again] = findings[0]!.entryIds;
    expect(text(entries.find((e) => e.id === error)!)).toContain("expected 3 retries");
    expect(text(entries.find((e) => e.id === fix)!)).toContain("12 tests passed");
    expect(text(entries.find((e) => e.id === again)!)).toContain("expected 4 retries");
  });

  it(`restatedInstruction: a later user sentence at least ${RESTATE_SIMILARITY} similar to an instruction of the span`, () => {
    const entries = session([U("Please keep the public interface of the client unchanged this time."), A("Understood.")]);
    const findings = findingsOf(entries).filter((f) => f.kind === "restatedInstruction");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.entryIds).toEqual(["e0", entries.at(-2)!.id]);
    expect(findings[0]!.detail).toMatch(/similarity 0\.\d\d/);
  });

  it("droppedIdentifier: an identifier of the span used later and absent from the summary", () => {
    const entries = session(
      [U("Does withBackoff also cap the delay?"), A("Yes.")],
      call("read", { path: "src/delay.ts" }, "export const MAX_DELAY_MS = 30000;"),
    );
    const findings = findingsOf(entries).filter((f) => f.kind === "droppedIdentifier");
    expect(findings.map((f) => f.detail)).toEqual([expect.stringContaining("symbol withBackoff")]);
    expect(findings[0]!.entryIds[1]).toBe(entries.at(-2)!.id);
  });

  it("scores by the documented weights, capped at 5 findings per kind", () => {
    const f = (kind: AmnesiaFinding["kind"], n: number) => Array.from({ length: n }, () => ({ kind, entryIds: [], detail: "" }));
    expect(amnesiaScore([])).toBe(0);
    expect(amnesiaScore([...f("reread", 1), ...f("restatedInstruction", 1), ...f("droppedIdentifier", 9)])).toBe(2 + 3 + 5);
    expect(amnesiaScore([...f("recurringError", 2), ...f("repeatedCall", 1)])).toBe(6 + 2);
  });

  it("a pruning: outputs re-read or re-run after they were pruned", () => {
    const body: Body[] = [
      U("Look at the config loader."),
      ...call("read", { path: "src/config.ts" }, "x".repeat(100)),
      ...call("bash", { command: "cat package.json" }, "{}"),
      A("Seen."),
      U("Now change the default port."),
      ...call("read", { path: "src/config.ts" }, "again"),
      ...call("bash", { command: "cat package.json" }, "{}"),
      A("Changed."),
    ];
    const entries = chain(...body);
    // pruned before the second prompt (e6), after the reply e5
    const prunedAt = Date.parse(entries[5]!.timestamp) + 10;
    const pruned = entries.map((e, i) =>
      (i === 2 || i === 4) && e.type === "message" ? ({ ...e, message: { ...e.message, content: [{ type: "text", text: "[Output truncated - 25 tokens]" }], prunedAt } } as SessionEntry) : e,
    );
    const report = amnesiaReport(pruned);
    expect(report.compactions).toEqual([]);
    expect(report.prunings).toHaveLength(1);
    const p = report.prunings[0]!;
    expect(p).toMatchObject({ atEntryId: "e5", prunedAt, prunedEntryIds: ["e2", "e4"] });
    expect(p.findings.map((f) => [f.kind, f.entryIds])).toEqual([
      ["reread", ["e1", "e7"]],
      ["repeatedCall", ["e3", "e9"]],
    ]);
    expect(p.score).toBe(4);
  });

  it("a compaction on another branch is judged on the path to its newest leaf", () => {
    const entries = session([U("Carry on with the next task please."), ...call("read", { path: "src/retry.ts" }, "again"), A("ok")]);
    const c = entries.findIndex((e) => e.type === "compaction");
    // the session's leaf moves to a new branch from before the compaction
    const other = { ...(chain(U("Something else entirely for a change."))[0] as SessionEntry), id: "other", parentId: entries[2]!.id, timestamp: "2025-01-01T01:00:00.000Z" } as SessionEntry;
    const report = amnesiaReport([...entries, other], "other");
    expect(report.compactions[0]!.compactionId).toBe(entries[c]!.id);
    expect(report.compactions[0]!.findings.map((f) => f.kind)).toContain("reread");
  });
});

describe("identifiers, similarity and the summary check", () => {
  it("extracts paths, URLs, symbols and error codes", () => {
    const found = extractIdentifiers("See https://example.com/docs/a?b=1, edit ./src/core/tokens.ts and README.md; parseRetryAfter failed with TS2345 and ENOENT in MAX_DELAY_MS (snake_case_name).");
    const byKind = (k: string) => found.filter((i) => i.kind === k).map((i) => i.value);
    expect(byKind("url")).toEqual(["https://example.com/docs/a?b=1"]);
    expect(byKind("path")).toEqual(expect.arrayContaining(["./src/core/tokens.ts", "README.md"]));
    expect(byKind("symbol")).toEqual(expect.arrayContaining(["parseRetryAfter", "MAX_DELAY_MS", "snake_case_name"]));
    expect(byKind("errorCode")).toEqual(["TS2345", "ENOENT"]);
    expect(extractIdentifiers("and/or the cat sat")).toEqual([]);
  });

  it("similarity is the Dice coefficient of word bigrams, case and punctuation ignored", () => {
    expect(instructionSimilarity("Keep the API stable!", "keep the api stable")).toBe(1);
    expect(instructionSimilarity("run the tests", "deploy to production now")).toBe(0);
    expect(instructionSimilarity("a b c d", "a b x y")).toBeCloseTo((2 * 1) / 6);
  });

  it("the summary check: identifiers of the summarized part that the kept part uses and the summary lacks", () => {
    const entries = chain(
      U("Fix parseRetryAfter for HTTP dates."),
      ...call("read", { path: "src/retry-after.ts" }, "export function parseRetryAfter() {}"),
      U("Also check parseRetryAfter with src/retry-after.ts seconds values."),
    );
    const candidates = summaryIdentifierCandidates(entries.slice(0, 3), entries.slice(3));
    expect(candidates.map((c) => c.identifier.value).sort()).toEqual(["parseRetryAfter", "src/retry-after.ts"]);
    expect(missingFromSummary("Fixed retry-after.ts parsing.", candidates).map((c) => c.identifier.value)).toEqual(["parseRetryAfter"]);
    expect(missingFromSummary("parseRetryAfter in src/retry-after.ts", candidates)).toEqual([]);
  });
});
