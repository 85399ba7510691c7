/**
 * Prompt and context-template rendering (spec: context-building.md §3.2): plain `{{name}}`
 * substitution in one pass (a substituted value is never re-evaluated), then the reference's layout
 * normalisation of the whole rendered text. A placeholder without a value is an error, so a prompt
 * never goes out with a hole in it.
 */
import { PROMPT_FILES, type PromptName } from "./prompts.generated";

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/** Names of the placeholders a template uses, in first-use order. */
export function templatePlaceholders(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1] as string);
  return [...names];
}

/** Replaces every `{{name}}` with its value; throws TemplateError naming any missing ones. */
export function substitutePlaceholders(template: string, values: Readonly<Record<string, string>>, templateName = "template"): string {
  const missing = templatePlaceholders(template).filter((name) => typeof values[name] !== "string");
  if (missing.length > 0) {
    throw new TemplateError(`${templateName}: no value for placeholder${missing.length > 1 ? "s" : ""} ${missing.map((n) => `{{${n}}}`).join(", ")}`);
  }
  return template.replace(PLACEHOLDER, (_match, name: string) => values[name] as string);
}

/** Leading indentation: every two spaces become a tab, an odd space stays, existing tabs stay in place. */
function normalizeIndent(line: string): string {
  let i = 0;
  let out = "";
  let spaces = 0;
  const flush = (): void => {
    out += "\t".repeat(spaces >> 1) + (spaces & 1 ? " " : "");
    spaces = 0;
  };
  for (; i < line.length; i++) {
    const ch = line[i];
    if (ch === " ") spaces++;
    else if (ch === "\t") {
      flush();
      out += "\t";
    } else break;
  }
  if (i === 0) return line;
  flush();
  return out + line.slice(i);
}

/**
 * The layout normalisation applied to every rendered prompt: CR/CRLF -> LF, NBSP -> space,
 * trailing spaces/tabs removed per line, leading indentation rewritten, 3+ newlines -> 2, trimmed.
 */
export function normalizeLayout(text: string): string {
  const unified = text.replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ");
  const lines = unified.split("\n");
  for (let i = 0; i < lines.length; i++) lines[i] = normalizeIndent((lines[i] as string).replace(/[ \t]+$/, ""));
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** Substitution + layout normalisation. */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>, templateName?: string): string {
  return normalizeLayout(substitutePlaceholders(template, values, templateName));
}

/** Renders one of the embedded prompts/ files by name. */
export function renderPrompt(name: PromptName, values: Readonly<Record<string, string>> = {}): string {
  const template: string | undefined = PROMPT_FILES[name];
  if (template === undefined) throw new TemplateError(`unknown prompt ${name}`);
  return renderTemplate(template, values, `prompts/${name}.md`);
}
