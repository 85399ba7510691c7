/**
 * The offline summarizer: Bonsai's default when no model is configured. It does not invent anything;
 * it extracts from the serialized conversation in the prompt (the `[User]: ...` / `[Assistant]: ...`
 * parts of compaction.md §7) the user's goals and requests, constraints they stated, decisions the
 * assistant announced, errors seen, files read and modified, commands run and the last open
 * question, and lays them out in the section format the prompts ask a model for. Deterministic: the
 * same prompt always gives the same summary.
 */
import { abortedResponse, type SummarizeOptions, type SummarizeResponse, type Summarizer, type SummaryPurpose } from "./summarizer";

type PartKind = "user" | "assistant" | "thinking" | "toolCalls" | "toolResult";

interface Part {
  kind: PartKind;
  text: string;
}

const PART_PREFIXES: [string, PartKind][] = [
  ["[User]: ", "user"],
  ["[Assistant thinking]: ", "thinking"],
  ["[Assistant tool calls]: ", "toolCalls"],
  ["[Assistant]: ", "assistant"],
  ["[Tool result]: ", "toolResult"],
];

const LIMITS = { requests: 6, constraints: 6, decisions: 8, errors: 6, commands: 6, done: 10, snippet: 240 };

function prefixOf(line: string): [string, PartKind] | undefined {
  if (!line.startsWith("[")) return undefined;
  for (const p of PART_PREFIXES) if (line.startsWith(p[0])) return p;
  return undefined;
}

/** Splits serialized conversation text back into its parts (a part starts on a line with a role prefix). */
export function parseConversation(text: string): Part[] {
  const parts: Part[] = [];
  let current: Part | undefined;
  let previousBlank = true;
  for (const line of text.split("\n")) {
    const prefix = previousBlank ? prefixOf(line) : undefined;
    if (prefix) {
      if (current) parts.push(current);
      current = { kind: prefix[1], text: line.slice(prefix[0].length) };
    } else if (current) {
      current.text += `\n${line}`;
    }
    previousBlank = line === "";
  }
  if (current) parts.push(current);
  for (const p of parts) p.text = p.text.trim();
  return parts;
}

function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.lastIndexOf(close);
  if (end < start) return undefined;
  return text.slice(start + open.length, end).replace(/^\n/, "").replace(/\n$/, "");
}

function oneLine(text: string, max = LIMITS.snippet): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function unique(items: string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.toLowerCase();
    if (item === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

function lastItems(items: string[], max: number): string[] {
  return unique([...items].reverse(), max).reverse();
}

const CONSTRAINT = /\b(must|must not|should|shouldn't|don't|do not|never|always|prefer|avoid|without|only use|make sure)\b/i;
const DECISION = /\b(I'll|I will|I'm going to|we'll|we will|let's|decided|decision|chose|choose|instead of|the plan is|going with|switch(ed)? to)\b/i;
const ERROR = /\b(error|errors|failed|failure|exception|traceback|panic|cannot|not found|denied|undefined is not|segmentation fault|ENOENT|EACCES)\b/i;
/** in the assistant's own words only a report of something broken counts as an error seen */
const ASSISTANT_ERROR = /\b(fails|failed|failing|broken|crash(es|ed)?|throws)\b/i;

/** A sentence worth keeping as a constraint or decision: not a question, not a lead-in to a tool call. */
function statement(s: string): boolean {
  return s.length >= 20 && !s.endsWith("?") && !s.endsWith(":");
}

function stripBullet(s: string): string {
  return s.replace(/^(?:[-*•]\s+|\d+[.)]\s+)+/, "");
}

interface ToolCall {
  name: string;
  args: string;
}

/** Parses `name(k=v, ...)` calls of a `[Assistant tool calls]:` part (joined by "; "). */
function parseToolCalls(text: string): ToolCall[] {
  const calls: ToolCall[] = [];
  const re = /([A-Za-z_][\w.-]*)\(/g;
  let m: RegExpExecArray | null;
  let from = 0;
  while ((m = re.exec(text)) !== null) {
    if (m.index < from) continue;
    // find the matching closing parenthesis, skipping JSON strings
    let depth = 0;
    let i = m.index + m[0].length - 1;
    let inString = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) break;
    }
    const name = m[1] ?? "";
    calls.push({ name, args: text.slice(m.index + m[0].length, i) });
    from = i + 1;
    re.lastIndex = from;
  }
  return calls;
}

function argValue(args: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|, )${key}=("(?:[^"\\\\]|\\\\.)*")`).exec(args);
  if (!m?.[1]) return undefined;
  try {
    const v: unknown = JSON.parse(m[1]);
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

interface Extract {
  requests: string[];
  constraints: string[];
  decisions: string[];
  errors: string[];
  read: string[];
  modified: string[];
  commands: string[];
  done: string[];
  openQuestion?: string;
  lastAssistant?: string;
}

function extract(parts: Part[]): Extract {
  const requests: string[] = [];
  const constraints: string[] = [];
  const decisions: string[] = [];
  const errors: string[] = [];
  const read: string[] = [];
  const modified: string[] = [];
  const commands: string[] = [];
  const done: string[] = [];
  let lastAssistant: string | undefined;
  for (const part of parts) {
    if (part.kind === "user") {
      if (part.text) requests.push(oneLine(part.text));
      for (const s of sentences(part.text).map(stripBullet)) if (CONSTRAINT.test(s) && statement(s)) constraints.push(oneLine(s, 160));
    } else if (part.kind === "assistant") {
      if (part.text) lastAssistant = part.text;
      for (const s of sentences(part.text).map(stripBullet)) {
        if (DECISION.test(s) && statement(s)) decisions.push(oneLine(s, 200));
        if (ASSISTANT_ERROR.test(s) && statement(s)) errors.push(oneLine(s, 200));
      }
    } else if (part.kind === "toolResult") {
      const line = part.text.split("\n").find((l) => ERROR.test(l));
      if (line) errors.push(oneLine(line, 200));
    } else if (part.kind === "toolCalls") {
      for (const call of parseToolCalls(part.text)) {
        const path = argValue(call.args, "path");
        if (call.name === "read" && path) read.push(path);
        else if ((call.name === "write" || call.name === "edit") && path) {
          modified.push(path);
          done.push(`${call.name === "write" ? "Wrote" : "Edited"} \`${path}\``);
        } else if (call.name === "bash") {
          const command = argValue(call.args, "command");
          if (command) commands.push(oneLine(command, 120));
        }
      }
    }
  }
  const out: Extract = { requests, constraints, decisions, errors, read, modified, commands, done };
  if (lastAssistant !== undefined) out.lastAssistant = lastAssistant;
  // the last open question: the final user message when nothing answered it, else a question the
  // assistant's final text asked the user
  const last = [...parts].reverse().find((p) => p.kind === "user" || p.kind === "assistant");
  if (last?.kind === "user" && last.text) out.openQuestion = oneLine(last.text, 400);
  else if (last?.kind === "assistant") {
    const q = sentences(last.text).reverse().find((s) => s.endsWith("?"));
    if (q) out.openQuestion = oneLine(q, 400);
  }
  return out;
}

/** Parses `## Heading` sections of an earlier summary, so an update can keep what it recorded. */
function previousSections(summary: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  const body = summary.replace(/<(read-files|modified-files)>[\s\S]*?<\/\1>/g, "");
  for (const line of body.split("\n")) {
    const h = /^#{2,3} (.+)$/.exec(line);
    if (h?.[1]) {
      current = [];
      sections.set(h[1].trim(), current);
    } else if (current && line.trim() !== "") current.push(line.trim());
  }
  return sections;
}

function bulletText(line: string): string {
  return line.replace(/^(- \[[ x]\] |- |\d+\. )/, "");
}

function section(title: string, lines: string[]): string {
  return lines.length > 0 ? `${title}\n${lines.join("\n")}` : "";
}

function joinSections(sections: string[]): string {
  return sections.filter((s) => s !== "").join("\n\n");
}

/** The first real request: slash commands ("/model", "/compact") are not goals. */
function firstRequest(x: Extract): string | undefined {
  return x.requests.find((r) => !r.startsWith("/")) ?? x.requests[0];
}

function historySummary(x: Extract, previous: string | undefined): string {
  const prev = previous ? previousSections(previous) : new Map<string, string[]>();
  const carried = (name: string) => (prev.get(name) ?? []).map(bulletText);
  const goal = prev.get("Goal")?.join(" ") || firstRequest(x) || "(no user request in this part of the conversation)";
  const requests = lastItems(x.requests, LIMITS.requests);
  const constraints = unique([...carried("Constraints & Preferences"), ...x.constraints], LIMITS.constraints * 2);
  const done = unique([...carried("Done"), ...x.done, ...x.commands.map((c) => `Ran \`${c}\``)], LIMITS.done * 2);
  const decisions = unique([...carried("Key Decisions"), ...x.decisions.map((d) => `**Stated**: ${d}`)], LIMITS.decisions * 2);
  const inProgress = requests.length > 0 ? [requests[requests.length - 1] as string] : carried("In Progress");
  const critical = unique(
    [
      ...(x.openQuestion ? [`Open question: ${x.openQuestion}`] : []),
      ...lastItems(x.errors, LIMITS.errors).map((e) => `Error seen: ${e}`),
      ...carried("Critical Context").filter((l) => !l.startsWith("Open question:")),
    ],
    LIMITS.errors * 3,
  );
  const files = [
    ...(x.read.length ? [`Files read: ${unique(x.read, 50).join(", ")}`] : []),
    ...(x.modified.length ? [`Files modified: ${unique(x.modified, 50).join(", ")}`] : []),
  ];
  const next = x.openQuestion ? [`Answer or act on: ${x.openQuestion}`] : inProgress.length ? [`Continue with: ${inProgress[0]}`] : carried("Next Steps");
  return joinSections([
    `## Goal\n${goal}`,
    section("## Constraints & Preferences", constraints.map((c) => `- ${c}`)),
    done.length || inProgress.length ? "## Progress" : "",
    section("### Done", done.map((d) => `- [x] ${d}`)),
    section("### In Progress", inProgress.map((r) => `- [ ] ${r}`)),
    section("## Key Decisions", decisions.map((d) => `- ${d.startsWith("**") ? d : `**Stated**: ${d}`}`)),
    section("## Next Steps", next.map((s, i) => `${i + 1}. ${s}`)),
    section("## Critical Context", [...critical, ...files].map((c) => `- ${c}`)),
    section(
      "## Additional Notes",
      requests.length > 1 ? [`Requests in this part, oldest first: ${requests.map((r) => `"${oneLine(r, 120)}"`).join("; ")}`] : [],
    ),
    "(Summary extracted offline, without a model.)",
  ]);
}

function turnPrefixSummary(x: Extract): string {
  const progress = unique([...x.done, ...x.commands.map((c) => `Ran \`${c}\``), ...x.decisions], LIMITS.done);
  const context = [
    ...lastItems(x.errors, LIMITS.errors).map((e) => `Error seen: ${e}`),
    ...(x.read.length ? [`Files read: ${unique(x.read, 50).join(", ")}`] : []),
    ...(x.modified.length ? [`Files modified: ${unique(x.modified, 50).join(", ")}`] : []),
  ];
  return joinSections([
    `## Original Request\n\n${firstRequest(x) ?? "(not part of this prefix)"}`,
    section("## Early Progress", progress.map((p) => `- ${p}`)),
    section("## Context for Suffix", (context.length ? context : ["The suffix continues the work above."]).map((c) => `- ${c}`)),
  ]);
}

function listPhrase(items: string[], max = 4): string {
  const shown = items.slice(0, max).map((i) => `\`${i}\``);
  const more = items.length > max ? ` and ${items.length - max} more` : "";
  if (shown.length <= 1) return `${shown.join("")}${more}`;
  return more ? `${shown.join(", ")}${more}` : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

function shortSummary(x: Extract, previous: string | undefined): string {
  const prevModified = previous ? /Files modified: (.+)/.exec(previous)?.[1]?.split(", ") ?? [] : [];
  const modified = unique([...x.modified, ...prevModified], 50);
  const out: string[] = [];
  if (modified.length > 0) out.push(`I changed ${listPhrase(modified)}.`);
  if (x.commands.length > 0) out.push(`I ran ${x.commands.length} command${x.commands.length === 1 ? "" : "s"}, the last being \`${x.commands[x.commands.length - 1]}\`.`);
  if (out.length === 0) {
    const topic = x.requests[x.requests.length - 1];
    out.push(topic ? `I worked on: ${oneLine(topic, 160)}` : "I made no file changes in this part of the session.");
  }
  return out.slice(0, 3).join(" ");
}

function branchSummary(x: Extract): string {
  const constraints = unique(x.constraints, LIMITS.constraints);
  const done = unique([...x.done, ...x.commands.map((c) => `Ran \`${c}\``)], LIMITS.done);
  const last = lastItems(x.requests, 1)[0];
  const decisions = unique(x.decisions, LIMITS.decisions);
  return joinSections([
    `## Goal\n\n${firstRequest(x) ?? "(no user request on this branch)"}`,
    section("## Constraints & Preferences", (constraints.length ? constraints : ["(none)"]).map((c) => `- ${c}`)),
    "## Progress",
    section("### Done", done.map((d) => `- [x] ${d}`)),
    section("### In Progress", last ? [`- [ ] ${last}`] : []),
    section("### Blocked", lastItems(x.errors, 3).map((e) => `- ${e}`)),
    section("## Key Decisions", decisions.map((d) => `- **Stated**: ${d}`)),
    section("## Next Steps", [x.openQuestion ? `1. Answer or act on: ${x.openQuestion}` : last ? `1. Continue with: ${last}` : ""].filter(Boolean)),
  ]);
}

/** Which summary the prompt asks for, when the caller did not say. */
function guessPurpose(prompt: string): SummaryPurpose {
  if (prompt.includes("## Original Request")) return "turnPrefix";
  if (/pull-request description/i.test(prompt)) return "short";
  if (prompt.includes("<previous-summary>")) return "update";
  return "history";
}

export class OfflineSummarizer implements Summarizer {
  readonly kind = "offline" as const;
  readonly label = "offline";

  async complete(_systemPrompt: string, prompt: string, options: SummarizeOptions): Promise<SummarizeResponse> {
    if (options.signal?.aborted) return abortedResponse();
    return { text: summarizeOffline(prompt, options.purpose ?? guessPurpose(prompt)), stopReason: "stop" };
  }
}

/** The offline summary of a prompt assembled as in compaction.md §8.2 / branch-summary.md §5. */
export function summarizeOffline(prompt: string, purpose: SummaryPurpose): string {
  const conversation = between(prompt, "<conversation>\n", "\n</conversation>") ?? "";
  const afterConversation = prompt.slice(prompt.lastIndexOf("</conversation>") + 1);
  const previous = between(afterConversation, "<previous-summary>\n", "\n</previous-summary>");
  const x = extract(parseConversation(conversation));
  switch (purpose) {
    case "turnPrefix":
      return turnPrefixSummary(x);
    case "short":
      return shortSummary(x, previous);
    case "branch":
      return branchSummary(x);
    case "history":
    case "update":
      return historySummary(x, previous);
  }
}
