/**
 * Session files of any agent (the CLI's read commands): which agent wrote a file is decided from its
 * first lines (@bonsai/formats); pi / oh-my-pi files take core's block parser, Claude Code and Codex
 * files their reader. Loaded only for files and stored Claude Code or Codex sessions: a stored pi
 * session never loads the formats layer.
 */
import { readFileSync, statSync } from "node:fs";
import { oversizeReason } from "@bonsai/store/blocks";
import { CURRENT_SESSION_VERSION, type MigrationResult } from "@bonsai/core";
import { detectFormat, firstValues, looksLikePi, originalText, piSession, WHAT_BONSAI_READS, type ReadSession } from "@bonsai/formats";
import { UserError, describeFsError } from "./errors";
import { readHead } from "./read-head";
import { loadParsedSession, readFile, sessionOfEntries } from "./held-session";
import type { LoadedSession, SessionSource } from "./session-source";

/** A Claude Code or Codex session as its reader gave it (never written). */
export function foreignSession(read: ReadSession, parts: Pick<LoadedSession, "source" | "label" | "sourcePath" | "close">): LoadedSession {
  const migration: MigrationResult = { migrated: false, fromVersion: CURRENT_SESSION_VERSION, toVersion: CURRENT_SESSION_VERSION };
  return sessionOfEntries(read.header, read.entries, { ...parts, issues: read.issues, migration, leafId: read.leafId, title: read.title, foreign: read, jsonl: () => originalText(read) });
}

export function loadFile(source: SessionSource & { kind: "file" }, label: string): LoadedSession {
  let head: string;
  try {
    head = readHead(source.path);
  } catch (err) {
    throw new UserError(`${label}: ${describeFsError(err)}`);
  }
  const detection = detectFormat(head);
  if (detection.reader && detection.reader.format !== "pi") {
    let text: string;
    const oversize = oversizeReason(statSync(source.path).size);
    if (oversize !== null) throw new UserError(`${label} is ${oversize}`);
    try {
      text = readFileSync(source.path, "utf8");
    } catch (err) {
      throw new UserError(`${label}: ${describeFsError(err)}`);
    }
    return foreignSession(detection.reader.read(text), { source, label, sourcePath: source.path, close: () => undefined });
  }
  // a file no reader knows: one sentence, unless it looks like a broken pi file (core's parser says what is wrong)
  if (!detection.reader && !looksLikePi(firstValues(head))) throw new UserError(`${label}: ${detection.reason}`);
  return loadParsedSession(readFile(source, label), source, label, WHAT_BONSAI_READS);
}

/** The session as the formats layer sees it (what the pi and HTML exports take); loads every entry. */
export function readSessionOf(session: LoadedSession): ReadSession {
  if (session.foreign) return session.foreign;
  return piSession(session.header, session.entries(), { leafId: session.leafId, title: session.title, issues: session.issues });
}
