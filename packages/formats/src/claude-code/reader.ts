/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`, sub-agents in
 * `agent-<id>.jsonl`) -> Bonsai's entry tree. One entry per line (each keeps its line verbatim);
 * the tree follows `uuid`/`parentUuid` with these corrections:
 *
 * - One API response is written as several `assistant` lines and tool results hang off their own
 *   `tool_use` line, so the raw links branch inside every turn. Lines are laid in runs (linear
 *   chains): a line joins the end of its parent's run unless a user turn has started in that run
 *   after its parent — only then is it a real branch (a rewind). Tool results always join the end.
 * - A `compact_boundary` (null parent, `logicalParentUuid`) and the `isCompactSummary` user line
 *   after it become one compaction entry joined to the logical parent (tokensBefore = preTokens),
 *   or to the main chain's end when that parent is not in the file.
 * - `microcompact_boundary` marks the cleared tool outputs as pruned.
 * - Lines without uuid (titles, snapshots, modes, ...) and hooks, progress, attachments, system lines
 *   are metadata entries (`agent_event`), never messages.
 * - Inline sidechains (Claude Code 1.0.x) are roots of their own, linked to their Task call; a file
 *   whose first line's parent is missing starts with a "starts-mid-session" marker.
 */
import type { CompactionEntry, MessageEntry, SessionHeader } from "@bonsai/core";
import { ForeignReader, lineId, type SessionFacts } from "../foreign-reader";
import type { AgentKind, ForeignEntry, FormatId, SessionLinks, SourceLine, SubAgentLink } from "../types";
import { isObj, isoTime, millis, str, type Obj } from "../values";
import { assistantMessage, CLEARED_TOOL_OUTPUT, contentText, toolResultBlocks, toolResultMessage, userMessage } from "./convert";
import { describeClaudeEvent } from "./metadata";

/** A linear chain of entries; `turns[i]` counts the user turns (and compactions) up to entry i. */
interface Run {
  ids: string[];
  turns: number[];
}

interface Node {
  entry: ForeignEntry;
  run: Run;
  index: number;
}

type LineKind = "prompt" | "assistant" | "result" | "meta" | "compaction";

const SPAWN_TOOLS = new Set(["Task", "Agent"]);

export class ClaudeCodeReader extends ForeignReader {
  protected readonly format: FormatId = "claude-code";
  protected readonly agent: AgentKind = "claude-code";
  /** entry ids and Claude Code uuids (a compaction's summary line too) -> node */
  readonly #nodes = new Map<string, Node>();
  /** last entry of the main chain (not an inline sidechain) */
  #mainTip: string | null = null;
  /** a main-chain line with a uuid was read */
  #started = false;
  /** the first line with a uuid is a sidechain: the file is a sub-agent transcript */
  #subAgentFile: boolean | undefined;
  #header: SessionHeader | null = null;
  /** the session id of the newest line that carries one: the session writing the file (its name) */
  #writerId: string | undefined;
  #agentId: string | undefined;
  /** tool call id -> its name and the entry holding the call */
  readonly #calls = new Map<string, { name: string; entryId: string }>();
  /** tool call id -> the tool result entry */
  readonly #results = new Map<string, ForeignEntry & MessageEntry>();
  /** Task prompt -> the calls still waiting for their inline sidechain */
  readonly #spawnPrompts = new Map<string, SubAgentLink[]>();
  readonly #links: SessionLinks = { subAgents: [] };
  #pendingBoundary: { value: Obj; line: SourceLine } | null = null;
  #customTitle: string | undefined;
  #aiTitle: string | undefined;
  readonly #summaries: { summary: string; leafUuid?: string }[] = [];

  protected readLine(value: unknown, line: SourceLine): void {
    if (!isObj(value)) {
      this.#flushBoundary();
      this.issues.push({ line: line.n, kind: "not-an-object", message: "kept as metadata: the line is JSON but not an object" });
      this.addEvent({ event: "unreadable-line", text: `line ${line.n} is not an object (kept as it is)`, timestamp: this.lastTimestamp() }, [line], this.metaParent());
      return;
    }
    const pending = this.#pendingBoundary;
    if (pending) {
      if (value.isCompactSummary === true && value.parentUuid === pending.value.uuid) {
        this.#pendingBoundary = null;
        this.#compaction(pending, value, line);
        return;
      }
      this.#flushBoundary();
    }
    this.#noteSession(value);
    const type = str(value.type);
    const uuid = str(value.uuid);
    if (type === "system" && value.subtype === "compact_boundary" && uuid !== undefined) {
      this.#pendingBoundary = { value, line };
      return;
    }
    if (type === "user" && uuid !== undefined) this.#userLine(value, line);
    else if (type === "assistant" && uuid !== undefined) this.#assistantLine(value, line);
    else this.#metaLine(value, line, uuid !== undefined);
  }

  protected finish(): void {
    this.#flushBoundary();
    if (this.holding) this.#stampHeld(new Date(0).toISOString());
  }

  protected metaParent(): string | null {
    this.#flushBoundary();
    return this.#mainTip;
  }

  protected added(_entry: ForeignEntry): void {}

  protected facts(): SessionFacts {
    let header = this.#header;
    // a file can open with a line of the session it continues (Claude Code's "clear context and
    // implement the plan"): the file is the session whose lines follow, as Claude Code names it
    if (header && !this.#subAgentFile && this.#writerId !== undefined && this.#writerId !== header.id) header = { ...header, id: this.#writerId };
    if (header && this.#subAgentFile && this.#agentId !== undefined) {
      header = { ...header, id: `agent-${this.#agentId}`, parentSession: header.id };
    }
    const title = this.#customTitle ?? this.#aiTitle ?? this.#summaryTitle() ?? null;
    if (header && title !== null) header = { ...header, title };
    return { header, leafId: this.#mainTip, title, links: { ...this.#links, subAgents: [...this.#links.subAgents] } };
  }

  /** the last summary line that names this file's conversation (its leafUuid is here); one naming another session's never */
  #summaryTitle(): string | undefined {
    const inFile = this.#summaries.filter((s) => s.leafUuid !== undefined && this.#nodes.has(s.leafUuid));
    return inFile[inFile.length - 1]?.summary;
  }

  /** Header fields from the first lines that carry them; titles; the first timestamp. */
  #noteSession(v: Obj): void {
    const sessionId = str(v.sessionId);
    if (sessionId !== undefined) this.#writerId = sessionId;
    if (this.#header === null && sessionId !== undefined) {
      this.#header = { type: "session", version: 3, id: sessionId, timestamp: "", cwd: "", agent: "claude-code" };
    }
    const header = this.#header;
    if (header) {
      if (header.cwd === "" && typeof v.cwd === "string") header.cwd = v.cwd;
      if (header.claudeCodeVersion === undefined && typeof v.version === "string") header.claudeCodeVersion = v.version;
    }
    if (this.#subAgentFile === undefined && typeof v.uuid === "string") {
      this.#subAgentFile = v.isSidechain === true;
      if (this.#subAgentFile) {
        this.#agentId = str(v.agentId);
        if (sessionId !== undefined) this.#links.parent = { sessionId, ...(this.#agentId !== undefined ? { agentId: this.#agentId } : {}) };
      }
    }
    switch (v.type) {
      case "custom-title":
        this.#customTitle = str(v.customTitle) ?? this.#customTitle;
        break;
      case "ai-title":
        this.#aiTitle = str(v.aiTitle) ?? this.#aiTitle;
        break;
      case "summary": {
        const summary = str(v.summary);
        if (summary !== undefined) this.#summaries.push({ summary, ...(typeof v.leafUuid === "string" ? { leafUuid: v.leafUuid } : {}) });
        break;
      }
    }
  }

  /** The line's timestamp, or the last one; "" before any (the entry is then held until one comes). */
  #timestamp(v: Obj): string {
    const own = isoTime(v.timestamp) ?? (isObj(v.snapshot) ? isoTime(v.snapshot.timestamp) : undefined);
    if (own !== undefined) {
      if (this.#header && this.#header.timestamp === "") this.#header.timestamp = own;
      if (this.holding) this.#stampHeld(own);
      return own;
    }
    const last = this.lastTimestamp();
    if (last === "") this.hold();
    return last;
  }

  /** Gives the held timestamp-less leading entries a timestamp and releases them. */
  #stampHeld(timestamp: string): void {
    for (const e of this.queued()) {
      if (e.timestamp === "") {
        e.timestamp = timestamp;
        const message = (e as { message?: { timestamp?: number } }).message;
        if (message && message.timestamp === 0) message.timestamp = millis(timestamp);
      }
    }
    this.releaseHold();
  }

  #isSidechain(v: Obj): boolean {
    return v.isSidechain === true && this.#subAgentFile === false;
  }

  #idFor(uuid: string | undefined, line: SourceLine): string {
    return uuid !== undefined && !this.#nodes.has(uuid) ? uuid : lineId([line]);
  }

  /**
   * The entry a line hangs under: its parent when that ends its run, else the run's end (a split
   * response, a tool result, hooks) unless a user turn started in the run after the parent (a branch).
   */
  #resolve(parentUuid: unknown, kind: LineKind, sidechain: boolean, line: SourceLine, timestamp: string): string | null {
    const p = str(parentUuid);
    if (p === undefined || p === "") {
      if (sidechain) return null;
      if (!this.#started) {
        this.#started = true;
        return this.#mainTip; // the leading metadata lines, if any
      }
      return null;
    }
    const node = this.#nodes.get(p);
    if (!node) return this.#missingParent(p, sidechain, line, timestamp);
    if (!sidechain) this.#started = true;
    const last = node.run.ids.length - 1;
    if (node.index === last) return node.entry.id;
    const tip = node.run.ids[last] as string;
    if (kind === "result") return tip;
    const turnsAfter = (node.run.turns[last] as number) - (node.run.turns[node.index] as number);
    return turnsAfter === 0 ? tip : node.entry.id;
  }

  /** A parent that is not in the file: a marker entry stands for it (at the start: "starts mid-session"). */
  #missingParent(uuid: string, sidechain: boolean, line: SourceLine, timestamp: string): string {
    const first = !this.#started && !sidechain;
    if (!sidechain) this.#started = true;
    if (first) this.stats.startsMidSession = true;
    const marker = {
      type: "agent_event",
      id: uuid,
      parentId: first ? this.#mainTip : null,
      timestamp,
      event: first ? "starts-mid-session" : "missing-parent",
      text: first
        ? `This file starts in the middle of a session: the entry before its first line (${uuid}) is not in it.`
        : `The entry ${uuid} that line ${line.n} continues is not in the file.`,
      source: [],
    } as ForeignEntry;
    this.#place(marker, marker.parentId, false, sidechain);
    return uuid;
  }

  #place(entry: ForeignEntry, parentId: string | null, turnStart: boolean, sidechain: boolean): void {
    entry.parentId = parentId;
    const parent = parentId === null ? undefined : this.#nodes.get(parentId);
    const run: Run = parent && parent.index === parent.run.ids.length - 1 ? parent.run : { ids: [], turns: [] };
    const before = run.turns[run.turns.length - 1] ?? 0;
    run.ids.push(entry.id);
    run.turns.push(before + (turnStart ? 1 : 0));
    this.#nodes.set(entry.id, { entry, run, index: run.ids.length - 1 });
    this.add(entry);
    if (!sidechain) this.#mainTip = entry.id;
  }

  /** A metadata line: under its parent (lines with a uuid) or the main chain's end (lines without). */
  #metaLine(v: Obj, line: SourceLine, linked: boolean): void {
    const timestamp = this.#timestamp(v);
    const sidechain = linked && this.#isSidechain(v);
    const parentId = linked ? this.#resolve(v.parentUuid, "meta", sidechain, line, timestamp) : this.#mainTip;
    const { event, text } = describeClaudeEvent(v);
    const entry = { type: "agent_event", id: this.#idFor(str(v.uuid), line), parentId, timestamp, event, text, source: [line] } as ForeignEntry;
    if (v.subtype === "microcompact_boundary") this.#microcompact(v, entry);
    this.#place(entry, parentId, false, sidechain);
  }

  /** Marks the tool outputs a microcompaction cleared as pruned (what the model sees from then on). */
  #microcompact(v: Obj, entry: ForeignEntry): void {
    this.stats.microcompactions++;
    const meta = isObj(v.microcompactMetadata) ? v.microcompactMetadata : {};
    const ids = Array.isArray(meta.compactedToolIds) ? meta.compactedToolIds.filter((x): x is string => typeof x === "string") : [];
    entry.prunedToolCallIds = ids;
    const prunedAt = millis(entry.timestamp);
    for (const id of ids) {
      const result = this.#results.get(id);
      if (!result || result.message.role !== "toolResult") continue;
      result.message = { ...result.message, content: [{ type: "text", text: CLEARED_TOOL_OUTPUT }], prunedAt };
      result.prunedBy = entry.id;
      this.changed(result);
    }
  }

  #userLine(v: Obj, line: SourceLine): void {
    const timestamp = this.#timestamp(v);
    const sidechain = this.#isSidechain(v);
    const m = isObj(v.message) ? v.message : {};
    const results = toolResultBlocks(m.content);
    const id = this.#idFor(str(v.uuid), line);
    if (results.length === 0) {
      const parentId = this.#resolve(v.parentUuid, "prompt", sidechain, line, timestamp);
      const entry = { type: "message", id, parentId, timestamp, message: userMessage(v, m.content, timestamp), source: [line] } as ForeignEntry & MessageEntry;
      const thinking = isObj(v.thinkingMetadata) ? v.thinkingMetadata : undefined;
      if (thinking && thinking.disabled !== true && typeof thinking.level === "string") entry.thinkingLevel = thinking.level;
      this.#place(entry, parentId, true, sidechain);
      if (sidechain && parentId === null) this.#linkSidechain(entry, contentText(m.content));
      return;
    }
    // one entry per tool result (Claude Code writes one per line; more are kept as derived entries)
    let parentId = this.#resolve(v.parentUuid, "result", sidechain, line, timestamp);
    results.forEach((block, i) => {
      const toolCallId = str(block.tool_use_id) ?? "";
      const call = this.#calls.get(toolCallId);
      const entry = {
        type: "message",
        id: i === 0 ? id : `${id}:${i}`,
        parentId,
        timestamp,
        message: toolResultMessage(block, call?.name ?? "", timestamp),
        source: i === 0 ? [line] : [],
      } as ForeignEntry & MessageEntry;
      this.#place(entry, parentId, false, sidechain);
      this.#results.set(toolCallId, entry);
      parentId = entry.id;
      const agentId = isObj(v.toolUseResult) ? str(v.toolUseResult.agentId) : undefined;
      if (agentId !== undefined && call && SPAWN_TOOLS.has(call.name)) this.#links.subAgents.push({ toolCallId, entryId: call.entryId, agentId });
    });
  }

  #assistantLine(v: Obj, line: SourceLine): void {
    const timestamp = this.#timestamp(v);
    const sidechain = this.#isSidechain(v);
    const parentId = this.#resolve(v.parentUuid, "assistant", sidechain, line, timestamp);
    const entry = { type: "message", id: this.#idFor(str(v.uuid), line), parentId, timestamp, message: assistantMessage(v, timestamp), source: [line] } as ForeignEntry & MessageEntry;
    const m = isObj(v.message) ? v.message : {};
    for (const block of Array.isArray(m.content) ? m.content : []) {
      if (!isObj(block) || block.type !== "tool_use" || typeof block.id !== "string") continue;
      const name = str(block.name) ?? "";
      this.#calls.set(block.id, { name, entryId: entry.id });
      const prompt = isObj(block.input) ? str(block.input.prompt) : undefined;
      if (!sidechain && SPAWN_TOOLS.has(name) && prompt !== undefined) {
        const waiting = this.#spawnPrompts.get(prompt) ?? [];
        waiting.push({ toolCallId: block.id, entryId: entry.id });
        this.#spawnPrompts.set(prompt, waiting);
      }
    }
    this.#place(entry, parentId, false, sidechain);
  }

  /** An inline sidechain's first prompt is its Task call's prompt: link the two. */
  #linkSidechain(root: ForeignEntry, prompt: string): void {
    const waiting = this.#spawnPrompts.get(prompt);
    const call = waiting?.shift();
    if (!call) return;
    const link: SubAgentLink = { ...call, rootId: root.id };
    root.spawnedBy = { toolCallId: call.toolCallId, entryId: call.entryId };
    this.#links.subAgents.push(link);
  }

  #flushBoundary(): void {
    const pending = this.#pendingBoundary;
    if (!pending) return;
    this.#pendingBoundary = null;
    this.#compaction(pending, null, null);
  }

  /** compact_boundary (+ its summary line) -> one compaction entry under the logical parent. */
  #compaction(boundary: { value: Obj; line: SourceLine }, summary: Obj | null, summaryLine: SourceLine | null): void {
    const v = boundary.value;
    this.#noteSession(v);
    const timestamp = this.#timestamp(v);
    const meta = isObj(v.compactMetadata) ? v.compactMetadata : {};
    // Claude Code may name a logical parent it never wrote: the compaction then continues the main
    // chain it follows in the file (what it summarized), not a root of its own
    const logical = str(v.logicalParentUuid);
    const parentId =
      logical !== undefined && this.#started && this.#mainTip !== null && !this.#nodes.has(logical)
        ? this.#mainTip
        : this.#resolve(v.logicalParentUuid ?? v.parentUuid, "compaction", false, boundary.line, timestamp);
    const summaryMessage = summary && isObj(summary.message) ? summary.message : {};
    const entry = {
      type: "compaction",
      id: this.#idFor(str(v.uuid), boundary.line),
      parentId,
      timestamp,
      summary: summary ? contentText(summaryMessage.content) : "",
      tokensBefore: typeof meta.preTokens === "number" ? meta.preTokens : 0,
      details: { agent: "claude-code", ...(typeof meta.trigger === "string" ? { trigger: meta.trigger } : {}), ...(summary ? {} : { summaryMissing: true }) },
      source: summaryLine ? [boundary.line, summaryLine] : [boundary.line],
    } as ForeignEntry & CompactionEntry;
    this.#place(entry, parentId, true, false);
    const summaryUuid = summary ? str(summary.uuid) : undefined;
    const node = this.#nodes.get(entry.id);
    if (summaryUuid !== undefined && node && !this.#nodes.has(summaryUuid)) this.#nodes.set(summaryUuid, node);
    this.stats.compactions++;
  }
}
