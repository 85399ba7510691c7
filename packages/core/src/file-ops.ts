/**
 * File-operation tracking for compaction and branch summaries (spec: compaction.md §6).
 *
 * Tool calls `read`, `write` and `edit` with a non-empty string `path` argument are collected into
 * three sets; previous internal summaries contribute their `details` lists; the final lists are
 * appended to a summary as `<read-files>` / `<modified-files>` tags.
 */
import type { AgentMessage, FileListDetails } from "./entries";

/** The three sets a summary's file lists are computed from (insertion order is irrelevant). */
export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export function createFileOperations(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** the code letter of each tool whose calls count (§6.1) */
const OP_CODES: Readonly<Record<string, string>> = { read: "r", write: "w", edit: "e" };

/**
 * The file operations of an assistant message's tool calls (§6.1), as codes: "r" (read), "w"
 * (write) or "e" (edit) followed by the path — what a store keeps per entry to list a plan's files
 * without the messages (addFileOpCode). Only `read`, `write` and `edit` calls whose
 * `arguments.path` is a non-empty string count; paths are kept verbatim.
 */
export function fileOpCodesOf(message: AgentMessage): string[] {
  const codes: string[] = [];
  if (message.role !== "assistant" || !Array.isArray(message.content)) return codes;
  for (const block of message.content) {
    if (block?.type !== "toolCall") continue;
    const args: unknown = block.arguments;
    if (typeof args !== "object" || args === null) continue;
    const path = (args as Record<string, unknown>).path;
    if (typeof path !== "string" || path === "") continue;
    const code = Object.hasOwn(OP_CODES, block.name) ? OP_CODES[block.name] : undefined;
    if (code !== undefined) codes.push(code + path);
  }
  return codes;
}

/** Adds one operation of fileOpCodesOf. */
export function addFileOpCode(code: string, fileOps: FileOperations): void {
  const path = code.slice(1);
  if (code[0] === "r") fileOps.read.add(path);
  else if (code[0] === "w") fileOps.written.add(path);
  else if (code[0] === "e") fileOps.edited.add(path);
}

/** Adds the file paths touched by an assistant message's tool calls (§6.1, fileOpCodesOf). */
export function extractFileOpsFromMessage(message: AgentMessage, fileOps: FileOperations): void {
  for (const code of fileOpCodesOf(message)) addFileOpCode(code, fileOps);
}

/**
 * The cumulative rule (§6.2): a previous internal summary's `details.readFiles` count as read,
 * its `details.modifiedFiles` as edited. Anything that is not an array of strings is ignored.
 */
export function addFileListDetails(details: unknown, fileOps: FileOperations): void {
  if (typeof details !== "object" || details === null) return;
  const { readFiles, modifiedFiles } = details as Record<string, unknown>;
  if (Array.isArray(readFiles)) for (const f of readFiles) if (typeof f === "string") fileOps.read.add(f);
  if (Array.isArray(modifiedFiles)) for (const f of modifiedFiles) if (typeof f === "string") fileOps.edited.add(f);
}

/**
 * `modified = edited ∪ written`; `readFiles` = read files never modified. Both sorted with the
 * JavaScript default sort (UTF-16 code-unit order), as the reference does.
 */
export function computeFileLists(fileOps: FileOperations): FileListDetails {
  const modified = new Set<string>([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((f) => !modified.has(f)).sort();
  const modifiedFiles = [...modified].sort();
  return { readFiles, modifiedFiles };
}

/**
 * How the file tags are laid out:
 * - `"normative"` (default): real newlines, a blank line before and between the tags (decision D1);
 * - `"omp-exact"`: the reference's defective output, glued to the summary with a literal
 *   backslash-n between paths. Only for byte-for-byte compatibility checks.
 */
export type FileTagLayout = "normative" | "omp-exact";

export interface FormatFileOperationsOptions {
  layout?: FileTagLayout;
}

/** The text appended to a summary (§6.4); `""` when both lists are empty. */
export function formatFileOperations(
  readFiles: readonly string[],
  modifiedFiles: readonly string[],
  options: FormatFileOperationsOptions = {},
): string {
  const omp = options.layout === "omp-exact";
  const pathSeparator = omp ? "\\n" : "\n";
  const blocks: string[] = [];
  if (readFiles.length > 0) blocks.push(`<read-files>\n${readFiles.join(pathSeparator)}\n</read-files>`);
  if (modifiedFiles.length > 0) blocks.push(`<modified-files>\n${modifiedFiles.join(pathSeparator)}\n</modified-files>`);
  if (blocks.length === 0) return "";
  return omp ? blocks.join("") : `\n\n${blocks.join("\n\n")}`;
}

const TAG_PATTERNS = {
  readFiles: /<read-files>([\s\S]*?)<\/read-files>/g,
  modifiedFiles: /<modified-files>([\s\S]*?)<\/modified-files>/g,
} as const;

function pathsInTags(text: string, pattern: RegExp): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(pattern)) {
    for (const line of (match[1] ?? "").split(/\r?\n|\\n/)) {
      if (line !== "") seen.add(line);
    }
  }
  return [...seen];
}

/**
 * Recovers file lists from a summary text written by either layout: tags are found anywhere (not
 * only at a line start), bodies are split on real newlines and on the two-character sequence `\n`.
 * Repeated tag blocks (a re-used summary carries its tags twice) are merged without duplicates.
 */
export function parseFileListsFromSummary(summary: string): FileListDetails {
  return {
    readFiles: pathsInTags(summary, TAG_PATTERNS.readFiles),
    modifiedFiles: pathsInTags(summary, TAG_PATTERNS.modifiedFiles),
  };
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;
}

/**
 * The file lists of a stored compaction or branch summary: its `details` when they carry the lists,
 * else whatever the summary text's tags say.
 */
export function recoverFileLists(entry: { summary: string; details?: unknown }): FileListDetails {
  const details = entry.details;
  if (typeof details === "object" && details !== null) {
    const readFiles = stringArray((details as Record<string, unknown>).readFiles);
    const modifiedFiles = stringArray((details as Record<string, unknown>).modifiedFiles);
    if (readFiles || modifiedFiles) return { readFiles: readFiles ?? [], modifiedFiles: modifiedFiles ?? [] };
  }
  return parseFileListsFromSummary(entry.summary);
}
