/**
 * The Codex reader on the real rollouts of ../shared/fixtures/real/codex: every fact of the README's
 * table, the byte-identical round trip, token usage, compactions (both shapes) and the rollback.
 */
import { buildIndex, buildSessionContext, getPath, type CompactionEntry, type MessageEntry, type SessionEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { agentEventOf, codexReader, detectFormat, originalText, sourceLines, type AgentEventEntry } from "../src/index";
import { REAL_FILES, readReal, realFile, realLines } from "./support/real-files";
import { branchPoints, coveredLines, range, roots } from "./support/tree-checks";

interface Facts {
  prefix: string;
  lines: number;
  compactions: number;
  /** session_meta lines after the first */
  resumes: number;
  rollbacks: number;
  finalNewline: boolean;
  model: string;
  thinking: string;
  parentThread?: string;
}

const FACTS: Facts[] = [
  { prefix: "EntityProcess__agentv__00_34f597b72d_1", lines: 861, compactions: 2, resumes: 0, rollbacks: 0, finalNewline: true, model: "gpt-5.3-codex-spark", thinking: "high" },
  { prefix: "ta93abe__me__0e_9c08d8603f_0", lines: 704, compactions: 1, resumes: 1, rollbacks: 0, finalNewline: false, model: "gpt-5.5", thinking: "xhigh" },
  { prefix: "ta93abe__me__1b_d3b5f272f9_0", lines: 332, compactions: 0, resumes: 8, rollbacks: 1, finalNewline: false, model: "gpt-5.6-sol", thinking: "high" },
  { prefix: "entireio__external-agents__2f_9ea0aa2380_0", lines: 1548, compactions: 0, resumes: 0, rollbacks: 0, finalNewline: true, model: "gpt-5.4", thinking: "medium" },
  { prefix: "iampkuhz__feipi-session-browser", lines: 15, compactions: 0, resumes: 0, rollbacks: 0, finalNewline: true, model: "gpt-5.5", thinking: "medium", parentThread: "019ede24-67de-7b11-b46f-7922530907a9" },
  { prefix: "ta93abe__me__4a_c67b9b3296_0", lines: 367, compactions: 0, resumes: 0, rollbacks: 0, finalNewline: true, model: "gpt-5.6-sol", thinking: "low" },
];

const MESSAGE_ITEMS = new Set(["message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call"]);

function messageOf(e: SessionEntry): MessageEntry["message"] | undefined {
  return e.type === "message" ? (e as MessageEntry).message : undefined;
}

function lineOf(e: SessionEntry): Record<string, unknown> {
  return JSON.parse((sourceLines(e)[0] as { text: string }).text) as Record<string, unknown>;
}

describe.skipIf(REAL_FILES.codex.length === 0)("Codex rollouts (real files)", () => {
  it("the README's table names every file here", () => {
    expect(FACTS.map((f) => realFile("codex", f.prefix)).sort()).toEqual(REAL_FILES.codex);
  });

  for (const facts of FACTS) {
    describe(facts.prefix, () => {
      const name = realFile("codex", facts.prefix);
      const text = readReal("codex", name);
      const lines = realLines("codex", name);
      const session = codexReader.read(text);
      const index = buildIndex(session.entries);

      it("is titled by the first prompt the user typed (the first event_msg/user_message), not Codex's instructions", () => {
        const typed = lines.find((l) => l.type === "event_msg" && (l.payload as { type?: unknown }).type === "user_message")?.payload as { message?: string } | undefined;
        const expected = typed?.message?.replace(/\s+/g, " ").trim();
        if (expected === undefined || expected === "") {
          expect(session.title).toBeNull();
          return;
        }
        expect(session.title).toBe(expected.length > 120 ? `${expected.slice(0, 119)}…` : expected);
        expect(session.header.title).toBe(session.title);
      });

      it("is detected as Codex and gives the file back byte for byte", () => {
        expect(detectFormat(text).reader?.format).toBe("codex");
        expect(session.stats.lines).toBe(facts.lines);
        expect(text.endsWith("\n")).toBe(facts.finalNewline);
        expect(coveredLines(session)).toEqual(range(facts.lines));
        expect(Buffer.from(originalText(session), "utf8").equals(Buffer.from(text, "utf8"))).toBe(true);
      });

      it("is one session across resumes, with one header from the first session_meta", () => {
        const metas = lines.filter((l) => l.type === "session_meta");
        expect(metas).toHaveLength(facts.resumes + 1);
        expect(new Set(metas.map((m) => (m.payload as { id: string }).id)).size).toBe(1);
        expect(session.stats.resumes).toBe(facts.resumes);
        expect(session.header).toMatchObject({ id: (metas[0]?.payload as { id: string }).id, cwd: (metas[0]?.payload as { cwd: string }).cwd, agent: "codex" });
        expect(roots(session.entries)).toHaveLength(1);
      });

      it("makes response items messages and events metadata", () => {
        for (const e of session.entries) {
          if (sourceLines(e).length === 0) continue;
          const line = lineOf(e);
          const payload = line.payload as { type?: string };
          if (line.type === "response_item" && MESSAGE_ITEMS.has(payload.type ?? "")) expect(e.type, JSON.stringify(payload).slice(0, 80)).toBe("message");
          else if (line.type === "compacted") expect(e.type).toBe("compaction");
          else if (line.type === "turn_context") expect(["thinking_level_change", "agent_event"]).toContain(e.type);
          else expect(e.type).toBe("agent_event");
        }
      });

      it("pairs tool outputs with their calls by call_id", () => {
        const calls = new Map<string, string>();
        for (const l of lines) {
          const p = l.payload as { type?: string; call_id?: string; name?: string };
          if (l.type === "response_item" && (p.type === "function_call" || p.type === "custom_tool_call") && p.call_id) calls.set(p.call_id, p.name ?? "");
        }
        const results = session.entries.map(messageOf).filter((m) => m?.role === "toolResult") as { toolCallId: string; toolName: string }[];
        expect(results.length).toBeGreaterThan(0);
        for (const r of results) expect(r.toolName).toBe(calls.get(r.toolCallId));
      });

      it("puts each reply's token_count on the reply's last assistant entry", () => {
        const events = session.entries.filter((e) => agentEventOf(e)?.event === "event_msg/token_count" && agentEventOf(e)?.usageOf !== undefined);
        const withUsage = session.entries.filter((e) => {
          const m = messageOf(e) as { role?: string; usage?: unknown } | undefined;
          return m?.role === "assistant" && m.usage !== undefined;
        });
        expect(withUsage.length).toBeGreaterThan(0);
        expect(events.map((e) => agentEventOf(e)?.usageOf)).toEqual(withUsage.map((e) => e.id));
        for (const event of events) {
          const last = ((lineOf(event).payload as { info: { last_token_usage: Record<string, number> } }).info.last_token_usage);
          const target = withUsage.find((e) => e.id === agentEventOf(event)?.usageOf) as SessionEntry;
          const usage = (messageOf(target) as { usage: { input: number; output: number; cacheRead: number } }).usage;
          expect(usage.output).toBe(last.output_tokens);
          expect(usage.cacheRead).toBe(last.cached_input_tokens);
          expect(usage.input + usage.cacheRead).toBe(last.input_tokens);
        }
      });

      it("carries the model and reasoning effort of the turns", () => {
        const context = buildSessionContext(session.entries, session.leafId, index);
        expect(context.thinkingLevel).toBe(facts.thinking);
        expect(context.models.default?.endsWith(`/${facts.model}`)).toBe(true);
      });

      it("branches at each rollback and has no other branch", () => {
        expect(session.stats.rollbacks).toBe(facts.rollbacks);
        expect(branchPoints(session.entries)).toHaveLength(facts.rollbacks);
      });

      it("links a sub-agent rollout to its parent thread", () => {
        if (facts.parentThread === undefined) expect(session.links.parent).toBeUndefined();
        else {
          expect(session.links.parent).toEqual({ sessionId: facts.parentThread, nickname: "Socrates", role: "implementer" });
          expect(session.header.parentSession).toBe(facts.parentThread);
        }
      });

      it("counts its compactions", () => {
        expect(session.stats.compactions).toBe(facts.compactions);
        expect(session.entries.filter((e) => e.type === "compaction")).toHaveLength(facts.compactions);
      });
    });
  }

  it("after a remote compaction the model sees the replacement history; the encrypted summary is shown as opaque", () => {
    const name = realFile("codex", "EntityProcess__agentv__00_34f597b72d_1");
    const session = codexReader.read(readReal("codex", name));
    const index = buildIndex(session.entries);
    const compactions = session.entries.filter((e): e is CompactionEntry => e.type === "compaction");
    for (const c of compactions) {
      const history = (lineOf(c).payload as { replacement_history: { type: string }[]; window_number: number }).replacement_history;
      expect(c.summary).toMatch(/encrypted \(opaque to Bonsai\)/);
      expect(c.details).toMatchObject({ agent: "codex", summarySource: "encrypted", replacementItems: history.length });
      // the replacement history follows the compaction as derived entries: everything but the opaque item
      const derived = session.entries.filter((e) => (e as { fromCompaction?: string }).fromCompaction === c.id);
      expect(derived).toHaveLength(history.filter((h) => h.type !== "compaction").length);
      expect(derived.every((d) => sourceLines(d).length === 0)).toBe(true);
    }
    const last = compactions[compactions.length - 1] as CompactionEntry;
    const context = buildSessionContext(session.entries, session.leafId, index);
    expect(context.entryIds[0]).toBe(last.id);
    const derivedIds = session.entries.filter((e) => (e as { fromCompaction?: string }).fromCompaction === last.id).map((e) => e.id);
    expect(context.entryIds.slice(1, 1 + derivedIds.length)).toEqual(derivedIds);
    expect(context.messages[1]).toMatchObject({ role: "user", content: [{ type: "text", text: expect.stringMatching(/^investigate whether this issue is stale/) }] });
  });

  it("the older compaction shape keeps its four replacement messages", () => {
    const session = codexReader.read(readReal("codex", realFile("codex", "ta93abe__me__0e_9c08d8603f_0")));
    const c = session.entries.find((e): e is CompactionEntry => e.type === "compaction") as CompactionEntry;
    expect(c.details).toMatchObject({ summarySource: "none", replacementItems: 4 });
    expect(session.entries.filter((e) => (e as { fromCompaction?: string }).fromCompaction === c.id)).toHaveLength(4);
    expect(c.tokensBefore).toBeGreaterThan(0);
  });

  it("a rollback continues from before the rolled-back user turn", () => {
    const session = codexReader.read(readReal("codex", realFile("codex", "ta93abe__me__1b_d3b5f272f9_0")));
    const index = buildIndex(session.entries);
    const rollback = agentEventOf(session.entries.find((e) => agentEventOf(e)?.event === "event_msg/thread_rolled_back")) as AgentEventEntry;
    // line 9 is the rolled-back turn's user message; the branch starts at the entry before it (line 8)
    expect(rollback.parentId).toBe("line-8");
    expect(rollback.rolledBackFrom).toBe("line-29");
    const path = getPath(index, session.leafId).map((e) => e.id);
    expect(path).toContain(rollback.id);
    expect(path).not.toContain("line-9");
    expect(path).toContain("line-39");
  });
});
