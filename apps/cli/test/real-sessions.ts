/** The real agent sessions of ../shared/fixtures/real, by agent (tests skip with a message where they are absent). */
import * as fs from "node:fs";
import * as path from "node:path";

const REAL_DIR = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const AGENTS = ["claude-code", "codex", "pi"] as const;

/** agent -> the names of its .jsonl files (none when the folder is absent) */
export const REAL_SESSIONS: Record<(typeof AGENTS)[number], string[]> = Object.fromEntries(
  AGENTS.map((agent) => {
    const dir = path.join(REAL_DIR, agent);
    return [agent, fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort() : []];
  }),
) as Record<(typeof AGENTS)[number], string[]>;
export const ALL_REAL_SESSIONS = AGENTS.flatMap((agent) => REAL_SESSIONS[agent].map((name) => ({ agent, name })));
export const HAVE_REAL_SESSIONS = ALL_REAL_SESSIONS.length > 0;
if (!HAVE_REAL_SESSIONS) console.warn(`real agent sessions not found at ${REAL_DIR}: real-session tests skipped`);

export function realSession(agent: string, name: string): string {
  return path.join(REAL_DIR, agent, name);
}
