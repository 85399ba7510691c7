/**
 * DTO schemas shared by the contract: what crosses between renderer and backend.
 * Every shape here is a zod schema; its TypeScript type is derived with z.infer, and where core
 * already names the type (PackedSkeleton, BonsaiSettings, SessionEntry) a compile-time check below
 * keeps the two in step.
 */
import type { z } from "zod";
import type { AmnesiaOverview, AmnesiaReport, BonsaiSettings, IdentifierUse, PackedSkeleton, WhatIfSettings } from "@bonsai/core";
import { agree, type Same } from "./type-checks";
import type { amnesiaOverviewSchema, amnesiaReportSchema, identifierUseSchema } from "./schemas/amnesia";
import type { settingsSchema } from "./schemas/settings";
import type { packedSkeletonSchema } from "./schemas/tree";
import type { whatIfSettingsSchema } from "./schemas/whatif";

export { idSchema, leafIdSchema } from "./schemas/primitives";
export * from "./schemas/sessions";
export * from "./schemas/tree";
export * from "./schemas/context";
export * from "./schemas/plans";
export * from "./schemas/settings";
export * from "./schemas/whatif";
export * from "./schemas/amnesia";

// ---------------------------------------------------------------- compile-time agreement with core

agree<Same<z.infer<typeof packedSkeletonSchema>, PackedSkeleton>>();
agree<Same<z.infer<typeof settingsSchema>, BonsaiSettings>>();
agree<Same<keyof z.infer<typeof settingsSchema>, keyof BonsaiSettings>>();
agree<Same<z.infer<typeof whatIfSettingsSchema>, WhatIfSettings>>();
agree<Same<z.infer<typeof amnesiaReportSchema>, AmnesiaReport>>();
agree<Same<z.infer<typeof amnesiaOverviewSchema>, AmnesiaOverview>>();
agree<Same<z.infer<typeof identifierUseSchema>, IdentifierUse>>();
