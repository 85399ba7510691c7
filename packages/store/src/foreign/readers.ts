/** The formats layer's reader of each foreign source format. */
import { claudeCodeReader, codexReader, type SessionReader } from "@bonsai/formats";
import type { ForeignFormat } from "./read-only";

export const READERS_BY_FORMAT: Record<ForeignFormat, SessionReader> = { "claude-code": claudeCodeReader, codex: codexReader };
