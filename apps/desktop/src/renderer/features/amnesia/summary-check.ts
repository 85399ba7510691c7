/** The dry-run summary check's instruction text (pure; tested). */

const PREFIX = "Keep these identifiers verbatim in the summary:";

/**
 * `instructions` with one line asking to keep `identifiers` verbatim; a line added before is
 * replaced (its identifiers kept), so running the check again does not pile up lines.
 */
export function instructionsWithIdentifiers(instructions: string, identifiers: readonly string[]): string {
  const lines = instructions.split("\n");
  const earlier = lines.filter((l) => l.startsWith(PREFIX)).flatMap((l) => l.slice(PREFIX.length).replace(/\.$/, "").split(",").map((s) => s.trim()).filter((s) => s !== ""));
  const rest = lines.filter((l) => !l.startsWith(PREFIX)).join("\n").trim();
  const all = [...new Set([...earlier, ...identifiers])];
  const line = `${PREFIX} ${all.join(", ")}.`;
  return rest === "" ? line : `${rest}\n${line}`;
}
