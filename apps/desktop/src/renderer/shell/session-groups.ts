/**
 * The session list's filter, sort and grouping by project folder (the session's cwd), or on a team
 * archive by the project the session was pushed to. Pure; tested.
 */
import type { SessionSummaryDto } from "@bonsai/ipc";
import { agentName } from "../lib/agents";

export type SessionSort = "updated" | "created" | "title" | "entries" | "tokens";

export const SORTS: Array<{ value: SessionSort; label: string }> = [
  { value: "updated", label: "Last changed" },
  { value: "created", label: "Started" },
  { value: "title", label: "Title" },
  { value: "entries", label: "Most entries" },
  { value: "tokens", label: "Most tokens in context" },
];

export interface SessionGroup {
  /** the project folder ("" when the session has none); on a team archive "project:" and the project's name */
  folder: string;
  /** on a team archive: the project the group's sessions were pushed to */
  project?: string;
  /** its last part, for the heading; with as many parent parts as tell it from other groups of the same last part */
  name: string;
  sessions: SessionSummaryDto[];
}

/**
 * every word of the filter must appear in the title, the folder path, the agent's name ("Codex",
 * "Claude Code", its id), the session id, or (on a team archive) its project or the person who pushed it
 */
export function filterSessions(sessions: readonly SessionSummaryDto[], filter: string): SessionSummaryDto[] {
  const words = filter.toLowerCase().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((s) => {
    const text = `${s.title}\n${s.cwd}\n${s.id}\n${agentName(s.agent)}\n${s.agent}\n${s.archive ? `${s.archive.project}\n${s.archive.pushedBy}` : ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The projects and the people of the archived sessions, each sorted, for the list's two filters. */
export function archiveFacets(sessions: readonly SessionSummaryDto[]): { projects: string[]; people: string[] } {
  const projects = new Set<string>();
  const people = new Set<string>();
  for (const s of sessions) {
    if (!s.archive) continue;
    projects.add(s.archive.project);
    people.add(s.archive.pushedBy);
  }
  const sorted = (set: Set<string>) => [...set].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: "base" }));
  return { projects: sorted(projects), people: sorted(people) };
}

function compare(sort: SessionSort): (a: SessionSummaryDto, b: SessionSummaryDto) => number {
  switch (sort) {
    case "updated":
      return (a, b) => b.updatedAt.localeCompare(a.updatedAt);
    case "created":
      return (a, b) => b.createdAt.localeCompare(a.createdAt);
    case "title":
      return (a, b) => a.title.localeCompare(b.title, undefined, { sensitivity: "base" });
    case "entries":
      return (a, b) => b.entryCount - a.entryCount;
    case "tokens":
      return (a, b) => (b.contextTokens ?? -1) - (a.contextTokens ?? -1);
  }
}

function folderParts(folder: string): string[] {
  return folder.split(/[\\/]+/u).filter(Boolean);
}

/**
 * Each folder's heading: its last part, or, where other folders end in the same part, the fewest
 * trailing parts that tell it from every one of them ("api/cli", "web/cli").
 */
export function folderNames(folders: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const split = new Map(folders.map((f) => [f, folderParts(f)]));
  const tail = (parts: string[], n: number) => parts.slice(-n).join("/");
  for (const [folder, parts] of split) {
    if (folder === "") {
      names.set(folder, "No project folder");
      continue;
    }
    let n = 1;
    const others = [...split].filter(([f, p]) => f !== folder && f !== "" && p.at(-1) === parts.at(-1)).map(([, p]) => p);
    while (n < parts.length && others.some((o) => tail(o, n) === tail(parts, n))) n++;
    names.set(folder, tail(parts, n) || folder);
  }
  return names;
}

/** Sessions grouped by folder (an archived session: by its project); groups in the order of their first session under the sort. */
export function groupSessions(sessions: readonly SessionSummaryDto[], sort: SessionSort): SessionGroup[] {
  const sorted = [...sessions].sort((a, b) => compare(sort)(a, b) || a.id.localeCompare(b.id));
  const names = folderNames([...new Set(sorted.filter((s) => !s.archive).map((s) => s.cwd))]);
  const groups = new Map<string, SessionGroup>();
  for (const s of sorted) {
    // an archived project's key is no folder path (those are absolute)
    const key = s.archive ? `project:${s.archive.project}` : s.cwd;
    let g = groups.get(key);
    if (!g) {
      g = s.archive ? { folder: key, name: s.archive.project, project: s.archive.project, sessions: [] } : { folder: key, name: names.get(s.cwd) ?? s.cwd, sessions: [] };
      groups.set(key, g);
    }
    g.sessions.push(s);
  }
  const list = [...groups.values()];
  return sort === "title" ? list.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" })) : list;
}

/**
 * The groups and rows drawn while `drawn` rows are: groups in order, each with as many of its rows
 * as are left (a closed group: its header only), up to the group where the rows run out; `cut` when
 * something is left undrawn (the "more" row then ends the list), `rowsLeft` how many rows of open
 * groups that is.
 */
export function drawnGroups(groups: readonly SessionGroup[], closed: ReadonlySet<string>, drawn: number): { visible: { group: SessionGroup; rows: SessionSummaryDto[] }[]; cut: boolean; rowsLeft: number } {
  const visible: { group: SessionGroup; rows: SessionSummaryDto[] }[] = [];
  let used = 0;
  let cut = false;
  for (const group of groups) {
    if (used >= drawn) {
      cut = true;
      break;
    }
    const open = !closed.has(group.folder);
    const rows = open ? group.sessions.slice(0, drawn - used) : [];
    used += rows.length;
    visible.push({ group, rows });
    if (rows.length < (open ? group.sessions.length : 0)) {
      cut = true;
      break;
    }
  }
  const openRows = groups.reduce((n, g) => (closed.has(g.folder) ? n : n + g.sessions.length), 0);
  return { visible, cut, rowsLeft: openRows - used };
}
