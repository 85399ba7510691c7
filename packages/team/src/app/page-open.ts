/**
 * Opening an archived session in the page fast in every server process. The answer (the session's
 * summary and packed tree skeleton) is the app's own. When PostgreSQL keeps an answer for a long
 * session's current entry count (kept-answers.ts), that answer is sent at once, as the gzip it is
 * kept as, and a process that holds no copy makes it behind the answer, a few seconds
 * later (COPY_AFTER_KEPT_ANSWER_MS: the page draws the tree meanwhile, and the copy's import would
 * take one of its cores); a read that needs the copy before then starts it. The page's entry and
 * preview reads come from PostgreSQL until the copy is made (direct-reads.ts); its other reads (what
 * the model sees, what-if) wait for the copy. With no kept answer, the answer is taken from the copy
 * (made first when this process has none) and kept for the other processes.
 *
 * The process that takes a push warms the session a moment after its last batch: it makes its copy
 * and keeps the answer, so the first open after a push is fast in every process. Only long sessions
 * are kept and warmed (KEEP_FROM_ENTRIES); a short one is copied quickly at its first open.
 */
import type { MethodOutput } from "@bonsai/ipc";
import type pg from "pg";
import { archiveKey } from "../archive-identity";
import { ArchiveStore, type ArchivedSessionRow } from "../archive-store";
import type { Principal } from "../people";
import { isOpenAnswerKept, keepOpenAnswer, keptAnswerSessionId, keptAnswerValue, keptOpenAnswer, parseKeptAnswer } from "./kept-answers";
import { keyedAnswer } from "./page-keys";
import type { ArchiveSessionCache, HeldSession } from "./session-cache";

type OpenAnswer = MethodOutput<"openSession">;

/** how long after a push's last batch the session is warmed (a push sends a batch every few hundred ms) */
export const WARM_AFTER_PUSH_MS = 2000;

/**
 * the sessions whose answer is kept and which a push warms: those of at least this many entries (a
 * shorter one is copied in about a second when a page opens it, 2,000 entries: 1.0 s; keeping and
 * warming every session a `push --all` sends would cost each a whole copy in the receiving process)
 */
export const KEEP_FROM_ENTRIES = 5000;

/**
 * how long after a kept answer was sent the copy behind it starts, unless a read needs it sooner:
 * the page lays out and draws the tree meanwhile (a 100,000-entry session: about a second), and on a
 * machine of two cores the copy's import would take one of them from the page's browser
 */
export const COPY_AFTER_KEPT_ANSWER_MS = 3000;

export interface PageOpenerOptions {
  /** default WARM_AFTER_PUSH_MS */
  warmAfterPushMs?: number;
  /** default COPY_AFTER_KEPT_ANSWER_MS */
  copyAfterKeptAnswerMs?: number;
  /** default KEEP_FROM_ENTRIES */
  keepFromEntries?: number;
}

export class PageOpener {
  /** session key -> the timer of its warming after a push */
  private readonly warming = new Map<string, NodeJS.Timeout>();
  /** session key -> the timer of its copy behind a kept answer */
  private readonly copying = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly cache: ArchiveSessionCache,
    /** the app's open of the session in this process's copy, as the page gets it (held under the session's lock) */
    private readonly answerFromCopy: (held: HeldSession) => Promise<OpenAnswer>,
    private readonly log: (line: string) => void = () => undefined,
    private readonly options: PageOpenerOptions = {},
  ) {}

  /** The page's open of the session `name` names (page-keys.ts), once the caller may read it. */
  async open(principal: Principal, name: string): Promise<OpenAnswer> {
    const archive = new ArchiveStore(this.pool, principal);
    const row = await archive.session(name);
    if (row.entryCount >= this.keepFrom) {
      const kept = await keptOpenAnswer(this.pool, row.pk, row.entryCount);
      if (kept !== null) {
        if (!this.cache.heldCopy(row)) this.copyLater(archive, row);
        // sent as it is when it names the session with its key, as every answer kept now does (the
        // session's id is the answer's first field); otherwise named again
        const keptId = keptAnswerSessionId(kept);
        if (keptId === row.key) return keptAnswerValue(kept, { sessionPk: row.pk, entryCount: row.entryCount });
        return keyedAnswer(parseKeptAnswer(kept), new Map(keptId === undefined ? [] : [[keptId, row.key]]));
      }
    }
    return this.cache.withSession(archive, row.key, async (held) => {
      const answer = await this.answerFromCopy(held);
      const unkept = held.entryCount >= this.keepFrom && (held.pk !== row.pk || held.entryCount !== row.entryCount || !(await isOpenAnswerKept(this.pool, held.pk, held.entryCount)));
      if (unkept) await this.keep(held, answer);
      return answer;
    });
  }

  /** `principal` pushed entries of their session `sessionId` into `project`: its copy is made and its answer kept once the push has been quiet a moment. */
  pushed(principal: Principal, project: string, sessionId: string): void {
    const key = archiveKey({ project, pushedBy: principal.name, sessionId });
    clearTimeout(this.warming.get(key));
    const timer = setTimeout(() => {
      this.warming.delete(key);
      const archive = new ArchiveStore(this.pool, principal);
      archive.session(key).then(
        (row) => {
          if (row.entryCount >= this.keepFrom) this.cache.prepare(archive, row, async (held) => this.keep(held, await this.answerFromCopy(held)));
        },
        () => undefined, // the push's session is gone (or its pusher lost the project) meanwhile: nothing to warm
      );
    }, this.options.warmAfterPushMs ?? WARM_AFTER_PUSH_MS);
    timer.unref();
    this.warming.set(key, timer);
  }

  close(): void {
    for (const timer of [...this.warming.values(), ...this.copying.values()]) clearTimeout(timer);
    this.warming.clear();
    this.copying.clear();
  }

  /** the copy behind a kept answer, once the page had time to draw (a read that needs it sooner makes it then) */
  private copyLater(archive: ArchiveStore, row: ArchivedSessionRow): void {
    if (this.copying.has(row.key)) return;
    const timer = setTimeout(() => {
      this.copying.delete(row.key);
      this.cache.prepare(archive, row);
    }, this.options.copyAfterKeptAnswerMs ?? COPY_AFTER_KEPT_ANSWER_MS);
    timer.unref();
    this.copying.set(row.key, timer);
  }

  private get keepFrom(): number {
    return this.options.keepFromEntries ?? KEEP_FROM_ENTRIES;
  }

  private async keep(row: ArchivedSessionRow, answer: OpenAnswer): Promise<void> {
    // only an answer made from a copy of exactly the row's entries (a push may land between the row's read and the copy)
    if (answer.session.entryCount !== row.entryCount || row.entryCount < this.keepFrom) return;
    try {
      await keepOpenAnswer(this.pool, row.pk, row.entryCount, JSON.stringify(answer));
    } catch (error) {
      this.log(`${new Date().toISOString()} CACHE the open answer of session row ${row.pk} was not kept: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
  }
}
