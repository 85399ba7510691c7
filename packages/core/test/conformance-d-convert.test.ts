import { describe, expect, it } from "vitest";
import {
  PROMPT_FILES,
  TemplateError,
  convertToLlm,
  formatOutputNotice,
  normalizeLayout,
  renderPrompt,
  renderTemplate,
  templatePlaceholders,
  type AgentMessage,
  type ImageContent,
  type LlmMessage,
  type ToolResultMessage,
} from "../src/index";

const IMG: ImageContent = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };

function only(messages: AgentMessage[]): LlmMessage {
  const out = convertToLlm(messages);
  expect(out).toHaveLength(1);
  return out[0] as LlmMessage;
}

function textOf(m: LlmMessage): string {
  const block = (m.content as { type: string; text?: string }[])[0];
  return block?.text ?? "";
}

const bash = (over: Record<string, unknown>) => ({ role: "bashExecution", command: "ls -la", output: "", cancelled: false, truncated: false, timestamp: 5, ...over }) as AgentMessage;
const python = (over: Record<string, unknown>) => ({ role: "pythonExecution", code: "print(1)", output: "", cancelled: false, truncated: false, timestamp: 5, ...over }) as AgentMessage;

describe("D. convertToLlm and templates", () => {
  it("case 37: bash with a non-zero exit code", () => {
    const out = only([bash({ output: "a\nb", exitCode: 2 })]);
    expect(out).toEqual({ role: "user", content: [{ type: "text", text: "Ran `ls -la`\n```\na\nb\n```\n\nCommand exited with code 2" }], timestamp: 5 });
  });

  it("case 38: bash cancelled without output", () => {
    expect(textOf(only([bash({ command: "sleep 9", cancelled: true })]))).toBe("Ran `sleep 9`\n(no output)\n\n(command cancelled)");
  });

  it("case 39: excluded executions are dropped", () => {
    expect(convertToLlm([bash({ excludeFromContext: true }), python({ excludeFromContext: true })])).toEqual([]);
  });

  it("case 40: python", () => {
    expect(textOf(only([python({ output: "1", exitCode: 0 })]))).toBe("Ran Python:\n```python\nprint(1)\n```\nOutput:\n```\n1\n```");
    expect(textOf(only([python({ exitCode: 3 })]))).toBe("Ran Python:\n```python\nprint(1)\n```\n(no output)\n\nExecution failed with code 3");
    expect(textOf(only([python({ cancelled: true, exitCode: 3 })]))).toContain("\n\n(execution cancelled)");
  });

  it("case 41: custom and hookMessage become user messages", () => {
    expect(only([{ role: "custom", customType: "t", content: "hello", display: true, timestamp: 1 }])).toEqual({
      role: "user",
      content: [{ type: "text", text: "hello" }],
      timestamp: 1,
    });
    const arr = [{ type: "text" as const, text: "hm" }, IMG];
    expect(only([{ role: "hookMessage", customType: "t", content: arr, display: true, timestamp: 2 }]).content).toEqual(arr);
  });

  it("case 42: compaction template normalisation", () => {
    const text = textOf(only([{ role: "compactionSummary", summary: "  line\n\n\n\nnext  ", tokensBefore: 1, timestamp: 1 }]));
    expect(text.endsWith("\n\n<summary>\n\tline\n\nnext\n</summary>")).toBe(true);
    const preamble = text.slice(0, text.indexOf("\n\n<summary>"));
    expect(preamble).not.toContain("\n");
    expect(preamble.length).toBeGreaterThan(100);
  });

  it("case 43: branch template; the summary's own {{x}} stays literal", () => {
    const text = textOf(only([{ role: "branchSummary", summary: "ROOTSUM", fromId: "e0", timestamp: 1 }]));
    expect(text).toMatch(/^[^\n]+:\n\n<summary>\nROOTSUM\n<\/summary>$/);
    const literal = textOf(only([{ role: "branchSummary", summary: "S {{x}}", fromId: "e0", timestamp: 1 }]));
    expect(literal).toContain("<summary>\nS {{x}}\n</summary>");
  });

  it("case 44: file mention", () => {
    const out = only([{ role: "fileMention", files: [{ path: "a.ts", content: "code" }, { path: "b.png", content: "", image: IMG }], timestamp: 3 }]);
    expect(out.content).toEqual([
      { type: "text", text: '<system-reminder>\n<file path="a.ts">\ncode\n</file>\n\n<file path="b.png">\n</file>\n</system-reminder>' },
      IMG,
    ]);
  });

  it("case 45: pruned tool results", () => {
    const base: ToolResultMessage = { role: "toolResult", toolCallId: "c", toolName: "bash", content: [IMG], isError: false, timestamp: 1 };
    expect(only([{ ...base, prunedAt: 5 }]).content).toEqual([{ type: "text", text: "[Output truncated]" }]);
    const mixed = [{ type: "text" as const, text: "a" }, IMG, { type: "text" as const, text: "b" }];
    const pruned = only([{ ...base, content: mixed, prunedAt: 5 }]);
    expect(pruned.content).toEqual([{ type: "text", text: "ab" }]);
    expect((pruned as ToolResultMessage).toolCallId).toBe("c");
    expect(only([{ ...base, content: mixed }]).content).toBe(mixed);
  });

  it("user and assistant messages pass through as the same object; unknown roles are dropped", () => {
    const u: AgentMessage = { role: "user", content: "x", timestamp: 1, synthetic: true };
    const out = convertToLlm([u, { role: "mystery", timestamp: 1 } as unknown as AgentMessage]);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(u);
  });

  it("output notice from meta", () => {
    expect(formatOutputNotice(undefined)).toBe("");
    expect(
      formatOutputNotice({
        truncation: { truncatedBy: "bytes", totalLines: 900, outputLines: 120, outputBytes: 51200, maxBytes: 51200, shownRange: { start: 1, end: 120 }, nextOffset: 121 },
      }),
    ).toBe("\n\n[Showing lines 1-120 of 900 (50.0KB limit). Use offset=121 to continue]");
    expect(
      formatOutputNotice({
        truncation: { truncatedBy: "lines", totalLines: 10, outputLines: 4, artifactId: "7" },
        limits: { matchLimit: { reached: 100, suggestion: 200 }, columnTruncated: { maxColumn: 500 } },
        diagnostics: { summary: "1 error", messages: ["a.ts:1 bad", "a.ts:2 worse"] },
      }),
    ).toBe(
      "\n\n[Showing 4 of 10 lines. Full: artifact://7. 100 matches limit reached. Use limit=200 for more. Some lines truncated to 500 chars]\n\nLSP Diagnostics (1 error):\n  a.ts:1 bad\n  a.ts:2 worse",
    );
    const text = textOf(only([bash({ output: "x", exitCode: 0, meta: { limits: { resultLimit: { reached: 5, suggestion: 10 } } } })]));
    expect(text).toBe("Ran `ls -la`\n```\nx\n```\n\n[5 results limit reached. Use limit=10 for more]");
  });
});

describe("templates: rendering and layout normalisation", () => {
  it("normalises line endings, NBSP, trailing blanks, indentation, blank runs, and trims", () => {
    expect(normalizeLayout("\r\n  a\r\n   b\u00a0 \r\n\t  c\n \t d\n   \n\n\n\ne  ")).toBe("a\n\t b\n\t\tc\n \t d\n\ne");
    expect(normalizeLayout("y\n    x")).toBe("y\n\t\tx");
    expect(normalizeLayout("x\n\n\ny")).toBe("x\n\ny");
  });

  it("a missing placeholder is an error naming it", () => {
    expect(() => renderTemplate("Hi {{name}} and {{ other }}", { name: "n" }, "greeting")).toThrow(TemplateError);
    expect(() => renderTemplate("Hi {{name}} and {{ other }}", { name: "n" }, "greeting")).toThrow("greeting: no value for placeholder {{other}}");
    expect(renderTemplate("Hi {{ name }}!", { name: "{{name}}" })).toBe("Hi {{name}}!");
    expect(templatePlaceholders("{{a}} {{b}} {{a}}")).toEqual(["a", "b"]);
  });

  it("both context templates exist with the single {{summary}} placeholder", () => {
    for (const name of ["compaction-summary-context", "branch-summary-context"] as const) {
      expect(templatePlaceholders(PROMPT_FILES[name])).toEqual(["summary"]);
      expect(renderPrompt(name, { summary: "S" }).endsWith("\n\n<summary>\nS\n</summary>")).toBe(true);
    }
    expect(() => renderPrompt("compaction-summary-context")).toThrow(TemplateError);
  });
});
