/**
 * A generated team archive for `pnpm bench team`, made inside PostgreSQL with `INSERT … SELECT` over
 * `generate_series` (no row crosses the wire): the same columns the receive path writes (entry JSON
 * text, id, parent id, type, timestamp, and `search_text` = what the entry says, from which the
 * word vector is generated), with words drawn from a small vocabulary and one entry in twenty
 * carrying a Chinese or Japanese sentence. The search indexes (words, trigrams, word pairs) are dropped while rows go in and
 * built once at the end, as a restore would.
 */
import type pg from "pg";

export interface GeneratedArchive {
  sessions: number;
  entries: number;
  /** the session id of the one big session */
  bigSession: string;
  bigEntries: number;
}

const WORDS = (
  "deploy migration parser timeout retry cache index schema token session branch compaction summary context model tool read write edit bash test " +
  "build lint error warning failed passed refactor rename module import export server client request response queue worker thread lock file " +
  "folder path config settings prompt reply user assistant agent review commit merge rebase diff patch release version upgrade rollback backup " +
  "restore database table column query plan cost memory leak crash signal process spawn stream buffer encode decode json yaml toml markdown"
).split(" ");

const CJK = ["数据库迁移失败了", "请检查配置文件", "压缩摘要丢失了上下文", "テストが失敗しました", "データベースの移行", "サーバーを再起動してください"];

const sqlArray = (values: readonly string[]): string => `ARRAY[${values.map((v) => `'${v}'`).join(",")}]::text[]`;

/** Twelve words picked by hashing (session, seq), and a CJK sentence on one entry in twenty. */
function textExpression(pk: string, seq: string): string {
  const words = Array.from({ length: 12 }, (_, i) => `(${sqlArray(WORDS)})[1 + abs(hashint4((${seq} * ${i + 3} + ${pk} * ${i + 7})::int) % ${WORDS.length})]`);
  return `${words.join(" || ' ' || ")} || CASE WHEN ${seq} % 20 = 7 THEN ' ' || (${sqlArray(CJK)})[1 + abs(hashint4((${pk} + ${seq})::int)) % ${CJK.length}] ELSE '' END`;
}

function entriesInsert(fromPk: string, toPk: string, perSession: string): string {
  const text = textExpression("s.id", "g");
  return `
    INSERT INTO entries (session_pk, seq, entry_id, parent_id, type, at, entry, search_text)
    SELECT s.id, g, lpad(to_hex(g), 8, '0'), CASE WHEN g = 0 THEN NULL ELSE lpad(to_hex(g - 1), 8, '0') END, 'message',
           to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           json_build_object('type', 'message', 'id', lpad(to_hex(g), 8, '0'), 'parentId', CASE WHEN g = 0 THEN NULL ELSE lpad(to_hex(g - 1), 8, '0') END,
             'timestamp', to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             'message', json_build_object('role', CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END, 'content', json_build_array(json_build_object('type', 'text', 'text', t.text))))::text,
           t.text
      FROM sessions s
      CROSS JOIN LATERAL generate_series(0, ${perSession} - 1) g
      CROSS JOIN LATERAL (SELECT ${text} AS text) t
     WHERE s.id BETWEEN ${fromPk} AND ${toPk}`;
}

/**
 * Fills an empty, migrated archive: `sessions` sessions over `projects` projects (pushed by `pushedBy`),
 * one of them holding `bigEntries` entries and the others sharing the rest of `entries` evenly.
 */
export async function generateArchive(
  pool: pg.Pool,
  options: { sessions: number; entries: number; bigEntries: number; projectIds: readonly number[]; pushedBy: number; onProgress?: (line: string) => void },
): Promise<GeneratedArchive> {
  const client = await pool.connect();
  try {
    await client.query("SET maintenance_work_mem = '512MB'; SET synchronous_commit = off");
    await client.query("DROP INDEX IF EXISTS entries_words; DROP INDEX IF EXISTS entries_trigrams; DROP INDEX IF EXISTS entries_word_pairs");
    const perSession = Math.floor((options.entries - options.bigEntries) / (options.sessions - 1));
    await client.query(
      `INSERT INTO sessions (project_id, session_id, pushed_by, agent, title, cwd, header, started_at, entry_count, pushed_at)
       SELECT ($1::bigint[])[1 + g % cardinality($1::bigint[])], 'bench-' || lpad(g::text, 6, '0'), $2, 'pi', 'generated session ' || g, '/work/project-' || g % 10,
              json_build_object('type', 'session', 'version', 3, 'id', 'bench-' || lpad(g::text, 6, '0'), 'timestamp', '2026-01-01T00:00:00Z', 'cwd', '/work/project-' || g % 10)::text,
              '2026-01-01T00:00:00Z', CASE WHEN g = 0 THEN $3::int ELSE $4::int END, now() - g * interval '1 minute'
         FROM generate_series(0, $5::int - 1) g`,
      [options.projectIds, options.pushedBy, options.bigEntries, perSession, options.sessions],
    );
    const ids = (await client.query<{ min: string; max: string }>("SELECT min(id) AS min, max(id) AS max FROM sessions")).rows[0] as { min: string; max: string };
    const first = Number(ids.min);
    const last = Number(ids.max);
    await client.query(entriesInsert(String(first), String(first), String(options.bigEntries)));
    const step = 1000;
    for (let from = first + 1; from <= last; from += step) {
      await client.query(entriesInsert(String(from), String(Math.min(last, from + step - 1)), String(perSession)));
      options.onProgress?.(`  entries for sessions up to ${Math.min(last, from + step - 1) - first + 1}`);
    }
    options.onProgress?.("  building the word, trigram and word-pair indexes");
    await client.query("CREATE INDEX entries_words ON entries USING GIN (search)");
    await client.query("CREATE INDEX entries_trigrams ON entries USING GIN (search_text gin_trgm_ops)");
    await client.query("CREATE INDEX entries_word_pairs ON entries USING GIN (archive_word_pairs(search))");
    await client.query("VACUUM ANALYZE entries");
    await client.query("VACUUM ANALYZE sessions");
    return { sessions: options.sessions, entries: options.bigEntries + perSession * (options.sessions - 1), bigSession: "bench-000000", bigEntries: options.bigEntries };
  } finally {
    client.release();
  }
}
