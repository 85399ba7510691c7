/**
 * Deterministic synthetic pi / oh-my-pi v3 sessions of any size, for tests and benchmarks.
 *
 * The same options (seed included) always give the same session. The shape follows real agent
 * sessions: turns of a user prompt, tool rounds (assistant tool calls on file paths, each answered
 * by its tool result right after), a final reply; usage that grows with the context; and around the
 * turns every other entry type: model / thinking-level / mode changes, labels, custom state,
 * ttsr injections, session info, custom messages, bash / python executions, file mentions,
 * migrated `custom` messages, aborted and error replies, images, branches (re-edited prompts, some
 * with a branch summary) and compactions whose firstKeptEntryId is a user message of the branch.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import {
  CURRENT_SESSION_VERSION,
  EntryIdGenerator,
  generateSessionId,
  seededRandomSource,
  serializeEntry,
  serializeSession,
  type AssistantContentBlock,
  type SessionEntry,
  type SessionHeader,
  type Usage,
} from "@bonsai/core";

export interface GenerateSessionOptions {
  /** exact number of entries after the header */
  entries: number;
  /** PRNG seed (default 1) */
  seed?: number;
  /** header and first entry time, ms (default 2025-06-01T09:00:00Z) */
  startTime?: number;
  cwd?: string;
  /** multiplies every text size (default 1: about 1.4 KB of JSON per entry on average) */
  contentScale?: number;
  /** probability that a turn first navigates back to re-edit an earlier prompt (default 0.04) */
  branchProbability?: number;
  /** entries between compactions on the current branch (default 1500; 0 = never) */
  compactionInterval?: number;
  /** the header's session id (default: a generated 16-hex-digit id; pi writes UUIDs) */
  sessionId?: string;
}

export interface GeneratedSession {
  header: SessionHeader;
  entries: SessionEntry[];
}

const WORDS =
  "the a to of and in is it for on with as that this be are by from or at an was not we can if but function const return value type file test error result build session entry branch tree leaf summary token context model tool call read write edit path module import export class interface string number array object index parse compact prune render state update node child parent root".split(
    " ",
  );

const TOOL_KINDS = ["read", "read", "edit", "bash", "bash", "write", "grep", "skill"] as const;

/** mulberry32: small, fast, good enough for test data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Generator {
  readonly random: () => number;
  readonly header: SessionHeader;
  readonly entries: SessionEntry[] = [];
  private readonly ids: EntryIdGenerator;
  private readonly taken = new Set<string>();
  private readonly corpus: string;
  private readonly files: string[];
  private readonly scale: number;
  private clock: number;
  private leaf: string | null = null;
  /** ids of the current branch, root first, and the running estimate of its messages */
  private path: string[] = [];
  private pathTokens: number[] = [0];
  /** positions in `path` of user messages and of compactions */
  private userPositions: number[] = [];
  private compactionPositions: number[] = [];
  private sinceCompaction = 0;
  private callCounter = 0;

  constructor(private readonly options: GenerateSessionOptions) {
    const seed = options.seed ?? 1;
    this.random = prng(seed);
    const source = seededRandomSource(seed, options.startTime ?? Date.parse("2025-06-01T09:00:00.000Z"));
    this.ids = new EntryIdGenerator(source);
    this.clock = options.startTime ?? Date.parse("2025-06-01T09:00:00.000Z");
    this.scale = options.contentScale ?? 1;
    const words: string[] = [];
    for (let i = 0; i < 20000; i++) words.push(this.pick(WORDS));
    this.corpus = words.join(" ");
    this.files = [];
    for (let i = 0; i < 240; i++) {
      const dir = ["src", "test", "packages/core/src", "docs", "apps/cli/src"][i % 5];
      const name = `${this.pick(WORDS)}-${i}.${["ts", "md", "json", "tsx"][i % 4]}`;
      this.files.push(i % 37 === 0 ? `/home/dev/project/${dir}/${name}` : i % 53 === 0 ? `~/.pi/agent/${name}` : `${dir}/${name}`);
    }
    // drawn either way: a session named by the caller has the same entries as an unnamed one
    const generatedId = generateSessionId(source);
    this.header = {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: options.sessionId ?? generatedId,
      timestamp: new Date(this.clock).toISOString(),
      cwd: options.cwd ?? "/home/dev/project",
      title: "Synthetic session",
    };
  }

  // ------------------------------------------------------------------ primitives

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  text(chars: number): string {
    const n = Math.max(1, Math.round(chars * this.scale));
    let out = "";
    while (out.length < n) {
      const start = Math.floor(this.random() * (this.corpus.length - 1));
      out += this.corpus.slice(start, start + n - out.length);
    }
    return out;
  }

  get full(): boolean {
    return this.entries.length >= this.options.entries;
  }

  private tick(): number {
    this.clock += this.int(1, 20) * 1000 + this.int(0, 999);
    return this.clock;
  }

  /** Appends an entry as a child of the leaf; `tokens` is its message's rough estimate. */
  private append(body: Record<string, unknown>, tokens = 0): string | undefined {
    if (this.full) return undefined;
    const id = this.ids.next(this.taken);
    this.taken.add(id);
    const time = this.tick();
    const base = { id, parentId: this.leaf, timestamp: new Date(time).toISOString() };
    // custom entries put customType/data before the id, as omp writes them
    const entry = body.type === "custom" ? { ...body, ...base } : { type: body.type, ...base, ...body };
    this.entries.push(entry as unknown as SessionEntry);
    this.leaf = id;
    this.path.push(id);
    this.pathTokens.push((this.pathTokens[this.pathTokens.length - 1] as number) + tokens);
    this.sinceCompaction++;
    return id;
  }

  private message(message: Record<string, unknown>, chars: number): string | undefined {
    return this.append({ type: "message", message: { ...message, timestamp: this.clock } }, Math.ceil(chars / 4));
  }

  /** Moves the leaf back so that the branch ends at path position `length - 1`. */
  private truncatePath(length: number): void {
    this.path.length = length;
    this.pathTokens.length = length + 1;
    while (this.userPositions.length > 0 && (this.userPositions[this.userPositions.length - 1] as number) >= length) this.userPositions.pop();
    while (this.compactionPositions.length > 0 && (this.compactionPositions[this.compactionPositions.length - 1] as number) >= length) {
      this.compactionPositions.pop();
    }
    this.leaf = length > 0 ? (this.path[length - 1] as string) : null;
  }

  // ------------------------------------------------------------------ session pieces

  private usage(): Usage {
    const lastCompaction = this.compactionPositions[this.compactionPositions.length - 1];
    const from = lastCompaction === undefined ? 0 : lastCompaction;
    const estimate = (this.pathTokens[this.path.length] as number) - (this.pathTokens[from] as number);
    const prompt = 4000 + Math.round(estimate * 1.3);
    const cacheRead = Math.round(prompt * 0.9);
    const input = this.int(1, 400);
    const cacheWrite = Math.max(0, prompt - cacheRead - input);
    const output = this.int(20, 1500);
    return {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: cacheWrite * 3.75e-6, total: 0 },
    };
  }

  private assistant(content: AssistantContentBlock[], stopReason: string, chars: number): string | undefined {
    return this.message(
      { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: this.usage(), stopReason },
      chars,
    );
  }

  private toolCall(): { block: AssistantContentBlock; chars: number; resultChars: number } {
    const kind = this.pick(TOOL_KINDS);
    const path = this.pick(this.files);
    let args: Record<string, unknown>;
    let resultChars = this.int(80, 3000);
    switch (kind) {
      case "read":
        args = { path };
        resultChars = this.int(200, this.chance(0.02) ? 40000 : 4000);
        break;
      case "edit":
        args = { path, oldText: this.text(this.int(20, 300)), newText: this.text(this.int(20, 400)) };
        resultChars = 60;
        break;
      case "write":
        args = { path, content: this.text(this.int(200, 3000)) };
        resultChars = 40;
        break;
      case "grep":
        args = { pattern: this.pick(WORDS), path: "src" };
        break;
      case "skill":
        args = { name: this.pick(WORDS) };
        resultChars = this.int(500, 4000);
        break;
      default:
        args = { command: `${this.pick(["ls", "pnpm test", "git status", "cat"])} ${path}`, timeout: 120 };
        resultChars = this.int(50, this.chance(0.02) ? 40000 : 2500);
    }
    const block: AssistantContentBlock = { type: "toolCall", id: `toolu_${(this.callCounter++).toString(36).padStart(8, "0")}`, name: kind, arguments: args };
    return { block, chars: kind.length + JSON.stringify(args).length, resultChars };
  }

  private turn(): void {
    const position = this.path.length;
    const content = this.chance(0.03)
      ? [
          { type: "text", text: this.text(this.int(20, 400)) },
          { type: "image", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", mimeType: "image/png" },
        ]
      : this.text(this.int(20, 600));
    if (this.message({ role: "user", content }, 300) !== undefined) this.userPositions.push(position);

    const rounds = this.int(0, 4);
    for (let r = 0; r < rounds && !this.full; r++) {
      const calls = Array.from({ length: this.int(1, 3) }, () => this.toolCall());
      const blocks: AssistantContentBlock[] = [];
      let chars = 0;
      if (this.chance(0.2)) {
        const thinking = this.text(this.int(50, 800));
        blocks.push({ type: "thinking", thinking, thinkingSignature: "sig" });
        chars += thinking.length;
      }
      if (this.chance(0.5)) {
        const text = this.text(this.int(20, 300));
        blocks.push({ type: "text", text });
        chars += text.length;
      }
      for (const c of calls) {
        blocks.push(c.block);
        chars += c.chars;
      }
      this.assistant(blocks, "toolUse", chars);
      for (const c of calls) {
        if (this.full) return;
        const call = c.block as Extract<AssistantContentBlock, { type: "toolCall" }>;
        const resultContent: unknown[] = [{ type: "text", text: this.text(c.resultChars) }];
        if (this.chance(0.01)) resultContent.push({ type: "image", data: "aGVsbG8=", mimeType: "image/png" });
        this.message(
          { role: "toolResult", toolCallId: call.id, toolName: call.name, content: resultContent, isError: this.chance(0.04) },
          c.resultChars,
        );
      }
    }
    if (this.full) return;
    const ending = this.random();
    if (ending < 0.03) {
      this.assistant([], "aborted", 0);
    } else if (ending < 0.04) {
      this.message(
        { role: "assistant", content: [], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: this.usage(), stopReason: "error", errorMessage: "overloaded" },
        0,
      );
    } else {
      const text = this.text(this.int(40, 2000));
      this.assistant([{ type: "text", text }], "stop", text.length);
    }
  }

  private sideEntry(): void {
    const target = this.path.length > 0 ? (this.path[this.int(0, this.path.length - 1)] as string) : undefined;
    switch (this.int(0, 13)) {
      case 0:
        this.append({ type: "model_change", model: this.pick(["anthropic/claude-sonnet-4-5", "openai/gpt-5", "anthropic/claude-opus-4-5"]), ...(this.chance(0.3) ? { role: "smol" } : {}) });
        break;
      case 1:
        this.append({ type: "thinking_level_change", thinkingLevel: this.pick(["off", "low", "medium", "high"]) });
        break;
      case 2:
        if (target) this.append({ type: "label", targetId: target, ...(this.chance(0.8) ? { label: `mark ${this.pick(WORDS)}` } : {}) });
        break;
      case 3:
        this.append({ type: "custom", customType: "todo-state", data: { items: this.int(0, 9) } });
        break;
      case 4:
        this.append({ type: "ttsr_injection", injectedRules: [`rule-${this.int(1, 9)}`] });
        break;
      case 5:
        this.append({ type: "mode_change", mode: this.pick(["plan", "none"]), ...(this.chance(0.5) ? { data: { step: this.int(1, 5) } } : {}) });
        break;
      case 6:
        this.append({ type: "session_info", name: `Session ${this.pick(WORDS)}` });
        break;
      case 7: {
        const content = this.text(this.int(50, 1500));
        this.append({ type: "custom_message", customType: this.pick(["note", "skill-prompt", "handoff"]), content, display: this.chance(0.7) }, 0);
        break;
      }
      case 8: {
        const output = this.text(this.int(20, 4000));
        this.message({ role: "bashExecution", command: "pnpm test", output, exitCode: this.int(0, 1), cancelled: false, truncated: false }, output.length + 9);
        break;
      }
      case 9:
        this.message({ role: "pythonExecution", code: "print(1)", output: this.text(this.int(5, 500)), exitCode: 0, cancelled: false, truncated: false }, 0);
        break;
      case 10:
        this.message({ role: "fileMention", files: [{ path: this.pick(this.files), content: this.text(this.int(50, 2000)), lineCount: this.int(1, 80) }] }, 0);
        break;
      case 11:
        this.message({ role: "custom", customType: "legacy-hook", content: this.text(this.int(20, 400)), display: true }, 0);
        break;
      default:
        this.append({ type: "thinking_level_change", thinkingLevel: "medium" });
    }
  }

  /** Re-edit an earlier prompt: the leaf moves to that prompt's parent, sometimes with a summary. */
  private branch(): void {
    const floor = this.compactionPositions[this.compactionPositions.length - 1] ?? -1;
    const candidates = this.userPositions.filter((p) => p > floor).slice(-12);
    if (candidates.length < 2) return;
    const position = this.pick(candidates.slice(0, -1));
    this.truncatePath(position);
    if (this.chance(0.5)) {
      const summary = `The user explored a different branch.\n\n## Goal\n${this.text(this.int(100, 800))}`;
      const readFiles = [this.pick(this.files)];
      const modifiedFiles = this.chance(0.5) ? [this.pick(this.files)] : [];
      this.append(
        { type: "branch_summary", fromId: this.leaf ?? "root", summary, details: { readFiles, modifiedFiles }, fromExtension: false },
        Math.ceil(summary.length / 4),
      );
    }
  }

  private compaction(): void {
    const floor = this.compactionPositions[this.compactionPositions.length - 1] ?? -1;
    const users = this.userPositions.filter((p) => p > floor);
    if (users.length < 4) return;
    const keptPosition = users[users.length - this.int(1, 3)] as number;
    const readFiles = [this.pick(this.files), this.pick(this.files)].sort();
    const modifiedFiles = [this.pick(this.files)];
    const summary = `## Goal\n${this.text(this.int(400, 2500))}\n\n<read-files>\n${readFiles.join("\n")}\n</read-files>\n\n<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`;
    const position = this.path.length;
    const id = this.append(
      {
        type: "compaction",
        summary,
        shortSummary: this.text(this.int(60, 200)),
        firstKeptEntryId: this.path[keptPosition],
        tokensBefore: this.usage().totalTokens,
        details: { readFiles, modifiedFiles },
        fromExtension: false,
      },
      0,
    );
    if (id === undefined) return;
    this.compactionPositions.push(position);
    // usage after a compaction counts the summary and the kept entries: give the compaction that weight
    const keptTokens = (this.pathTokens[position] as number) - (this.pathTokens[keptPosition] as number);
    this.pathTokens[position + 1] = (this.pathTokens[position] as number) + Math.ceil(summary.length / 4) + keptTokens;
    this.sinceCompaction = 0;
  }

  run(): GeneratedSession {
    const interval = this.options.compactionInterval ?? 1500;
    const branchProbability = this.options.branchProbability ?? 0.04;
    this.append({ type: "session_init", systemPrompt: this.text(400), task: "synthetic work", tools: ["read", "edit", "write", "bash"] });
    this.append({ type: "model_change", model: "anthropic/claude-sonnet-4-5" });
    this.append({ type: "thinking_level_change", thinkingLevel: "off" });
    while (!this.full) {
      if (this.chance(branchProbability)) this.branch();
      if (interval > 0 && this.sinceCompaction >= interval) this.compaction();
      while (!this.full && this.chance(0.25)) this.sideEntry();
      this.turn();
    }
    return { header: this.header, entries: this.entries };
  }
}

/** A synthetic v3 session with exactly `options.entries` entries (deterministic for a seed). */
export function generateSession(options: GenerateSessionOptions): GeneratedSession {
  if (!Number.isInteger(options.entries) || options.entries < 0) throw new Error(`entries must be a non-negative integer, got ${options.entries}`);
  return new Generator(options).run();
}

/** The session as JSONL text (header line first). */
export function sessionToJsonl(session: GeneratedSession): string {
  return serializeSession(session.header, session.entries);
}

/** Writes the session as a JSONL file, line by line (no whole-file string in memory). */
export async function writeSessionJsonl(file: string, session: GeneratedSession): Promise<void> {
  const out = createWriteStream(file, { encoding: "utf8" });
  const write = async (line: string): Promise<void> => {
    if (!out.write(line)) await once(out, "drain");
  };
  await write(serializeEntry(session.header));
  for (const entry of session.entries) await write(serializeEntry(entry));
  out.end();
  await once(out, "finish");
}
