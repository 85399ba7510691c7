/**
 * A small, strict command-line parser: declared options only, `--name value`, `--name=value`,
 * `-x value`, `--` ends the options. Mistakes become UsageErrors that name the option.
 */
import { UsageError } from "./errors";

export type OptionType = "string" | "integer" | "boolean";

export interface OptionSpec {
  /** long name without dashes, e.g. "leaf" */
  name: string;
  /** one-letter alias without the dash, e.g. "o" */
  short?: string;
  type: OptionType;
  /** placeholder shown in usage, e.g. "ID" */
  valueName?: string;
  description: string;
}

export interface PositionalSpec {
  /** shown in usage, e.g. "FILE" */
  name: string;
  description: string;
  optional?: boolean;
  /** the last positional may take any number of values (shown as NAME...) */
  variadic?: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  positionals: PositionalSpec[];
  options: OptionSpec[];
}

export type OptionValue = string | number | boolean;

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, OptionValue | undefined>;
  help: boolean;
}

function optionLabel(o: OptionSpec): string {
  const value = o.type === "boolean" ? "" : ` ${o.valueName ?? "VALUE"}`;
  return `${o.short ? `-${o.short}, ` : ""}--${o.name}${value}`;
}

/** The usage line: `bonsai context FILE [--leaf ID] [--json]`. */
export function usageLine(spec: CommandSpec): string {
  const parts = [`bonsai ${spec.name}`];
  for (const p of spec.positionals) parts.push(p.optional ? `[${p.name}]` : p.name);
  for (const o of spec.options) parts.push(`[${o.short ? `-${o.short}` : `--${o.name}`}${o.type === "boolean" ? "" : ` ${o.valueName ?? "VALUE"}`}]`);
  return parts.join(" ");
}

/** Full help text of a command. */
export function formatCommandHelp(spec: CommandSpec): string {
  const rows: [string, string][] = [
    ...spec.positionals.map((p): [string, string] => [p.name, p.description]),
    ...spec.options.map((o): [string, string] => [optionLabel(o), o.description]),
    ["-h, --help", "show this help"],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`Usage: ${usageLine(spec)}`, "", spec.summary, "", ...rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`), ""].join("\n");
}

function convert(spec: CommandSpec, option: OptionSpec, flag: string, raw: string): OptionValue {
  if (option.type === "string") return raw;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${flag} must be a non-negative integer, got ${JSON.stringify(raw)} (see bonsai ${spec.name} --help)`);
  }
  return Number(raw);
}

export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, OptionValue | undefined> = {};
  let help = false;
  const byLong = new Map(spec.options.map((o) => [o.name, o]));
  const byShort = new Map(spec.options.filter((o) => o.short).map((o) => [o.short as string, o]));
  const hint = `(see bonsai ${spec.name} --help)`;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const isLong = arg.startsWith("--");
    const eq = isLong ? arg.indexOf("=") : -1;
    const key = isLong ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1);
    const option = isLong ? byLong.get(key) : byShort.get(key);
    const flag = isLong ? `--${key}` : `-${key}`;
    if (!option) throw new UsageError(`unknown option ${flag} for bonsai ${spec.name} ${hint}`);
    if (option.name in options) throw new UsageError(`${flag} given more than once ${hint}`);
    if (option.type === "boolean") {
      if (eq !== -1) throw new UsageError(`${flag} takes no value ${hint}`);
      options[option.name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || (raw.startsWith("-") && raw !== "-")) throw new UsageError(`${flag} needs a value (${option.valueName ?? "VALUE"}) ${hint}`);
      i++;
    }
    options[option.name] = convert(spec, option, flag, raw);
  }

  if (!help) {
    const required = spec.positionals.filter((p) => !p.optional).length;
    if (positionals.length < required) {
      const missing = spec.positionals[positionals.length] as PositionalSpec;
      throw new UsageError(`missing ${missing.name}: usage: ${usageLine(spec)}`);
    }
    if (positionals.length > spec.positionals.length && !spec.positionals[spec.positionals.length - 1]?.variadic) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[spec.positionals.length])}: usage: ${usageLine(spec)}`);
    }
  }
  return { positionals, options, help };
}
