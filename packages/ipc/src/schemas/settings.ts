/** Settings, their patches and their state. */
import { z } from "zod";
import { nonNegInt, posInt, url } from "./primitives";

export const settingsSchema = z.object({
  compaction: z.object({
    enabled: z.boolean(),
    reserveTokens: nonNegInt,
    keepRecentTokens: nonNegInt,
    autoContinue: z.boolean(),
    remoteEndpoint: url,
    /** compact above this many tokens instead of contextWindow - reserveTokens; 0 = unset */
    thresholdTokens: nonNegInt,
    /** compact above this percentage of the window; 0 = unset */
    thresholdPercent: nonNegInt.max(100),
  }),
  pruning: z.object({ enabled: z.boolean(), protectTokens: nonNegInt, minimumSavings: nonNegInt }),
  branchSummary: z.object({ enabled: z.boolean(), reserveTokens: nonNegInt }),
  retry: z.object({ enabled: z.boolean(), maxRetries: nonNegInt.max(100), baseDelayMs: nonNegInt.max(3_600_000) }),
  model: z.object({
    baseUrl: url,
    model: z.string().max(200),
    fallbackModels: z.array(z.string().min(1).max(200)).max(20),
    contextWindowOverrides: z.array(z.string().min(1).max(300)).max(50),
    contextWindow: posInt,
    maxOutputTokens: posInt,
    apiKeyEnv: z.string().max(200).regex(/^[A-Za-z_][A-Za-z0-9_]*$/u, "must be an environment variable name"),
  }),
  hooksDir: z.string().max(4096),
  sessionDirs: z.array(z.string().min(1).max(4096)).max(100),
  theme: z.enum(["system", "light", "dark"]),
  team: z.object({ redactPatterns: z.array(z.string().min(1).max(1000)).max(200) }),
});

/** A settings change: any subset of the fields, nested objects merged. Unknown keys are refused. */
export const settingsPatchSchema = z.strictObject({
  compaction: settingsSchema.shape.compaction.partial().strict().optional(),
  pruning: settingsSchema.shape.pruning.partial().strict().optional(),
  branchSummary: settingsSchema.shape.branchSummary.partial().strict().optional(),
  retry: settingsSchema.shape.retry.partial().strict().optional(),
  model: settingsSchema.shape.model.partial().strict().optional(),
  hooksDir: settingsSchema.shape.hooksDir.optional(),
  sessionDirs: settingsSchema.shape.sessionDirs.optional(),
  theme: settingsSchema.shape.theme.optional(),
  team: settingsSchema.shape.team.partial().strict().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const settingsStateSchema = z.object({
  settings: settingsSchema,
  /** an API key is available (from the environment, the OS keychain or the key file); the key itself never crosses */
  hasApiKey: z.boolean(),
  /** where the key in use comes from */
  apiKeySource: z.enum(["env", "keychain", "file"]).nullable(),
  /** where setApiKey stores a key: the OS keychain (Electron safeStorage) or a 0600 file in the data folder */
  apiKeyStorage: z.enum(["keychain", "file"]),
  /** the settings the window cannot set as it likes (HOST_SETTINGS), and how they change */
  hostSettings: z.object({
    /** dotted names, e.g. "hooksDir", "model.apiKeyEnv" */
    fields: z.array(z.string()),
    /**
     * "cli": read-only in the window (browser mode); changed on the host with `command`.
     * "dialogs": the desktop app changes them through its own dialogs (a folder picker, a confirmation).
     */
    changeWith: z.enum(["cli", "dialogs"]),
    /** the command that changes one on the host, with KEY and VALUE to fill in */
    command: z.string(),
    /** the database file whose settings hold them */
    database: z.string(),
  }),
});
export type SettingsState = z.infer<typeof settingsStateSchema>;
