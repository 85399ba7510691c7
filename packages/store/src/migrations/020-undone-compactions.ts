import type { Migration } from "./types";

/**
 * An undone compaction is not counted (core undo-markers.ts): each session's stored compaction
 * count, which earlier versions kept counting after Bonsai's Undo (its "bonsai-undo" entry, the
 * same one written now), is counted again for the sessions holding undo or redo entries.
 */
export const migration020UndoneCompactions: Migration = {
  version: 20,
  name: "undone-compactions",
  up(db) {
    db.exec(`
      UPDATE session_agents SET compactions = max(0,
          (SELECT count(*) FROM entries e WHERE e.session_id = session_agents.session_id AND e.type = 'compaction')
        - (SELECT count(*) FROM entries e JOIN entry_json j ON j.pk = e.pk
           WHERE e.session_id = session_agents.session_id AND e.type = 'custom' AND json_extract(j.json, '$.customType') = 'bonsai-undo'
             AND json_extract(j.json, '$.data.undid') = 'compaction' AND json_type(j.json, '$.data.entryId') = 'text')
        + (SELECT count(*) FROM entries e JOIN entry_json j ON j.pk = e.pk
           WHERE e.session_id = session_agents.session_id AND e.type = 'custom' AND json_extract(j.json, '$.customType') = 'bonsai-redo'
             AND json_extract(j.json, '$.data.redid') = 'compaction' AND json_type(j.json, '$.data.entryId') = 'text'))
      WHERE EXISTS (
        SELECT 1 FROM entries e JOIN entry_json j ON j.pk = e.pk
        WHERE e.session_id = session_agents.session_id AND e.type = 'custom' AND json_extract(j.json, '$.customType') IN ('bonsai-undo', 'bonsai-redo'));
    `);
  },
};
