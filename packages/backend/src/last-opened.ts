/**
 * The session opened last, remembered across restarts (<dataDir>/last-opened.json) so that a
 * backend reads its skeleton ahead once a window lists the sessions: the first open of the day is
 * usually that session, and on 100,000 entries reading its skeleton cold is most of that open's
 * wait. Only a hint: a file that cannot be read or written is ignored, and a session removed since
 * is skipped.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const FILE_NAME = "last-opened.json";

export class LastOpened {
  readonly #file: string;
  #last: string | null = null;
  constructor(dataDir: string) {
    this.#file = path.join(dataDir, FILE_NAME);
  }

  /** the session opened last by any backend on this data folder, or null */
  read(): string | null {
    try {
      const value: unknown = JSON.parse(fs.readFileSync(this.#file, "utf8"));
      const id = (value as { sessionId?: unknown } | null)?.sessionId;
      return typeof id === "string" && id !== "" ? id : null;
    } catch {
      return null;
    }
  }

  /** notes an open (written once per change of session, in the background) */
  note(sessionId: string): void {
    if (this.#last === sessionId) return;
    this.#last = sessionId;
    fs.writeFile(this.#file, `${JSON.stringify({ sessionId })}\n`, () => undefined);
  }
}
