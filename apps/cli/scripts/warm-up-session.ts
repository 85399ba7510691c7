/**
 * `node --import tsx apps/cli/scripts/warm-up-session.ts SESSION APPENDED`: the session the build's
 * warm-up imports before it writes dist/import.cjs's code cache (scripts/build.mjs), and the lines it
 * then appends to it: a generated pi session (every entry type, compactions, branches) and a
 * continuation of it from its leaf, with ids of their own.
 */
import { writeFileSync } from "node:fs";
import { generateSession, relinkEntry, sessionToJsonl } from "@bonsai/testkit";

const [sessionFile, appendedFile] = process.argv.slice(2);
if (!sessionFile || !appendedFile) throw new Error("usage: warm-up-session.ts SESSION APPENDED");
const session = generateSession({ entries: 600, seed: 7 });
writeFileSync(sessionFile, sessionToJsonl(session));
const leaf = session.entries[session.entries.length - 1]?.id ?? null;
const more = generateSession({ entries: 300, seed: 8 });
const lines = more.entries.map((e) => JSON.stringify(relinkEntry(e as unknown as Record<string, unknown>, (id) => `w${id}`, leaf)));
writeFileSync(appendedFile, `${lines.join("\n")}\n`);
