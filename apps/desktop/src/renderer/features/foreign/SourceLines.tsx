/**
 * The inspector's view of what a Claude Code or Codex entry was read from: an agent event (a line
 * that is not conversation: hooks, progress, snapshots, token counts, ...) and the agent's original
 * lines of any entry, pretty-printed, with their line numbers in the agent's file.
 */
import type { SessionEntry } from "@bonsai/core";

interface SourceLine {
  n: number;
  text: string;
}

function sourceOf(entry: SessionEntry): SourceLine[] {
  const source = (entry as { source?: unknown }).source;
  return Array.isArray(source) ? (source as SourceLine[]).filter((l) => typeof l?.n === "number" && typeof l.text === "string") : [];
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function isAgentEvent(entry: SessionEntry): boolean {
  return (entry as { type: string }).type === "agent_event";
}

export function AgentEventView({ entry }: { entry: SessionEntry }) {
  const e = entry as { event?: unknown; text?: unknown };
  return (
    <section data-testid="inspector-agent-event">
      <dl className="bz-fields">
        <dt>event</dt>
        <dd>
          <code>{typeof e.event === "string" ? e.event : "?"}</code>
        </dd>
      </dl>
      <p>{typeof e.text === "string" ? e.text : ""}</p>
      <p className="bz-muted">Metadata the agent recorded: shown here, never sent to the model.</p>
    </section>
  );
}

/** The entry's lines in the agent's file (none for pi entries and for entries a reader derived). */
export function SourceLines({ entry, open = false }: { entry: SessionEntry; open?: boolean }) {
  const lines = sourceOf(entry).filter((l) => l.text.trim() !== "");
  if (lines.length === 0) return null;
  const where = lines.length === 1 ? `line ${lines[0]?.n}` : `lines ${lines.map((l) => l.n).join(", ")}`;
  return (
    <details open={open} data-testid="inspector-source-lines">
      <summary>The agent&apos;s file, {where}</summary>
      {lines.map((l) => (
        <pre key={l.n} className="bz-code">
          {pretty(l.text)}
        </pre>
      ))}
    </details>
  );
}
