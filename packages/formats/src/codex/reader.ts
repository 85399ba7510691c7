/**
 * Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) -> Bonsai's entry tree. Lines
 * carry no ids: entries are `line-<n>` and chain in file order, except after `thread_rolled_back`,
 * which continues from before the rolled-back user turns (a branch).
 *
 * - `session_meta` (repeated on every resume) gives the header once; later ones are resume markers.
 * - `turn_context`: the model of the following replies; a change of reasoning effort is a
 *   thinking_level_change entry.
 * - `response_item`: messages, reasoning, tool calls and outputs (paired by `call_id`).
 * - `event_msg/token_count`: the reply's real usage, put on the reply's last assistant entry
 *   (the reply's entries are held until it arrives).
 * - `compacted`: a compaction entry followed by the replacement history (the exact context after
 *   it) as derived entries; a remote compaction's encrypted item is shown as opaque.
 * - A sub-agent rollout names its parent thread (`source.subagent.thread_spawn.parent_thread_id`).
 */
import type { AgentMessage, AssistantMessage, CompactionEntry, MessageEntry, SessionHeader, Usage } from "@bonsai/core";
import { ForeignReader, lineId, type SessionFacts } from "../foreign-reader";
import type { AgentKind, ForeignEntry, FormatId, SessionLinks, SourceLine } from "../types";
import { isObj, isoTime, millis, num, objs, oneLine, str, type Obj } from "../values";
import { callOf, codexUsage, isModelItem, itemMessage, thinkingLevelOf, type CodexModel } from "./convert";
import { describeCodexLine } from "./metadata";

/** Items of a replacement history that hold the compaction's own (encrypted) summary. */
const OPAQUE_ITEMS = new Set(["compaction", "compaction_summary"]);

export class CodexReader extends ForeignReader {
  protected readonly format: FormatId = "codex";
  protected readonly agent: AgentKind = "codex";
  #header: SessionHeader | null = null;
  #tip: string | null = null;
  readonly #byId = new Map<string, ForeignEntry>();
  readonly #toolNames = new Map<string, string>();
  #model: CodexModel = { provider: "openai", model: "" };
  #effort: string | undefined;
  /** the reply's last assistant entry waiting for its token_count */
  #replyEnd: (ForeignEntry & MessageEntry) | null = null;
  #lastUsage: Usage | undefined;
  /** entries of the real user messages on the current path (rollback drops turns from the end) */
  #turnStarts: string[] = [];
  /** the newest user message entry not yet confirmed as a turn start */
  #lastUser: string | null = null;
  readonly #links: SessionLinks = { subAgents: [] };
  /** the first prompt the user typed (Codex writes its instructions as user messages before it) */
  #title: string | null = null;

  protected readLine(value: unknown, line: SourceLine): void {
    const v = isObj(value) ? value : {};
    const timestamp = isoTime(v.timestamp) ?? this.lastTimestamp();
    const payload = isObj(v.payload) ? v.payload : {};
    if (!isObj(value)) this.issues.push({ line: line.n, kind: "not-an-object", message: "kept as metadata: the line is JSON but not an object" });
    switch (v.type) {
      case "session_meta":
        this.#endReply();
        this.#sessionMeta(payload, timestamp, line);
        return;
      case "turn_context":
        this.#endReply();
        this.#turnContext(v, payload, timestamp, line);
        return;
      case "response_item":
        this.#responseItem(v, payload, timestamp, line);
        return;
      case "compacted":
        this.#endReply();
        this.#compacted(payload, timestamp, line);
        return;
      case "event_msg":
        this.#event(v, payload, timestamp, line);
        return;
      default:
        this.#meta(v, timestamp, line);
    }
  }

  protected finish(): void {
    this.#endReply();
  }

  protected metaParent(): string | null {
    return this.#tip;
  }

  protected added(entry: ForeignEntry): void {
    this.#byId.set(entry.id, entry);
    this.#tip = entry.id;
  }

  protected facts(): SessionFacts {
    const header = this.#header && this.#title !== null ? { ...this.#header, title: this.#title } : this.#header;
    return { header, leafId: this.#tip, title: this.#title, links: { ...this.#links, subAgents: [...this.#links.subAgents] } };
  }

  #meta(v: Obj, timestamp: string, line: SourceLine, extra: Record<string, unknown> = {}): ForeignEntry {
    const { event, text } = describeCodexLine(v);
    return this.addEvent({ event, text, timestamp, ...extra }, [line], this.#tip);
  }

  #message(message: AgentMessage, timestamp: string, source: SourceLine[], id?: string): ForeignEntry & MessageEntry {
    const entry = { type: "message", id: id ?? lineId(source), parentId: this.#tip, timestamp, message, source } as ForeignEntry & MessageEntry;
    return this.add(entry);
  }

  #sessionMeta(p: Obj, timestamp: string, line: SourceLine): void {
    const first = this.#header === null;
    if (first) {
      this.#header = {
        type: "session",
        version: 3,
        id: str(p.id) ?? "",
        timestamp: isoTime(p.timestamp) ?? timestamp,
        cwd: str(p.cwd) ?? "",
        agent: "codex",
        ...(typeof p.cli_version === "string" ? { codexVersion: p.cli_version } : {}),
        ...(typeof p.originator === "string" ? { originator: p.originator } : {}),
      };
      const provider = str(p.model_provider);
      if (provider !== undefined) this.#model = { ...this.#model, provider };
      const source = isObj(p.source) ? p.source : {};
      const subagent = isObj(source.subagent) ? source.subagent : {};
      const spawn = isObj(subagent.thread_spawn) ? subagent.thread_spawn : {};
      const parent = str(spawn.parent_thread_id) ?? str(p.parent_thread_id);
      if (parent !== undefined) {
        this.#header.parentSession = parent;
        const nickname = str(spawn.agent_nickname) ?? str(p.agent_nickname);
        const role = str(spawn.agent_role) ?? str(p.agent_role);
        this.#links.parent = { sessionId: parent, ...(nickname !== undefined ? { nickname } : {}), ...(role !== undefined ? { role } : {}) };
      }
    } else this.stats.resumes++;
    const text = first ? describeCodexLine({ type: "session_meta", payload: p }).text : `resumed (${str(p.originator) ?? "codex"} ${str(p.cli_version) ?? ""})`.trim();
    this.addEvent({ event: "session_meta", text, timestamp }, [line], this.#tip);
  }

  #turnContext(v: Obj, p: Obj, timestamp: string, line: SourceLine): void {
    const model = str(p.model);
    if (model !== undefined) this.#model = { ...this.#model, model };
    const settings = isObj(p.collaboration_mode) && isObj(p.collaboration_mode.settings) ? p.collaboration_mode.settings : {};
    const effort = str(p.effort) ?? str(settings.reasoning_effort);
    if (effort !== undefined && effort !== this.#effort) {
      this.#effort = effort;
      const entry = { type: "thinking_level_change", id: lineId([line]), parentId: this.#tip, timestamp, thinkingLevel: thinkingLevelOf(effort), ...(model !== undefined ? { model } : {}), source: [line] } as ForeignEntry;
      this.add(entry);
      return;
    }
    this.#meta(v, timestamp, line);
  }

  #responseItem(v: Obj, item: Obj, timestamp: string, line: SourceLine): void {
    const modelItem = isModelItem(item);
    if (!modelItem && item.type === "message") this.#endReply(); // a user / developer message ends the reply
    const call = callOf(item);
    if (call) this.#toolNames.set(call.id, call.name);
    const message = itemMessage(item, this.#model, (id) => this.#toolNames.get(id) ?? "", millis(timestamp));
    if (!message) {
      this.#meta(v, timestamp, line);
      return;
    }
    if (modelItem) this.hold();
    const entry = this.#message(message, timestamp, [line]);
    if (modelItem) this.#replyEnd = entry;
    if (message.role === "user") this.#lastUser = entry.id;
  }

  /** The reply is complete: its held entries go out (with or without a usage). */
  #endReply(): void {
    this.#replyEnd = null;
    this.releaseHold();
  }

  #event(v: Obj, p: Obj, timestamp: string, line: SourceLine): void {
    switch (p.type) {
      case "token_count": {
        const info = isObj(p.info) ? p.info : undefined;
        const usage = codexUsage(info?.last_token_usage);
        const entry = this.#meta(v, timestamp, line, usage ? { usage } : {});
        if (!usage) return;
        this.#lastUsage = usage;
        const end = this.#replyEnd;
        if (end && end.message.role === "assistant" && (end.message as Partial<AssistantMessage>).usage === undefined) {
          end.message = { ...end.message, usage } as AssistantMessage;
          entry.usageOf = end.id;
        }
        this.#endReply();
        return;
      }
      case "user_message":
        this.#endReply();
        if (this.#title === null && typeof p.message === "string" && p.message.trim() !== "") this.#title = oneLine(p.message, 120);
        if (this.#lastUser !== null) this.#turnStarts.push(this.#lastUser);
        this.#lastUser = null;
        this.#meta(v, timestamp, line);
        return;
      case "thread_rolled_back":
        this.#endReply();
        this.#rollback(v, p, timestamp, line);
        return;
      case "task_complete":
      case "turn_aborted":
        this.#endReply();
        this.#meta(v, timestamp, line);
        return;
      default: {
        const child = str(p.new_thread_id);
        const entry = this.#meta(v, timestamp, line);
        if (child !== undefined) this.#links.subAgents.push({ agentId: child, entryId: entry.id, ...(typeof p.call_id === "string" ? { toolCallId: p.call_id } : {}) });
      }
    }
  }

  /** thread_rolled_back: the next entries continue from before the last `num_turns` user turns. */
  #rollback(v: Obj, p: Obj, timestamp: string, line: SourceLine): void {
    this.stats.rollbacks++;
    const turns = Math.max(0, Math.floor(num(p.num_turns) ?? 0));
    const from = this.#tip;
    let parentId = this.#tip;
    if (turns > 0 && this.#turnStarts.length > 0) {
      const keep = Math.max(0, this.#turnStarts.length - turns);
      const firstDropped = this.#byId.get(this.#turnStarts[keep] as string);
      this.#turnStarts = this.#turnStarts.slice(0, keep);
      parentId = firstDropped?.parentId ?? null;
    }
    const { event, text } = describeCodexLine(v);
    this.addEvent({ event, text, timestamp, ...(from !== null ? { rolledBackFrom: from } : {}) }, [line], parentId);
  }

  /** compacted -> a compaction entry, then the replacement history as the context that follows it. */
  #compacted(p: Obj, timestamp: string, line: SourceLine): void {
    this.stats.compactions++;
    const history = objs(p.replacement_history);
    const opaque = history.filter((item) => OPAQUE_ITEMS.has(str(item.type) ?? ""));
    const kept = history.filter((item) => !OPAQUE_ITEMS.has(str(item.type) ?? ""));
    const message = str(p.message) ?? "";
    const summary =
      message.trim() !== ""
        ? message
        : opaque.length > 0
          ? `Remote compaction: Codex keeps its summary encrypted (opaque to Bonsai); the context continues with the ${kept.length} items it kept.`
          : `Codex replaced the context with the ${kept.length} items it kept and wrote no summary.`;
    const id = lineId([line]);
    const details: Record<string, unknown> = {
      agent: "codex",
      summarySource: message.trim() !== "" ? "message" : opaque.length > 0 ? "encrypted" : "none",
      replacementItems: history.length,
    };
    for (const key of ["window_number", "window_id", "previous_window_id", "first_window_id"]) if (p[key] !== undefined) details[key] = p[key];
    const entry = {
      type: "compaction",
      id,
      parentId: this.#tip,
      timestamp,
      summary,
      tokensBefore: this.#lastUsage ? (this.#lastUsage.totalTokens ?? 0) : 0,
      details,
      source: [line],
    } as ForeignEntry & CompactionEntry;
    this.add(entry);
    // the replacement history, in order: derived entries (no lines of their own)
    history.forEach((item, i) => {
      if (OPAQUE_ITEMS.has(str(item.type) ?? "")) return;
      const call = callOf(item);
      if (call) this.#toolNames.set(call.id, call.name);
      const m = itemMessage(item, this.#model, (callId) => this.#toolNames.get(callId) ?? "", millis(timestamp));
      if (!m) return;
      const derived = this.#message(m, timestamp, [], `${id}:r${i}`);
      derived.fromCompaction = id;
    });
    // rolling back past a compaction goes back to the compaction
    this.#turnStarts = [];
    this.#lastUser = null;
  }
}
