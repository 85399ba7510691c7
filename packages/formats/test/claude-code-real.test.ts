/**
 * The Claude Code reader on the real transcripts of ../shared/fixtures/real/claude-code: every fact
 * of the README's table, the byte-identical round trip, and what the model sees after compactions.
 */
import { buildIndex, buildSessionContext, getPath, type CompactionEntry, type MessageEntry, type SessionEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { agentEventOf, claudeCodeReader, CLEARED_TOOL_OUTPUT, detectFormat, originalText, sourceLines, type AgentEventEntry } from "../src/index";
import { REAL_FILES, readReal, realFile, realLines } from "./support/real-files";
import { branchPoints, coveredLines, range, roots } from "./support/tree-checks";

interface Facts {
  prefix: string;
  lines: number;
  /** preTokens of each compact_boundary, in order */
  compactions: number[];
  microcompactions: number;
  midSession: boolean;
  finalNewline: boolean;
  /** the file's own title; null where its only title lines are summaries naming another session's leaf (never this one's title) */
  title: string | null;
  /** sub-agents spawned (Task results naming an agentId, or inline sidechains) */
  subAgents: number;
  /** inline sidechain roots (Claude Code 1.0.x) */
  sidechains: number;
}

// the README's table (line counts, compactions with their preTokens, microcompactions, mid-session starts, newlines)
const FACTS: Facts[] = [
  { prefix: "entireio__cli__cd_95adddad32_0", lines: 893, compactions: [156_699, 155_241, 155_413], microcompactions: 0, midSession: false, finalNewline: false, title: null, subAgents: 4, sidechains: 0 },
  { prefix: "entireio__cli__b0_dc55b3a1dc_1", lines: 723, compactions: [157_692], microcompactions: 2, midSession: false, finalNewline: true, title: null, subAgents: 0, sidechains: 0 },
  { prefix: "entireio__cli__9b_04c3d92e38_2", lines: 362, compactions: [167_361], microcompactions: 0, midSession: false, finalNewline: true, title: null, subAgents: 0, sidechains: 0 },
  { prefix: "entireio__cli__b0_2936744f3b_0", lines: 593, compactions: [155_829, 155_203], microcompactions: 0, midSession: true, finalNewline: false, title: null, subAgents: 1, sidechains: 0 },
  { prefix: "entireio__cli__ca_fca7ea73ac_0", lines: 85, compactions: [155_461], microcompactions: 0, midSession: true, finalNewline: false, title: null, subAgents: 0, sidechains: 0 },
  { prefix: "d-kimuson__claude-code-viewer", lines: 438, compactions: [], microcompactions: 0, midSession: false, finalNewline: true, title: null, subAgents: 5, sidechains: 5 },
  { prefix: "ta93abe__me__05_082272ed34_0", lines: 651, compactions: [], microcompactions: 0, midSession: false, finalNewline: true, title: "Resolve conflicts in modified files", subAgents: 0, sidechains: 0 },
  { prefix: "entireio__external-agents__01_8c2b5cd218_0", lines: 118, compactions: [], microcompactions: 0, midSession: false, finalNewline: true, title: "fix-external-agent-discovery", subAgents: 0, sidechains: 0 },
];

const CONVERSATION = new Set(["user", "assistant"]);

function messageOf(e: SessionEntry): MessageEntry["message"] | undefined {
  return e.type === "message" ? (e as MessageEntry).message : undefined;
}

describe.skipIf(REAL_FILES["claude-code"].length === 0)("Claude Code transcripts (real files)", () => {
  it("the README's table names every file here", () => {
    expect(FACTS.map((f) => realFile("claude-code", f.prefix)).sort()).toEqual(REAL_FILES["claude-code"]);
  });

  for (const facts of FACTS) {
    describe(facts.prefix, () => {
      const name = realFile("claude-code", facts.prefix);
      const text = readReal("claude-code", name);
      const lines = realLines("claude-code", name);
      const session = claudeCodeReader.read(text);
      const index = buildIndex(session.entries);

      it("is detected as Claude Code from its content", () => {
        expect(detectFormat(text).reader?.format).toBe("claude-code");
        expect(session.agent).toBe("claude-code");
        expect(session.readOnly).toBe(true);
      });

      it("keeps every line once and gives the file back byte for byte", () => {
        expect(session.stats.lines).toBe(facts.lines);
        expect(text.endsWith("\n")).toBe(facts.finalNewline);
        expect(session.original?.finalNewline).toBe(facts.finalNewline);
        expect(coveredLines(session)).toEqual(range(facts.lines));
        expect(Buffer.from(originalText(session), "utf8").equals(Buffer.from(text, "utf8"))).toBe(true);
      });

      it("makes conversation lines messages and every other line metadata", () => {
        const summaryLines = lines.filter((l) => l.isCompactSummary === true).length;
        const conversation = lines.filter((l) => CONVERSATION.has(l.type as string)).length;
        const fromLines = session.entries.filter((e) => sourceLines(e).length > 0);
        expect(fromLines.filter((e) => e.type === "message")).toHaveLength(conversation - summaryLines);
        expect(fromLines.filter((e) => e.type === "compaction")).toHaveLength(facts.compactions.length);
        expect(fromLines.filter((e) => agentEventOf(e))).toHaveLength(lines.length - conversation - facts.compactions.length);
        for (const e of fromLines.filter((x) => agentEventOf(x))) {
          const line = JSON.parse((sourceLines(e)[0] as { text: string }).text) as Record<string, unknown>;
          expect(CONVERSATION.has(line.type as string)).toBe(false);
        }
      });

      it("is one tree without false branches: split responses and tool results are one turn", () => {
        expect(branchPoints(session.entries)).toEqual([]);
        const rootList = roots(session.entries);
        expect(rootList).toHaveLength(1 + facts.sidechains);
        // the leaf is the main chain's end, and every assistant line of one response is on one path
        const path = getPath(index, session.leafId);
        expect(path[path.length - 1]?.id).toBe(session.leafId);
        const mainIds = new Set(path.map((e) => e.id));
        for (const e of session.entries) {
          const m = messageOf(e);
          if (m?.role === "assistant" && (e as { spawnedBy?: unknown }).spawnedBy === undefined && !isSidechainEntry(e)) expect(mainIds.has(e.id)).toBe(true);
        }
      });

      it("turns each compact boundary and its summary line into one compaction entry", () => {
        const compactions = session.entries.filter((e): e is CompactionEntry => e.type === "compaction");
        expect(session.stats.compactions).toBe(facts.compactions.length);
        expect(compactions.map((c) => c.tokensBefore)).toEqual(facts.compactions);
        const boundaries = lines.filter((l) => l.subtype === "compact_boundary");
        compactions.forEach((c, i) => {
          const boundary = boundaries[i] as Record<string, unknown>;
          const summary = lines[lines.indexOf(boundary) + 1] as Record<string, unknown>;
          expect(c.id).toBe(boundary.uuid);
          expect(summary.isCompactSummary).toBe(true);
          expect(c.summary).toBe((summary.message as { content: string }).content);
          expect(sourceLines(c)).toHaveLength(2);
          // joined to its logical parent (or to the end of the turn that parent belongs to), not a root
          expect(c.parentId).not.toBeNull();
          const logical = boundary.logicalParentUuid as string;
          const parentPath = getPath(index, c.parentId).map((e) => e.id);
          expect(parentPath).toContain(logical);
        });
      });

      it("shows the model the last compaction's summary plus what follows", () => {
        const context = buildSessionContext(session.entries, session.leafId, index);
        const path = getPath(index, session.leafId);
        const last = [...path].reverse().find((e): e is CompactionEntry => e.type === "compaction");
        if (!last) {
          expect(context.messages.some((m) => m.role === "compactionSummary")).toBe(false);
          return;
        }
        expect(context.messages[0]).toMatchObject({ role: "compactionSummary", summary: last.summary, tokensBefore: last.tokensBefore });
        const after = path.slice(path.indexOf(last) + 1).filter((e) => e.type === "message").map((e) => e.id);
        expect(context.entryIds.slice(1)).toEqual(after);
      });

      it("marks the tool outputs each microcompaction cleared as pruned", () => {
        expect(session.stats.microcompactions).toBe(facts.microcompactions);
        const boundaries = session.entries.filter((e) => agentEventOf(e)?.event === "system/microcompact_boundary");
        expect(boundaries).toHaveLength(facts.microcompactions);
        for (const b of boundaries) {
          const ids = agentEventOf(b)?.prunedToolCallIds as string[];
          expect(ids.length).toBeGreaterThan(0);
          for (const id of ids) {
            const result = session.entries.find((e) => messageOf(e)?.role === "toolResult" && (messageOf(e) as { toolCallId: string }).toolCallId === id);
            expect(result, id).toBeDefined();
            expect(messageOf(result as SessionEntry)).toMatchObject({ content: [{ type: "text", text: CLEARED_TOOL_OUTPUT }] });
            expect((messageOf(result as SessionEntry) as { prunedAt?: number }).prunedAt).toBeGreaterThan(0);
          }
        }
      });

      it("opens a file that starts mid-session with a clear marker", () => {
        expect(session.stats.startsMidSession).toBe(facts.midSession);
        const first = agentEventOf(session.entries[0]) as AgentEventEntry;
        if (facts.midSession) {
          expect(first).toMatchObject({ type: "agent_event", event: "starts-mid-session", parentId: null, id: lines[0]?.parentUuid });
          expect(first.text).toMatch(/starts in the middle of a session/);
        } else expect(session.entries.some((e) => agentEventOf(e)?.event === "starts-mid-session")).toBe(false);
      });

      it("names the session from its title lines and links its sub-agents", () => {
        expect(session.title).toBe(facts.title);
        expect(session.header).toMatchObject({ type: "session", id: lines.find((l) => typeof l.sessionId === "string")?.sessionId, agent: "claude-code" });
        expect(session.links.subAgents).toHaveLength(facts.subAgents);
        const agentIds = lines.flatMap((l) => (typeof (l.toolUseResult as { agentId?: unknown } | undefined)?.agentId === "string" ? [(l.toolUseResult as { agentId: string }).agentId] : []));
        expect(session.links.subAgents.filter((s) => s.agentId !== undefined).map((s) => s.agentId)).toEqual(agentIds);
      });

      it("records the agent's usage on each assistant line a model answered (none on Claude Code's own <synthetic> replies)", () => {
        for (const e of session.entries) {
          const m = messageOf(e);
          if (m?.role !== "assistant") continue;
          const line = JSON.parse((sourceLines(e)[0] as { text: string }).text) as { message: { model: string; usage: Record<string, number> } };
          if (line.message.model === "<synthetic>") {
            expect(m.usage).toBeUndefined();
            continue;
          }
          expect(m.usage.input).toBe(line.message.usage.input_tokens);
          expect(m.usage.output).toBe(line.message.usage.output_tokens);
        }
      });
    });
  }

  it("links each inline sidechain of Claude Code 1.0.x to the Task call that spawned it", () => {
    const name = realFile("claude-code", "d-kimuson__claude-code-viewer");
    const session = claudeCodeReader.read(readReal("claude-code", name));
    const lines = realLines("claude-code", name);
    expect(lines.filter((l) => l.isSidechain === true)).toHaveLength(405);
    const byId = new Map(session.entries.map((e) => [e.id, e]));
    for (const link of session.links.subAgents) {
      const root = byId.get(link.rootId as string) as SessionEntry;
      const call = byId.get(link.entryId as string) as SessionEntry;
      expect(root.parentId).toBeNull();
      const blocks = (messageOf(call) as { content: { type: string; id?: string; arguments?: { prompt?: string } }[] }).content;
      const task = blocks.find((b) => b.type === "toolCall" && b.id === link.toolCallId);
      expect(task?.arguments?.prompt).toBe((messageOf(root) as { content: unknown }).content);
    }
    // the leaf is on the main chain, not in a sidechain
    expect(lines.find((l) => l.uuid === session.leafId)?.isSidechain).toBe(false);
  });

  it("keeps the API error retries and the error reply of a file as metadata and an error message", () => {
    const session = claudeCodeReader.read(readReal("claude-code", realFile("claude-code", "entireio__cli__b0_2936744f3b_0")));
    expect(session.entries.filter((e) => agentEventOf(e)?.event === "system/api_error")).toHaveLength(29);
    const errors = session.entries.filter((e) => messageOf(e)?.role === "assistant" && (messageOf(e) as { stopReason: string }).stopReason === "error");
    expect(errors).toHaveLength(1);
  });
});

function isSidechainEntry(e: SessionEntry): boolean {
  const line = sourceLines(e)[0];
  return line !== undefined && (JSON.parse(line.text) as { isSidechain?: boolean }).isSidechain === true;
}
